import SystemCalls

/// Why a node directory could not be read, locked or changed. `message` is one line a user can
/// act on; `code` is for callers that match on the kind of failure.
package struct NodeFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds of failure.
  package enum Code: Sendable, Equatable {
    /// Another freedom-keys holds the directory's lock and did not let go in time.
    case busy
    /// A file or directory could not be read, created, renamed or removed.
    case io
    /// A file is not what the layout expects there (a directory for a file, a device, too big).
    case unexpectedFile
    /// An interrupted change could not be finished or undone; the directory is left for the
    /// next run.
    case recovery
  }

  /// What kind of failure it is.
  package let code: Code
  /// One line saying what went wrong and what to do.
  package let message: String

  package init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// A failed system call on `path`: "could not <operation> <path>: <strerror>".
  static func system(_ operation: String, _ path: String, _ errorNumber: Int32 = Platform.errno)
    -> NodeFileError
  {
    let what = "could not \(operation) \(path)"
    switch errorNumber {
    case Platform.accessDenied, Platform.notPermitted:
      return NodeFileError(
        .io, "permission denied: \(what); check the owner, permissions and attributes (lsattr)")
    case Platform.readOnlyFileSystem:
      return NodeFileError(.io, "\(what): the file system is read-only")
    case Platform.noSpace, Platform.quotaExceeded:
      return NodeFileError(.io, "\(what): no space left on the device; free some space and retry")
    default: return NodeFileError(.io, "\(what): \(Platform.message(errorNumber))")
    }
  }

  package var description: String { message }
}

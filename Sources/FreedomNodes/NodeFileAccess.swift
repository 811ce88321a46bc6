import CryptoPrimitives
import NodeFiles

/// The reads every node type shares, errors typed as `NodeError`.
enum NodeFileAccess {
  /// The bytes of the regular file at `path`, or nil when there is none.
  static func read(_ path: String) throws(NodeError) -> SecureBytes? {
    try NodeSession.engine { () throws(NodeFileError) in try NodeFileReader.read(path) }
  }

  /// What `lstat` says about `path`, or nil.
  static func status(_ path: String) throws(NodeError) -> FileStatus? {
    try NodeSession.engine { () throws(NodeFileError) in try FileStatus.of(path) }
  }

  /// What `stat` says about `path` (links followed), or nil.
  static func statusFollowingLinks(_ path: String) throws(NodeError) -> FileStatus? {
    try NodeSession.engine { () throws(NodeFileError) in try FileStatus.following(path) }
  }

  /// `path` read and parsed with `parse`; a parse error is `.unreadable`.
  static func stored<Value>(_ path: String, _ parse: (SecureBytes) throws -> Value)
    throws(NodeError) -> StoredFile<Value>
  {
    try NodeSession.engine { () throws(NodeFileError) in try StoredFile.read(path, parse: parse) }
  }

  /// The event for a secret file other users can read, if `path` is one.
  static func sharedSecret(_ path: String) -> NodeEvent? {
    guard let status = try? FileStatus.of(path), status.isRegularFile,
      status.permissions & 0o077 != 0
    else { return nil }
    return .sharedSecretFile(path: path, mode: status.permissions)
  }

  /// Fails unless `path` is absent or a directory.
  static func requireDirectoryOrAbsent(_ path: String) throws(NodeError) {
    try NodeSession.requireDirectoryOrAbsent(path)
  }

  /// The value of a stored file, or the error `verify` gives for one it cannot read.
  static func understood<Value>(_ stored: StoredFile<Value>) throws(NodeError) -> Value? {
    switch stored {
    case .absent: return nil
    case .present(let value): return value
    case .unreadable(let problem): throw .unreadable(path: problem.path, reason: problem.reason)
    }
  }
}

extension NodeConflict.Found {
  /// The conflict for a file that could not be understood.
  static func from(_ problem: UnreadableNodeFile) -> NodeConflict.Found {
    .unreadable(problem.reason)
  }
}

import CryptoPrimitives
import FoundationEssentials
import SystemCalls

/// Writes key files the way geth and bee do: a new file in the same directory, created with mode
/// 0600, filled, flushed to disk and only then renamed over the target, so a reader sees either
/// the old file or the complete new one, and a failure leaves the old file untouched.
package enum SecureFileWriter {
  /// What to do when the target file already exists.
  package enum ReplacePolicy: Sendable, Equatable {
    /// Fail with `SecureFileError.alreadyExists`; the existing file is never touched, even if it
    /// appears while the new one is being written.
    case refuseExisting
    /// Atomically replace the existing file.
    case replace
  }

  /// An existing directory that group or others can access; it was left as it is.
  package struct PermissionWarning: Sendable, Equatable, CustomStringConvertible {
    /// The directory.
    package let path: String
    /// Its permission bits.
    package let mode: UInt32

    package var description: String {
      "warning: \(path) is accessible by other users (mode \(octal(mode))); "
        + "consider 'chmod 700 \(path)'"
    }
  }

  /// Creates `path` and any missing parents with exactly `mode` (whatever the umask). An existing
  /// directory keeps its permissions; if group or others can access it, the returned warning says
  /// so for the caller to show.
  @discardableResult
  package static func createDirectory(_ path: String, mode: UInt32 = 0o700) throws(SecureFileError)
    -> PermissionWarning?
  {
    guard !path.isEmpty else { throw .invalidPath(path) }
    let made: [String]
    do throws(DirectoryPath.Failure) {
      made = try DirectoryPath.make(path, mode: mode, ownedLikeParent: false)
    } catch {
      switch error {
      case .notADirectory(let prefix): throw .notADirectory(path: prefix)
      case .system(let operation, let prefix, let code):
        throw SecureFileError(errno: code, path: prefix, operation: operation)
      }
    }
    if made.isEmpty, let status = Platform.statFollowing(path: path),
      status.permissions & 0o077 != 0
    {
      return PermissionWarning(path: path, mode: status.permissions)
    }
    return nil
  }

  /// Throws what `write(_:to:…)` would fail on before it writes, writing nothing (a dry run's
  /// check): a path that names no file or a directory, a missing directory or one this user
  /// may not create files in.
  package static func requireWritable(_ path: String) throws(SecureFileError) {
    let (directory, _) = try split(path)
    if Platform.lstat(path: path)?.isDirectory == true { throw .isADirectory(path: path) }
    guard let status = Platform.statFollowing(path: directory) else {
      throw SecureFileError(errno: Platform.errno, path: path, operation: "create")
    }
    guard status.isDirectory else { throw .notADirectory(path: path) }
    let code = Platform.access(path: directory, Platform.mayWriteIn)
    if code != 0 { throw SecureFileError(errno: code, path: path, operation: "create") }
  }

  /// Writes `bytes` to `path` with permissions `mode`: a temporary file in the same directory
  /// (created exclusively with mode 0600, set to `mode` once filled), written, `fsync`ed and renamed
  /// over `path`, then the directory is `fsync`ed. On failure the temporary file is removed and
  /// any existing file at `path` is unchanged.
  package static func write(
    _ bytes: some ContiguousBytes, to path: String, mode: UInt32 = 0o600,
    replace: ReplacePolicy = .refuseExisting
  ) throws(SecureFileError) {
    let (directory, name) = try split(path)
    if let existing = Platform.lstat(path: path) {
      if existing.isDirectory { throw .isADirectory(path: path) }
      if replace == .refuseExisting { throw .alreadyExists(path: path) }
    }

    let suffix = Hex.encode(SecureRandom.bytes(count: 6))
    let temporary = NodePath.join(
      directory, "." + String(decoding: name.utf8.prefix(200), as: UTF8.self) + ".tmp-" + suffix)
    let fd = Platform.open(
      path: temporary,
      Platform.writeOnly | Platform.create | Platform.exclusive | Platform.noFollow, 0o600)
    guard fd >= 0 else {
      throw SecureFileError(errno: Platform.errno, path: path, operation: "create")
    }
    var descriptor: Int32? = fd
    var published = false
    defer {
      if let descriptor { _ = Platform.close(descriptor) }
      if !published { _ = Platform.unlink(path: temporary) }
    }

    let writeError = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
    if let writeError { throw SecureFileError(errno: writeError, path: path, operation: "write") }
    // Only now, with the content written, the mode the file ends with (it may share it).
    guard Platform.fchmod(fd, mode) == 0 else {
      throw SecureFileError(errno: Platform.errno, path: path, operation: "set permissions of")
    }
    guard Platform.fsync(fd) == 0 else {
      throw SecureFileError(errno: Platform.errno, path: path, operation: "flush")
    }
    descriptor = nil
    // close can report a deferred write error (NFS, quotas).
    guard Platform.close(fd) == 0 else {
      throw SecureFileError(errno: Platform.errno, path: path, operation: "close")
    }

    switch replace {
    case .replace:
      guard Platform.rename(path: temporary, path) == 0 else {
        throw SecureFileError(errno: Platform.errno, path: path, operation: "replace")
      }
    case .refuseExisting:
      // link() never replaces an existing name, so a file created meanwhile is not clobbered.
      if Platform.link(path: temporary, path) == 0 {
        _ = Platform.unlink(path: temporary)
      } else {
        let code = Platform.errno
        guard
          [
            Platform.notPermitted, Platform.notSupported, Platform.notImplemented,
            Platform.tooManyLinks,
          ].contains(code)
        else {
          throw SecureFileError(errno: code, path: path, operation: "create")
        }
        // A file system without hard links (FAT, some FUSE mounts): check, then rename.
        guard Platform.lstat(path: path) == nil, Platform.errno == Platform.noEntry else {
          throw .alreadyExists(path: path)
        }
        guard Platform.rename(path: temporary, path) == 0 else {
          throw SecureFileError(errno: Platform.errno, path: path, operation: "create")
        }
      }
    }
    published = true
    try syncDirectory(directory, for: path)
  }

  /// Makes the rename durable. File systems that cannot sync a directory report EINVAL; that
  /// is not an error.
  private static func syncDirectory(_ directory: String, for path: String) throws(SecureFileError) {
    let fd = Platform.open(path: directory, Platform.readOnly | Platform.directory)
    guard fd >= 0 else {
      throw SecureFileError(errno: Platform.errno, path: path, operation: "flush the directory of")
    }
    defer { _ = Platform.close(fd) }
    if Platform.fsync(fd) != 0, Platform.errno != Platform.invalidArgument {
      throw SecureFileError(errno: Platform.errno, path: path, operation: "flush the directory of")
    }
  }

  /// The directory and file name of `path`.
  private static func split(_ path: String) throws(SecureFileError) -> (String, String) {
    guard !path.isEmpty, !path.hasSuffix("/") else { throw .invalidPath(path) }
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let name = String(path[path.index(after: slash)...])
    guard name != ".", name != ".." else { throw .invalidPath(path) }
    let directory = slash == path.startIndex ? "/" : String(path[..<slash])
    return (directory, name)
  }
}

/// Why a key file or directory could not be written.
package enum SecureFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists and the policy was `.refuseExisting`.
  case alreadyExists(path: String)
  /// The user may not create or change the file there.
  case permissionDenied(path: String)
  /// The location is on a read-only file system.
  case readOnlyFileSystem(path: String)
  /// The disk (or the user's quota) is full.
  case noSpace(path: String)
  /// A component of the path is a file, not a directory.
  case notADirectory(path: String)
  /// The directory the file should go into does not exist.
  case noSuchDirectory(path: String)
  /// The path names a directory, not a file.
  case isADirectory(path: String)
  /// The path is empty or names no file (`dir/`, `..`).
  case invalidPath(String)
  /// Any other failure of the system call `operation`, with the system's message.
  case systemError(path: String, operation: String, message: String)

  init(errno code: Int32, path: String, operation: String) {
    switch code {
    case Platform.accessDenied, Platform.notPermitted: self = .permissionDenied(path: path)
    case Platform.readOnlyFileSystem: self = .readOnlyFileSystem(path: path)
    case Platform.noSpace, Platform.quotaExceeded: self = .noSpace(path: path)
    case Platform.notDirectory: self = .notADirectory(path: path)
    case Platform.noEntry: self = .noSuchDirectory(path: path)
    case Platform.isDirectory: self = .isADirectory(path: path)
    case Platform.exists: self = .alreadyExists(path: path)
    default:
      self = .systemError(
        path: path, operation: operation, message: Platform.message(code))
    }
  }

  package var description: String {
    switch self {
    case .alreadyExists(let path):
      "\(path) already exists; refusing to overwrite it (move it away first, or ask to replace it)"
    case .permissionDenied(let path):
      "permission denied for \(path); check the owner and permissions of its directory"
    case .readOnlyFileSystem(let path):
      "\(path) is on a read-only file system; choose another location"
    case .noSpace(let path): "no space left on the device for \(path); free some space and retry"
    case .notADirectory(let path):
      "part of the path \(path) is a file, not a directory; check the path"
    case .noSuchDirectory(let path):
      "the directory for \(path) does not exist; create it first or check the path"
    case .isADirectory(let path): "\(path) is a directory; give the path of a file"
    case .invalidPath(let path): "'\(path)' is not a file path"
    case .systemError(let path, let operation, let message):
      "could not \(operation) \(path): \(message)"
    }
  }
}

private func octal(_ mode: UInt32) -> String {
  let digits = String(mode, radix: 8)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

import CryptoPrimitives
import FoundationEssentials
import Glibc

/// Writes key files the way geth and bee do: a new file in the same directory, created with mode
/// 0600, filled, flushed to disk and only then renamed over the target, so a reader sees either
/// the old file or the complete new one, and a failure leaves the old file untouched.
public enum SecureFileWriter {
  /// What to do when the target file already exists.
  public enum ReplacePolicy: Sendable, Equatable {
    /// Fail with `SecureFileError.alreadyExists`; the existing file is never touched, even if it
    /// appears while the new one is being written.
    case refuseExisting
    /// Atomically replace the existing file.
    case replace
  }

  /// An existing directory that group or others can access; it was left as it is.
  public struct PermissionWarning: Sendable, Equatable, CustomStringConvertible {
    /// The directory.
    public let path: String
    /// Its permission bits.
    public let mode: UInt32

    public var description: String {
      "warning: \(path) is accessible by other users (mode \(octal(mode))); "
        + "consider 'chmod 700 \(path)'"
    }
  }

  /// Creates `path` and any missing parents with exactly `mode` (whatever the umask). An existing
  /// directory keeps its permissions; if group or others can access it, the returned warning says
  /// so for the caller to show.
  @discardableResult
  public static func createDirectory(_ path: String, mode: UInt32 = 0o700) throws(SecureFileError)
    -> PermissionWarning?
  {
    guard !path.isEmpty else { throw .invalidPath(path) }
    var prefixes: [String] = []
    var current = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
      prefixes.append(current)
    }
    for (index, prefix) in prefixes.enumerated() {
      let isTarget = index == prefixes.count - 1
      var info = stat()
      if stat(prefix, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: prefix) }
        if isTarget, info.st_mode & 0o077 != 0 {
          return PermissionWarning(path: path, mode: UInt32(info.st_mode & 0o7777))
        }
        continue
      }
      guard errno == ENOENT else {
        throw SecureFileError(errno: errno, path: prefix, operation: "inspect")
      }
      if mkdir(prefix, mode_t(mode)) != 0 {
        let code = errno
        // Another process may have created it meanwhile; that is fine if it is a directory.
        if code == EEXIST, stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { continue }
        throw SecureFileError(errno: code, path: prefix, operation: "create directory")
      }
      // mkdir applied the umask; set exactly `mode`, on the directory just made (not a symlink).
      let fd = open(prefix, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard fd >= 0 else {
        throw SecureFileError(errno: errno, path: prefix, operation: "open directory")
      }
      defer { close(fd) }
      guard fchmod(fd, mode_t(mode)) == 0 else {
        throw SecureFileError(errno: errno, path: prefix, operation: "set permissions of")
      }
    }
    return nil
  }

  /// Writes `bytes` to `path` with permissions `mode`: a temporary file in the same directory
  /// (created exclusively with mode 0600, set to `mode` once filled), written, `fsync`ed and renamed
  /// over `path`, then the directory is `fsync`ed. On failure the temporary file is removed and
  /// any existing file at `path` is unchanged.
  public static func write(
    _ bytes: some ContiguousBytes, to path: String, mode: UInt32 = 0o600,
    replace: ReplacePolicy = .refuseExisting
  ) throws(SecureFileError) {
    let (directory, name) = try split(path)
    var info = stat()
    if lstat(path, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFDIR { throw .isADirectory(path: path) }
      if replace == .refuseExisting { throw .alreadyExists(path: path) }
    }

    let suffix = Hex.encode(SecureRandom.bytes(count: 6))
    let temporary =
      directory + "/." + String(decoding: name.utf8.prefix(200), as: UTF8.self) + ".tmp-" + suffix
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
    guard fd >= 0 else { throw SecureFileError(errno: errno, path: path, operation: "create") }
    var descriptor: Int32? = fd
    var published = false
    defer {
      if let descriptor { close(descriptor) }
      if !published { unlink(temporary) }
    }

    let writeError = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
    if let writeError { throw SecureFileError(errno: writeError, path: path, operation: "write") }
    // Only now, with the content written, the mode the file ends with (it may share it).
    guard fchmod(fd, mode_t(mode)) == 0 else {
      throw SecureFileError(errno: errno, path: path, operation: "set permissions of")
    }
    guard fsync(fd) == 0 else {
      throw SecureFileError(errno: errno, path: path, operation: "flush")
    }
    descriptor = nil
    // close can report a deferred write error (NFS, quotas).
    guard close(fd) == 0 else {
      throw SecureFileError(errno: errno, path: path, operation: "close")
    }

    switch replace {
    case .replace:
      guard rename(temporary, path) == 0 else {
        throw SecureFileError(errno: errno, path: path, operation: "replace")
      }
    case .refuseExisting:
      // link() never replaces an existing name, so a file created meanwhile is not clobbered.
      if link(temporary, path) == 0 {
        unlink(temporary)
      } else {
        let code = errno
        guard [EPERM, EOPNOTSUPP, ENOSYS, EMLINK].contains(code) else {
          throw SecureFileError(errno: code, path: path, operation: "create")
        }
        // A file system without hard links (FAT, some FUSE mounts): check, then rename.
        guard lstat(path, &info) != 0, errno == ENOENT else { throw .alreadyExists(path: path) }
        guard rename(temporary, path) == 0 else {
          throw SecureFileError(errno: errno, path: path, operation: "create")
        }
      }
    }
    published = true
    try syncDirectory(directory, for: path)
  }

  /// Makes the rename durable. File systems that cannot sync a directory report EINVAL; that
  /// is not an error.
  private static func syncDirectory(_ directory: String, for path: String) throws(SecureFileError) {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else {
      throw SecureFileError(errno: errno, path: path, operation: "flush the directory of")
    }
    defer { close(fd) }
    if fsync(fd) != 0, errno != EINVAL {
      throw SecureFileError(errno: errno, path: path, operation: "flush the directory of")
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
public enum SecureFileError: Error, Equatable, Sendable, CustomStringConvertible {
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
    case EACCES, EPERM: self = .permissionDenied(path: path)
    case EROFS: self = .readOnlyFileSystem(path: path)
    case ENOSPC, EDQUOT: self = .noSpace(path: path)
    case ENOTDIR: self = .notADirectory(path: path)
    case ENOENT: self = .noSuchDirectory(path: path)
    case EISDIR: self = .isADirectory(path: path)
    case EEXIST: self = .alreadyExists(path: path)
    default:
      self = .systemError(
        path: path, operation: operation, message: String(cString: strerror(code)))
    }
  }

  public var description: String {
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

import CryptoPrimitives
import FoundationEssentials
import Glibc

/// The few system calls the transaction is built from, each turning a failure into a
/// `NodeFileError` that names the path.
enum DirectoryIO {
  private typealias Renameat2 =
    @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

  /// glibc's `renameat2`, which Swift's Glibc module does not declare (glibc 2.28 and later).
  private static let renameat2: Renameat2? = dlsym(nil, "renameat2").map {
    unsafeBitCast($0, to: Renameat2.self)
  }

  /// `RENAME_NOREPLACE`: fail instead of replacing an existing target.
  static let noReplace: UInt32 = 1
  /// `RENAME_EXCHANGE`: swap the two names atomically.
  static let exchange: UInt32 = 2

  /// Renames `from` to `to` with `renameat2` flags; `flags` 0 is a plain `rename`.
  static func rename(_ from: String, _ to: String, flags: UInt32 = 0) throws(NodeFileError) {
    if flags == 0 {
      guard Glibc.rename(from, to) == 0 else { throw .system("rename \(from) to", to) }
      return
    }
    guard let renameat2 else {
      throw NodeFileError(
        .io, "this C library has no renameat2, needed to swap \(to) atomically (glibc 2.28+)")
    }
    guard renameat2(AT_FDCWD, from, AT_FDCWD, to, flags) == 0 else {
      let code = errno
      if code == EINVAL || code == ENOSYS {
        throw NodeFileError(
          .io,
          "the file system of \(to) cannot swap directories atomically (renameat2); "
            + "use a local Linux file system such as ext4, xfs, btrfs or tmpfs")
      }
      throw .system(flags == exchange ? "swap \(from) with" : "rename \(from) to", to, code)
    }
  }

  /// `fsync` of a directory, so that the names created or renamed in it survive a power loss.
  /// File systems that cannot sync a directory report EINVAL; that is not an error.
  static func sync(directory path: String) throws(NodeFileError) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system("open the directory", path) }
    defer { close(descriptor) }
    if fsync(descriptor) != 0, errno != EINVAL { throw .system("flush the directory", path) }
  }

  /// Creates the directory `path` with exactly mode 0700; fails if something is there.
  static func makeDirectory(_ path: String) throws(NodeFileError) {
    guard mkdir(path, 0o700) == 0 else { throw .system("create the directory", path) }
    guard chmod(path, 0o700) == 0 else { throw .system("set the permissions of", path) }
  }

  /// Writes a new file at `path`: created exclusively with mode 0600 (whatever `mode` will be,
  /// and inside a 0700 staging directory), filled, given `mode` and `owner`, and flushed.
  static func writeNewFile(
    _ bytes: SecureBytes, to path: String, mode: UInt32, owner: (UInt32, UInt32)?
  ) throws(NodeFileError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .system("create", path) }
    var closed = false
    defer { if !closed { close(descriptor) } }
    let failure: Int32? = bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    if let failure { throw .system("write", path, failure) }
    if let (user, group) = owner, getuid() == 0, fchown(descriptor, user, group) != 0 {
      throw .system("set the owner of", path)
    }
    guard fchmod(descriptor, mode_t(mode)) == 0 else {
      throw .system("set the permissions of", path)
    }
    guard fsync(descriptor) == 0 else { throw .system("flush", path) }
    closed = true
    // close can report a deferred write error (NFS, quotas).
    guard close(descriptor) == 0 else { throw .system("close", path) }
  }

  /// The names in the directory `path` (without `.` and `..`).
  static func names(in path: String) throws(NodeFileError) -> [String] {
    guard let stream = opendir(path) else { throw .system("list", path) }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// Removes `path` and everything below it; nothing there is fine.
  static func removeTree(_ path: String) throws(NodeFileError) {
    guard let status = try FileStatus.of(path) else { return }
    if status.isDirectory {
      for name in try names(in: path) { try removeTree(NodePath.join(path, name)) }
      guard rmdir(path) == 0 else { throw .system("remove", path) }
    } else {
      guard unlink(path) == 0 else { throw .system("remove", path) }
    }
  }

  /// A random hex suffix for names that must not collide.
  static func randomSuffix() -> String { Hex.encode(SecureRandom.bytes(count: 6)) }
}

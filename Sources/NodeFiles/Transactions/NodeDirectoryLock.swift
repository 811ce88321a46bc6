import Glibc

/// The lock that makes every change to a node directory one at a time: an exclusive `flock` on
/// `<dir>/.freedom-keys.lock`, held from the first read to the last write. A second
/// freedom-keys waits up to `timeout` seconds, then gives up with `NodeFileError.Code.busy`.
///
/// The lock file is removed on release, so no trace stays behind; a process that was waiting
/// for it notices that the file it locked is no longer the one at the path and tries again, so
/// two processes never both believe they hold the lock.
public final class NodeDirectoryLock {
  /// The lock file's name inside the node directory.
  public static let fileName = ".freedom-keys.lock"
  /// How long a second run waits by default.
  public static let defaultTimeout = 5.0

  /// The directory that is locked.
  public let directory: String
  private var descriptor: Int32
  private let path: String

  private init(directory: String, path: String, descriptor: Int32) {
    self.directory = directory
    self.path = path
    self.descriptor = descriptor
  }

  deinit { release() }

  /// Locks `directory`, waiting up to `timeout` seconds for another freedom-keys to finish.
  /// Returns nil when the directory cannot hold a lock file because it is read-only to this
  /// user and `readOnlyIsFine` (a `verify` that changes nothing); the caller then must not write.
  public static func acquire(
    _ directory: String, timeout: Double = defaultTimeout, readOnlyIsFine: Bool = false
  ) throws(NodeFileError) -> NodeDirectoryLock? {
    let path = NodePath.join(directory, fileName)
    let deadline = now() + timeout
    while true {
      let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0o600)
      guard descriptor >= 0 else {
        let code = errno
        if readOnlyIsFine, code == EACCES || code == EROFS || code == EPERM { return nil }
        throw .system("create the lock file", path, code)
      }
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        // The holder before us may have removed the file after we opened it: then our lock is
        // on a file nobody else will look at, and we must lock the one now at the path.
        var locked = stat()
        var current = stat()
        if fstat(descriptor, &locked) == 0, stat(path, &current) == 0,
          locked.st_ino == current.st_ino, locked.st_dev == current.st_dev
        {
          return NodeDirectoryLock(directory: directory, path: path, descriptor: descriptor)
        }
        close(descriptor)
        continue
      }
      let code = errno
      close(descriptor)
      guard code == EWOULDBLOCK || code == EINTR else {
        throw .system("lock", path, code)
      }
      guard now() < deadline else {
        throw NodeFileError(
          .busy,
          "another freedom-keys is changing \(directory) — wait for it to finish and run again")
      }
      usleep(20_000)
    }
  }

  /// Removes the lock file and lets the next process in.
  public func release() {
    guard descriptor >= 0 else { return }
    unlink(path)
    close(descriptor)
    descriptor = -1
  }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

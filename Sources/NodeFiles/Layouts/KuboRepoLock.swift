import Glibc

/// kubo's repository lock: a running `ipfs daemon` holds an fcntl write lock on
/// `<repo>/repo.lock`. Taking the same lock tells whether a daemon is running and keeps one from
/// starting while the config is replaced; it is released when this value goes away. Taken
/// inside the directory's own `NodeDirectoryLock`, so the holder is never another freedom-keys.
public final class KuboRepoLock {
  private let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  deinit { close(descriptor) }

  /// Takes the lock, or fails naming the process that holds it. Returns nil when the repository
  /// has no `repo.lock` (no daemon ever ran there); the file is never created.
  public static func acquire(repository: String) throws(NodeFileError) -> KuboRepoLock? {
    let path = NodePath.join(repository, "repo.lock")
    let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw NodeFileError(
        .io,
        "cannot open \(path) to check for a running daemon: \(String(cString: strerror(errno)))")
    }
    var request = wholeFileWriteLock()
    if fcntl(descriptor, F_SETLK, &request) == 0 {
      return KuboRepoLock(descriptor: descriptor)
    }
    let code = errno
    defer { close(descriptor) }
    guard code == EAGAIN || code == EACCES else {
      throw NodeFileError(.io, "cannot lock \(path): \(String(cString: strerror(code)))")
    }
    var probe = wholeFileWriteLock()
    let holder =
      fcntl(descriptor, F_GETLK, &probe) == 0 && probe.l_type != Int16(F_UNLCK) && probe.l_pid > 0
      ? " (process \(probe.l_pid))" : ""
    throw NodeFileError(
      .busy,
      "a kubo daemon\(holder) holds \(path); stop it (ipfs shutdown) and run this again")
  }

  private static func wholeFileWriteLock() -> flock {
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = 0
    lock.l_len = 0
    return lock
  }
}

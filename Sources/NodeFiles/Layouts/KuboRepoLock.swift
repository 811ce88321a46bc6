/// kubo's repository lock: a running `ipfs daemon` holds an fcntl write lock on
/// `<repo>/repo.lock`. Taking the same lock tells whether a daemon is running and keeps one from
/// starting while the config is replaced; it is released when this value goes away. Taken
/// inside the directory's own `NodeDirectoryLock`, so the holder is never another freedom-keys.
public final class KuboRepoLock {
  private let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  deinit { _ = Platform.close(descriptor) }

  /// Takes the lock, or fails naming the process that holds it. Returns nil when the repository
  /// has no `repo.lock` (no daemon ever ran there); the file is never created.
  public static func acquire(repository: String) throws(NodeFileError) -> KuboRepoLock? {
    let path = NodePath.join(repository, "repo.lock")
    let descriptor = Platform.open(path: path, Platform.readWrite | Platform.noFollow)
    guard descriptor >= 0 else {
      if Platform.errno == Platform.noEntry { return nil }
      throw .system("open", path)
    }
    if Platform.tryWriteLockRecord(descriptor) == 0 {
      return KuboRepoLock(descriptor: descriptor)
    }
    let code = Platform.errno
    defer { _ = Platform.close(descriptor) }
    guard code == Platform.tryAgain || code == Platform.accessDenied else {
      throw .system("lock", path, code)
    }
    let holder = Platform.writeLockHolder(descriptor).map { " (process \($0))" } ?? ""
    throw NodeFileError(
      .busy,
      "a kubo daemon\(holder) holds \(path); stop it (ipfs shutdown) and run this again")
  }
}

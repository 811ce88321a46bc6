import SystemCalls

/// The lock a node's daemon holds on a file of its directory while it runs (antd's `flock` on
/// `antd.lock`, kubo's `fcntl` write lock on `repo.lock`). The file is never created, opened
/// without following a link, and checked with fstat before it is locked, so a FIFO planted
/// under the name cannot hang the probe. What the lock means, and the words for it, belong to
/// the node's type.
package enum DaemonLock {
  /// What a probe found.
  package enum State: Sendable, Equatable {
    /// No process holds the lock (or no daemon ever ran there: no file).
    case free
    /// A daemon holds the lock.
    case held
    /// Something that is not a regular file is at the lock's name: `kind` says what ("a FIFO",
    /// "a symbolic link", "a directory").
    case unexpectedFile(kind: String)
  }

  /// Probes a `flock` lock at `name` in `directory` with a shared lock, released at once: an
  /// exclusive holder conflicts with it, another probe does not.
  package static func probe(directory: String, name: String) throws(NodeFileError) -> State {
    guard let opened = try DirectoryDescriptor.open(directory) else { return .free }
    return try probe(opened, name)
  }

  /// The same for `relative` below the node directory `node`, never through a link.
  package static func probe(in node: NodeDirectory, at relative: String) throws(NodeFileError)
    -> State
  {
    try probe(node.root, relative)
  }

  private static func probe(_ directory: DirectoryDescriptor, _ relative: String)
    throws(NodeFileError) -> State
  {
    let path = directory.full(relative)
    guard let (parent, name) = try directory.parentAndName(relative) else { return .free }
    let descriptor = Platform.openat(
      parent.descriptor, name, Platform.readOnly | Platform.noFollow | Platform.nonBlocking)
    guard descriptor >= 0 else {
      let code = Platform.errno
      if code == Platform.noEntry { return .free }
      if code == Platform.symbolicLinkLoop { return .unexpectedFile(kind: "a symbolic link") }
      throw .system("open", path, code)
    }
    defer { _ = Platform.close(descriptor) }
    guard let status = Platform.fstat(descriptor) else { throw .system("inspect", path) }
    guard status.isRegularFile else { return .unexpectedFile(kind: status.kindDescription) }
    if Platform.tryLock(descriptor, shared: true) == 0 { return .free }
    let code = Platform.errno
    guard code == Platform.wouldBlock else { throw .system("lock", path, code) }
    return .held
  }

  /// An `fcntl` write lock taken on a daemon's lock file, kept until this value goes away: the
  /// daemon cannot start meanwhile.
  package final class Taken {
    private let descriptor: Int32
    fileprivate init(descriptor: Int32) { self.descriptor = descriptor }
    deinit { _ = Platform.close(descriptor) }
  }

  /// What `take` found.
  package enum Outcome {
    /// No file at `path`: no daemon ever ran there (the file is never created).
    case noFile
    /// The lock, held until the value goes away.
    case taken(Taken)
    /// Another process holds it: its id, when the lock says.
    case heldBy(process: Int32?)
  }

  /// Takes the `fcntl` write lock on `path` without waiting.
  package static func take(path: String) throws(NodeFileError) -> Outcome {
    let descriptor = Platform.open(path: path, Platform.readWrite | Platform.noFollow)
    guard descriptor >= 0 else {
      if Platform.errno == Platform.noEntry { return .noFile }
      throw .system("open", path)
    }
    if Platform.tryWriteLockRecord(descriptor) == 0 { return .taken(Taken(descriptor: descriptor)) }
    let code = Platform.errno
    defer { _ = Platform.close(descriptor) }
    guard code == Platform.tryAgain || code == Platform.accessDenied else {
      throw .system("lock", path, code)
    }
    return .heldBy(process: Platform.writeLockHolder(descriptor))
  }
}

import SystemCalls

/// The lock that makes every change to a node directory one at a time: an exclusive `flock` on
/// `<dir>/.freedom-keys.lock`, held from the first read to the last write. A second
/// freedom-keys waits up to `timeout` seconds, then gives up with `NodeFileError.Code.busy`.
///
/// The lock file is removed on release, so no trace stays behind; a process that was waiting
/// for it notices that the file it locked is no longer the one at the path and tries again, so
/// two processes never both believe they hold the lock.
package final class NodeDirectoryLock {
  /// The lock file's name inside the node directory.
  package static let fileName = ".freedom-keys.lock"
  /// How long a second run waits by default.
  package static let defaultTimeout = 5.0

  /// The directory that is locked.
  package let directory: String
  private var descriptor: Int32
  private let parent: DirectoryDescriptor
  /// Whether `release` removes the lock file (not when a run that writes nothing found one).
  private let removesFile: Bool

  private init(parent: DirectoryDescriptor, descriptor: Int32, removesFile: Bool = true) {
    self.directory = parent.path
    self.parent = parent
    self.descriptor = descriptor
    self.removesFile = removesFile
  }

  deinit { release() }

  /// Locks `directory`, waiting up to `timeout` seconds for another freedom-keys to finish.
  /// Returns nil when the directory cannot hold a lock file because it is read-only to this
  /// user and `readOnlyIsFine` (a `verify` that changes nothing); the caller then must not write.
  package static func acquire(
    _ directory: String, timeout: Double = defaultTimeout, readOnlyIsFine: Bool = false
  ) throws(NodeFileError) -> NodeDirectoryLock? {
    guard let opened = try DirectoryDescriptor.open(directory) else {
      throw NodeFileError(.unexpectedFile, "\(directory) does not exist; check the directory")
    }
    return try acquire(opened, timeout: timeout, readOnlyIsFine: readOnlyIsFine)
  }

  /// Locks the open directory `directory` (its lock file is created relative to it).
  static func acquire(
    _ directory: DirectoryDescriptor, timeout: Double = defaultTimeout,
    readOnlyIsFine: Bool = false
  ) throws(NodeFileError) -> NodeDirectoryLock? {
    switch try attempt(directory, timeout: timeout) {
    case .locked(let lock): return lock
    case .readOnly(let refusal):
      if readOnlyIsFine { return nil }
      throw refusal
    }
  }

  /// What locking an open directory came to.
  enum Attempt {
    case locked(NodeDirectoryLock)
    /// This user cannot create the lock file there (permissions, an immutable directory, a
    /// read-only file system): the error a change there fails with.
    case readOnly(NodeFileError)
  }

  /// Locks `directory`, or says why this user cannot; any other failure throws. With
  /// `leavingNoTrace` (a dry run), a lock file that was there before (a killed run's) is left
  /// there on release, so the directory ends as it began.
  static func attempt(
    _ directory: DirectoryDescriptor, timeout: Double = defaultTimeout,
    leavingNoTrace: Bool = false
  ) throws(NodeFileError) -> Attempt {
    let path = directory.full(fileName)
    let deadline = Platform.now() + timeout
    while true {
      let existed = leavingNoTrace && Platform.lstatat(directory.descriptor, fileName) != nil
      // Platform.nonBlocking: a FIFO planted under the name does not hang the open; fstat refuses it.
      let descriptor = Platform.openat(
        directory.descriptor, fileName,
        Platform.readWrite | Platform.create | Platform.noFollow | Platform.nonBlocking, 0o600)
      guard descriptor >= 0 else {
        let code = Platform.errno
        if code == Platform.accessDenied || code == Platform.readOnlyFileSystem
          || code == Platform.notPermitted
        {
          return .readOnly(.system("create the lock file", path, code))
        }
        if code == Platform.symbolicLinkLoop {
          throw NodeFileError(
            .unexpectedFile, "\(path) is a symbolic link, not a lock file this program made")
        }
        throw .system("create the lock file", path, code)
      }
      guard let locked = Platform.fstat(descriptor), locked.isRegularFile else {
        let kind = Platform.fstat(descriptor)?.kindDescription ?? "not a regular file"
        _ = Platform.close(descriptor)
        throw NodeFileError(
          .unexpectedFile, "\(path) is \(kind), not a lock file this program made; move it away")
      }
      if Platform.tryLock(descriptor) == 0 {
        // The holder before us may have removed the file after we opened it: then our lock is
        // on a file nobody else will look at, and we must lock the one now at the path.
        if let current = Platform.lstatat(directory.descriptor, fileName),
          current.isSameFile(as: locked)
        {
          return .locked(
            NodeDirectoryLock(parent: directory, descriptor: descriptor, removesFile: !existed))
        }
        _ = Platform.close(descriptor)
        continue
      }
      let code = Platform.errno
      _ = Platform.close(descriptor)
      guard code == Platform.wouldBlock || code == Platform.interrupted else {
        throw .system("lock", path, code)
      }
      guard Platform.now() < deadline else {
        throw NodeFileError(
          .busy,
          "another process is changing \(directory.path) — wait for it to finish and try again"
        )
      }
      Platform.sleep(microseconds: 20_000)
    }
  }

  /// Removes the lock file and lets the next process in.
  package func release() {
    guard descriptor >= 0 else { return }
    if removesFile { _ = Platform.unlinkat(parent.descriptor, Self.fileName, directory: false) }
    _ = Platform.close(descriptor)
    descriptor = -1
  }
}

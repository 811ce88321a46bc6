/// antd's lock: a running antd holds an exclusive `flock` on `<data-dir>/antd.lock`. Probing it
/// tells whether antd runs there. The file is opened without blocking and without following a
/// link and checked with fstat first, so a FIFO planted under the name cannot hang the probe.
public enum AntdLock {
  /// The lock file's name in antd's data directory.
  public static let fileName = "antd.lock"

  /// What the probe found.
  public enum State: Sendable, Equatable {
    /// No antd holds the lock (or none ever ran there: no file).
    case notRunning
    /// An antd holds the lock.
    case running
    /// Something that is not a regular file is at the lock's name (a FIFO, a directory, a
    /// symbolic link); `reason` says what.
    case unexpectedFile(reason: String)
  }

  /// Probes `antd.lock` in the data directory `directory`; the file is never created.
  public static func probe(dataDirectory directory: String) throws(NodeFileError) -> State {
    guard let opened = try DirectoryDescriptor.open(directory) else { return .notRunning }
    return try probe(opened, fileName)
  }

  /// Probes `relative` (antd's data directory's lock, e.g. `ant-data/antd.lock`) below the
  /// node directory `node`, never through a link.
  public static func probe(in node: NodeDirectory, at relative: String = fileName)
    throws(NodeFileError) -> State
  {
    try probe(node.root, relative)
  }

  private static func probe(_ directory: DirectoryDescriptor, _ relative: String)
    throws(NodeFileError) -> State
  {
    let path = directory.full(relative)
    guard let (parent, name) = try directory.parentAndName(relative) else { return .notRunning }
    let descriptor = Platform.openat(
      parent.descriptor, name, Platform.readOnly | Platform.noFollow | Platform.nonBlocking)
    guard descriptor >= 0 else {
      let code = Platform.errno
      if code == Platform.noEntry { return .notRunning }
      if code == Platform.symbolicLinkLoop {
        return .unexpectedFile(reason: "\(path) is a symbolic link, not antd's lock file")
      }
      throw .system("open", path, code)
    }
    defer { _ = Platform.close(descriptor) }
    guard let status = Platform.fstat(descriptor) else { throw .system("inspect", path) }
    guard status.isRegularFile else {
      return .unexpectedFile(reason: "\(path) is \(status.kindDescription), not antd's lock file")
    }
    // A shared lock conflicts with antd's exclusive one and with no other probe; closing the
    // descriptor releases it at once.
    if Platform.tryLock(descriptor, shared: true) == 0 { return .notRunning }
    let code = Platform.errno
    guard code == Platform.wouldBlock else { throw .system("lock", path, code) }
    return .running
  }
}

import CryptoPrimitives
import NodeFiles

/// The reads every node type shares, errors typed as `NodeError`.
///
/// Inside a session (`NodeSession.export`, `verify`, `reading`) a path that lies beneath one
/// of the session's node directories (the one opened, or an enclosing or nested one) is read
/// relative to that directory's descriptor, as the engine writes: a symbolic link or `..`
/// below the directory is refused with an error naming the path, so nothing outside it is
/// read. A path outside every directory of the session (a password file the user named) is
/// read as the user named it, links followed.
enum NodeFileAccess {
  /// The bytes of the regular file at `path`, or nil when there is none.
  static func read(_ path: String) throws(NodeError) -> SecureBytes? {
    try NodeSession.engine { () throws(NodeFileError) in
      if let (directory, relative) = beneath(path) { return try directory.read(relative) }
      return try NodeFileReader.read(path)
    }
  }

  /// What `lstat` says about `path`, or nil.
  static func status(_ path: String) throws(NodeError) -> FileStatus? {
    try NodeSession.engine { () throws(NodeFileError) in
      if let (directory, relative) = beneath(path) { return try directory.status(relative) }
      return try FileStatus.of(path)
    }
  }

  /// What `stat` says about `path`, links followed (a directory the user named, checked
  /// before any session opens it), or nil.
  static func statusFollowingLinks(_ path: String) throws(NodeError) -> FileStatus? {
    try NodeSession.engine { () throws(NodeFileError) in try FileStatus.following(path) }
  }

  /// `path` read and parsed with `parse`; a parse error is `.unreadable`.
  static func stored<Value>(_ path: String, _ parse: (SecureBytes) throws -> Value)
    throws(NodeError) -> StoredFile<Value>
  {
    guard let bytes = try read(path) else { return .absent }
    do {
      return .present(try parse(bytes))
    } catch {
      return .unreadable(UnreadableNodeFile(path: path, reason: String(describing: error)))
    }
  }

  /// The event for a secret file other users can read, if `path` is one.
  static func sharedSecret(_ path: String) -> NodeEvent? {
    guard let status = try? self.status(path), status.isRegularFile,
      status.permissions & 0o077 != 0
    else { return nil }
    return .sharedSecretFile(path: path, mode: status.permissions)
  }

  /// Fails unless `path` is absent or a directory; beneath a session's directory, a symbolic
  /// link there is refused as the engine refuses it.
  static func requireDirectoryOrAbsent(_ path: String) throws(NodeError) {
    guard let (directory, relative) = beneath(path) else {
      return try NodeSession.requireDirectoryOrAbsent(path)
    }
    guard
      let status = try NodeSession.engine({ () throws(NodeFileError) in
        try directory.status(relative)
      })
    else { return }
    if status.isSymbolicLink {
      throw .files(
        NodeFileError(
          .unexpectedFile,
          "\(path) is a symbolic link; links inside \(directory.path) are not followed"))
    }
    guard status.isDirectory else { throw .notADirectory(path) }
  }

  /// The value of a stored file, or the error `verify` gives for one it cannot read.
  static func understood<Value>(_ stored: StoredFile<Value>) throws(NodeError) -> Value? {
    switch stored {
    case .absent: return nil
    case .present(let value): return value
    case .unreadable(let problem): throw .unreadable(path: problem.path, reason: problem.reason)
    }
  }

  // MARK: - The session's directories

  /// The node directories of the session running on this task or thread.
  final class Scope: @unchecked Sendable {
    // Unchecked: a scope is bound by `within` for one synchronous call and read only inside
    // it, on the thread that runs it.
    let directories: [NodeDirectory]

    init(_ directories: [NodeDirectory]) { self.directories = directories }
  }

  @TaskLocal static var scope: Scope?

  /// Runs `body` with `directory` (and the directories it locked around and inside it) as the
  /// session's, so that every read beneath them goes through their descriptors.
  static func within<Value>(_ directory: NodeDirectory, _ body: () throws(NodeError) -> Value)
    throws(NodeError) -> Value
  {
    let directories =
      directory.enclosingDirectories + [directory] + directory.nestedDirectories
    let outcome: Result<Value, NodeError> = $scope.withValue(Scope(directories)) {
      do throws(NodeError) {
        return .success(try body())
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// The innermost directory of the session that `path` lies beneath (or is), and `path`
  /// relative to it; nil outside a session or outside every one of its directories.
  static func beneath(_ path: String) -> (NodeDirectory, String)? {
    guard let scope else { return nil }
    var best: (NodeDirectory, String)?
    var bestLength = -1
    for directory in scope.directories {
      guard let relative = relative(path, to: directory.path) else { continue }
      let length = directory.path.utf8.count
      if length > bestLength {
        best = (directory, relative)
        bestLength = length
      }
    }
    return best
  }

  /// `path` relative to `directory` ("" for the directory itself) when it lies lexically
  /// inside it; the engine refuses a relative path with `..` or `.` components.
  static func relative(_ path: String, to directory: String) -> String? {
    var base = Substring(directory)
    while base.count > 1, base.hasSuffix("/") { base = base.dropLast() }
    var target = Substring(path)
    while target.count > 1, target.hasSuffix("/") { target = target.dropLast() }
    if target == base { return "" }
    let prefix = base == "/" ? "/" : base + "/"
    guard target.hasPrefix(prefix) else { return nil }
    return String(target.dropFirst(prefix.count))
  }
}

extension NodeConflict.Found {
  /// The conflict for a file that could not be understood.
  static func from(_ problem: UnreadableNodeFile) -> NodeConflict.Found {
    .unreadable(problem.reason)
  }
}

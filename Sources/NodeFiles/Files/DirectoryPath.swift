import SystemCalls

/// The engine's one `mkdir -p` of a path the user named (symbolic links in it followed: that is
/// where the user pointed), shared by `SecureFileWriter.createDirectory` and the node
/// directory `NodeDirectory.open` creates. Below a node directory, `DirectoryDescriptor`
/// creates relative to its descriptor instead.
enum DirectoryPath {
  /// Why a directory could not be made; each caller words it as its own error.
  enum Failure: Error {
    /// `path`, a prefix of the path asked for, is something other than a directory.
    case notADirectory(path: String)
    /// The system call `operation` on `path` failed with `errno`.
    case system(operation: String, path: String, errno: Int32)
  }

  /// Creates the missing directories of `path`, outermost first, each with exactly `mode`
  /// (fchmod, whatever the umask) and flushed with its parent; with `ownedLikeParent`, a run as
  /// root gives each to the owner of the directory it is made in. One another process creates
  /// meanwhile is fine. Returns those it created; on failure they are removed again.
  static func make(_ path: String, mode: UInt32, ownedLikeParent: Bool) throws(Failure)
    -> [String]
  {
    var prefixes: [String] = []
    var current = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
      prefixes.append(current)
    }
    var made: [String] = []
    do throws(Failure) {
      for prefix in prefixes {
        if let status = Platform.statFollowing(path: prefix) {
          guard status.isDirectory else { throw .notADirectory(path: prefix) }
          continue
        }
        guard Platform.errno == Platform.noEntry else {
          throw .system(operation: "inspect", path: prefix, errno: Platform.errno)
        }
        if Platform.mkdir(path: prefix, mode) != 0 {
          let code = Platform.errno
          // Another process may have created it meanwhile; that is fine if it is a directory.
          if code == Platform.exists, Platform.statFollowing(path: prefix)?.isDirectory == true {
            continue
          }
          throw .system(operation: "create the directory", path: prefix, errno: code)
        }
        made.append(prefix)
        try finish(prefix, mode: mode, ownedLikeParent: ownedLikeParent)
      }
    } catch {
      for directory in made.reversed() { _ = Platform.rmdir(path: directory) }
      throw error
    }
    return made
  }

  /// Throws what `make(path, …)` would fail on for want of permission (or for a prefix that is
  /// no directory), creating nothing: the first missing prefix must be creatable in the
  /// directory before it.
  static func requireCreatable(_ path: String) throws(Failure) {
    var previous = path.hasPrefix("/") ? "/" : "."
    var current = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
      if let status = Platform.statFollowing(path: current) {
        guard status.isDirectory else { throw .notADirectory(path: current) }
        previous = current
        continue
      }
      guard Platform.errno == Platform.noEntry else {
        throw .system(operation: "inspect", path: current, errno: Platform.errno)
      }
      let code = Platform.access(path: previous, Platform.mayWriteIn)
      guard code == 0 else {
        throw .system(operation: "create the directory", path: current, errno: code)
      }
      return
    }
  }

  /// Gives the directory just made at `path` its owner and exact mode (on it, not on a link
  /// put in its place), and flushes it and its parent.
  private static func finish(_ path: String, mode: UInt32, ownedLikeParent: Bool) throws(Failure) {
    let parent = NodePath.parent(path)
    let fd = Platform.open(path: path, Platform.readOnly | Platform.directory | Platform.noFollow)
    guard fd >= 0 else {
      throw .system(operation: "open the directory", path: path, errno: Platform.errno)
    }
    defer { _ = Platform.close(fd) }
    if ownedLikeParent, Platform.isRoot {
      guard let owner = Platform.statFollowing(path: parent),
        Platform.fchown(fd, owner.owner, owner.group) == 0
      else { throw .system(operation: "set the owner of", path: path, errno: Platform.errno) }
    }
    guard Platform.fchmod(fd, mode) == 0 else {
      throw .system(operation: "set the permissions of", path: path, errno: Platform.errno)
    }
    try flush(fd, path)
    let parentDescriptor = Platform.open(path: parent, Platform.readOnly | Platform.directory)
    guard parentDescriptor >= 0 else {
      throw .system(operation: "open the directory", path: parent, errno: Platform.errno)
    }
    defer { _ = Platform.close(parentDescriptor) }
    try flush(parentDescriptor, parent)
  }

  /// `fsync` of a directory; a file system that cannot sync one (EINVAL) is not an error.
  private static func flush(_ descriptor: Int32, _ path: String) throws(Failure) {
    if Platform.fsync(descriptor) != 0, Platform.errno != Platform.invalidArgument {
      throw .system(operation: "flush", path: path, errno: Platform.errno)
    }
  }
}

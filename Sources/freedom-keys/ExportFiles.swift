import CryptoPrimitives
import FoundationEssentials
import Glibc
import NodeFiles
import VaultKeys

/// Reading the node files that `export` writes and `verify` checks, and writing them only after
/// every input was read and checked.
enum ExportFiles {
  /// What `stat` says about an existing path.
  struct Status {
    let mode: mode_t
    let owner: uid_t
    let group: gid_t

    var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }
    /// The permission bits.
    var permissions: UInt32 { UInt32(mode & 0o7777) }
  }

  /// `directory/name`, without doubling a trailing slash.
  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// The status of `path` itself (a symbolic link is not followed), or nil if nothing is there.
  static func status(_ path: String) throws(CLIError) -> Status? {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw .failure("cannot inspect \(path): \(systemError())")
    }
    return Status(mode: info.st_mode, owner: info.st_uid, group: info.st_gid)
  }

  /// Fails unless `path` is absent or a directory (a node directory that does not exist yet is
  /// created when writing).
  static func requireDirectoryOrAbsent(_ path: String) throws(CLIError) {
    guard let status = try statusFollowingLinks(path) else { return }
    guard status.isDirectory else { throw .failure("\(path) is not a directory") }
  }

  /// Fails unless `path` is an existing directory.
  static func requireDirectory(_ path: String) throws(CLIError) {
    guard let status = try statusFollowingLinks(path) else {
      throw .failure("\(path) does not exist; check the directory")
    }
    guard status.isDirectory else { throw .failure("\(path) is not a directory") }
  }

  private static func statusFollowingLinks(_ path: String) throws(CLIError) -> Status? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw .failure("cannot inspect \(path): \(systemError())")
    }
    return Status(mode: info.st_mode, owner: info.st_uid, group: info.st_gid)
  }

  /// The bytes of the regular file at `path` (NodeFileReader), or nil when there is none.
  static func read(_ path: String) throws(CLIError) -> SecureBytes? {
    do {
      return try NodeFileReader.read(path)
    } catch {
      throw .failure(error.message)
    }
  }

  /// Warns when the secret file at `path` can be read by other users (desktop Freedom wrote
  /// its swarm.key that way); the file is left as it is.
  static func warnIfShared(_ path: String) {
    guard let status = try? status(path), status.isRegularFile, status.permissions & 0o077 != 0
    else { return }
    Output.warning(
      "\(path) is accessible by other users (mode \(Output.octal(status.permissions))); "
        + "run chmod 600 \(path)")
  }

  /// The system's message for `code`.
  static func systemError(_ code: Int32 = errno) -> String {
    SystemError(code: code).description
  }
}

/// Runs an export's read → check → write under the node directory's lock.
enum NodeDirectoryAccess {
  /// Opens `path` (locked, an interrupted change finished or undone), runs `body`, and releases
  /// the lock; when `body` throws, a directory this run created is removed again if empty.
  static func changing<Result>(
    _ path: String, layout: NodeLayout, create: Bool, _ body: (NodeDirectory) throws -> Result
  ) throws -> Result {
    let node: NodeDirectory
    do {
      node = try NodeDirectory.open(path, layout: layout, create: create)
    } catch {
      throw CLIError.failure(error.message)
    }
    if let note = node.recoveryNote { Output.warning(note) }
    for warning in node.takeWarnings() { Output.warning(warning) }
    var succeeded = false
    defer { node.close(keep: succeeded) }
    let result = try body(node)
    succeeded = true
    return result
  }

  /// Opens `path` for `verify`: locked and recovered when this user can write it.
  static func reading<Result>(
    _ path: String, layout: NodeLayout, _ body: (NodeDirectory) throws -> Result
  ) throws -> Result {
    let node: NodeDirectory
    do {
      node = try NodeDirectory.openForReading(path, layout: layout)
    } catch {
      throw CLIError.failure(error.message)
    }
    if let note = node.recoveryNote { Output.warning(note) }
    for warning in node.takeWarnings() { Output.warning(warning) }
    defer { node.close() }
    return try body(node)
  }

  /// Applies `change`; on failure the message says that the old files are in place.
  static func apply(_ change: NodeChange, in node: NodeDirectory) throws(CLIError)
    -> NodeChangeResult
  {
    do {
      let result = try node.apply(change)
      for warning in result.warnings { Output.warning(warning) }
      return result
    } catch {
      if error.code == .recovery { throw .failure(error.message) }
      throw .failure("\(error.message); nothing in \(node.path) was changed")
    }
  }
}

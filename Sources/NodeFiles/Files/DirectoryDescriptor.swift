import CryptoPrimitives
import FoundationEssentials
import SystemCalls

/// An open node directory, and every file operation below it relative to its descriptor:
/// `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` where the kernel has it, else one
/// `openat(Platform.noFollow | Platform.directory)` per component. A symbolic link or `..` anywhere below the
/// directory is refused, so nothing outside it is ever read, written, renamed or removed; the
/// directory's own path may be a symbolic link (that is where the user pointed).
final class DirectoryDescriptor {
  /// The owner and group to give what is created.
  typealias Owner = (user: UInt32, group: UInt32)

  let descriptor: Int32
  /// The directory's path, for messages.
  let path: String

  private init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { _ = Platform.close(descriptor) }

  /// Opens the directory the user named (symbolic links followed); nil when nothing is there.
  static func open(_ path: String) throws(NodeFileError) -> DirectoryDescriptor? {
    let descriptor = Platform.openDirectory(path: path)
    guard descriptor >= 0 else {
      let code = Platform.errno
      if code == Platform.noEntry { return nil }
      if code == Platform.notDirectory {
        throw NodeFileError(.unexpectedFile, "\(path) is not a directory")
      }
      throw .system("open the directory", path, code)
    }
    return DirectoryDescriptor(descriptor: descriptor, path: path)
  }

  /// `path/relative`, for messages.
  func full(_ relative: String) -> String {
    relative.isEmpty ? path : NodePath.join(path, relative)
  }

  /// What the directory itself is.
  func status() throws(NodeFileError) -> FileStatus {
    guard let status = Platform.fstat(descriptor) else { throw .system("inspect", path) }
    return status
  }

  /// The directory's owner and group.
  func owner() throws(NodeFileError) -> Owner {
    let status = try status()
    return (status.owner, status.group)
  }

  // MARK: - Resolving beneath

  private static let directoryFlags =
    Platform.readOnly | Platform.directory | Platform.noFollow | Platform.nonBlocking

  /// The subdirectory `relative` ("" is this one), or nil when it (or a parent) is missing.
  func directory(_ relative: String) throws(NodeFileError) -> DirectoryDescriptor? {
    if relative.isEmpty { return self }
    try Self.requireBeneath(relative, in: path)
    var fd = Platform.openBeneath(descriptor, relative, Self.directoryFlags)
    if fd < 0,
      [
        Platform.notImplemented, Platform.notPermitted, Platform.invalidArgument,
        Platform.argumentListTooLong, Platform.tryAgain,
      ].contains(Platform.errno)
    {
      fd = walk(relative)
    }
    guard fd >= 0 else {
      let code = Platform.errno
      if code == Platform.noEntry { return nil }
      throw refusal(relative, code)
    }
    return DirectoryDescriptor(descriptor: fd, path: full(relative))
  }

  /// `openat(Platform.noFollow)` one component at a time from this descriptor.
  private func walk(_ relative: String) -> Int32 {
    var current = Platform.dup(descriptor)
    for component in relative.split(separator: "/") {
      guard current >= 0 else { return -1 }
      let next = Platform.openat(current, String(component), Self.directoryFlags)
      let code = Platform.errno
      _ = Platform.close(current)
      Platform.setErrno(code)
      current = next
    }
    return current
  }

  /// Why `relative` could not be opened as a directory: the first component that is a symbolic
  /// link or not a directory is named.
  private func refusal(_ relative: String, _ code: Int32) -> NodeFileError {
    if [Platform.symbolicLinkLoop, Platform.notDirectory, Platform.crossDevice].contains(code) {
      var prefix = ""
      for component in relative.split(separator: "/") {
        prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
        guard
          let status = (try? self.parentAndName(prefix)).flatMap({ parent, name in
            Platform.lstatat(parent.descriptor, name)
          })
        else { break }
        if status.isSymbolicLink {
          return NodeFileError(
            .unexpectedFile,
            "\(full(prefix)) is a symbolic link; links inside \(path) are not followed"
          )
        }
        if !status.isDirectory {
          return NodeFileError(.unexpectedFile, "\(full(prefix)) is not a directory")
        }
      }
      return NodeFileError(.unexpectedFile, "\(full(relative)) does not lie inside \(path)")
    }
    return .system("open the directory", full(relative), code)
  }

  private static func requireBeneath(_ relative: String, in path: String) throws(NodeFileError) {
    guard NodePath.isBeneath(relative) else {
      throw NodeFileError(.unexpectedFile, "'\(relative)' does not name a path inside \(path)")
    }
  }

  /// The directory holding `relative` and its last component; nil when that directory is
  /// missing.
  func parentAndName(_ relative: String) throws(NodeFileError) -> (DirectoryDescriptor, String)? {
    try Self.requireBeneath(relative, in: path)
    let parent = NodePath.parent(relative)
    guard let directory = try directory(parent == "." ? "" : parent) else { return nil }
    return (directory, NodePath.leaf(relative))
  }

  private func require(_ relative: String) throws(NodeFileError) -> (DirectoryDescriptor, String) {
    guard let found = try parentAndName(relative) else {
      throw .system("find the directory of", full(relative), Platform.noEntry)
    }
    return found
  }

  // MARK: - Operations on names

  /// What is at `relative` itself (a symbolic link is not followed), or nil when nothing is.
  func status(_ relative: String) throws(NodeFileError) -> FileStatus? {
    if relative.isEmpty { return try status() }
    guard let (parent, name) = try parentAndName(relative) else { return nil }
    guard let status = Platform.lstatat(parent.descriptor, name) else {
      if Platform.errno == Platform.noEntry { return nil }
      throw .system("inspect", full(relative))
    }
    return status
  }

  /// Whether this user may do `mode` (`Platform.mayWriteIn`, `.mayReadAndWrite`) to what is at
  /// `relative` ("" is this directory), asked of the system without doing it: nil when allowed
  /// or when nothing is there, else the errno.
  func accessRefusal(_ relative: String, _ mode: Int32) throws(NodeFileError) -> Int32? {
    let code: Int32
    if relative.isEmpty {
      code = Platform.accessat(descriptor, ".", mode)
    } else {
      guard let (parent, name) = try parentAndName(relative) else { return nil }
      code = Platform.accessat(parent.descriptor, name, mode)
    }
    return code == 0 || code == Platform.noEntry ? nil : code
  }

  /// Creates the directory `relative` with exactly mode 0700 (fchmod, whatever the umask),
  /// given to `owner` when running as root, and flushes it and its parent.
  func makeDirectory(_ relative: String, owner: Owner?) throws(NodeFileError) {
    let (parent, name) = try require(relative)
    guard Platform.mkdirat(parent.descriptor, name, 0o700) == 0 else {
      throw .system("create the directory", full(relative))
    }
    let fd = Platform.openat(parent.descriptor, name, Self.directoryFlags)
    guard fd >= 0 else { throw .system("open the directory", full(relative)) }
    defer { _ = Platform.close(fd) }
    if let owner, Platform.isRoot, Platform.fchown(fd, owner.user, owner.group) != 0 {
      throw .system("set the owner of", full(relative))
    }
    guard Platform.fchmod(fd, 0o700) == 0 else {
      throw .system("set the permissions of", full(relative))
    }
    try Self.sync(fd, full(relative))
    try parent.sync()
  }

  /// `mkdir -p`: creates the missing directories of `relative`, each owned like the directory
  /// it is made in; returns those it created, outermost first.
  @discardableResult
  func makeDirectories(_ relative: String) throws(NodeFileError) -> [String] {
    var created: [String] = []
    var prefix = ""
    for component in relative.split(separator: "/") {
      prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
      if let status = try status(prefix) {
        guard status.isDirectory else {
          throw NodeFileError(
            .unexpectedFile,
            status.isSymbolicLink
              ? "\(full(prefix)) is a symbolic link; links inside \(path) are not followed"
              : "\(full(prefix)) is not a directory")
        }
        continue
      }
      let parent = NodePath.parent(prefix)
      let owner = try directory(parent == "." ? "" : parent)?.owner()
      try makeDirectory(prefix, owner: owner)
      created.append(prefix)
    }
    return created
  }

  /// Renames `from` to `to` (`renameat2` flags: `noReplace`, `exchange`; 0 replaces), then
  /// flushes both directories, so the rename survives a power loss.
  func rename(_ from: String, _ to: String, flags: UInt32 = 0) throws(NodeFileError) {
    let (fromParent, fromName) = try require(from)
    let (toParent, toName) = try require(to)
    guard
      Platform.renameat(fromParent.descriptor, fromName, toParent.descriptor, toName, flags: flags)
        == 0
    else {
      let code = Platform.errno
      if flags != 0, code == Platform.invalidArgument || code == Platform.notImplemented {
        throw NodeFileError(
          .io,
          "the file system of \(full(to)) cannot swap directories atomically (renameat2); "
            + "use a local Linux file system such as ext4, xfs, btrfs or tmpfs")
      }
      throw .system(
        flags == Self.exchange ? "swap \(full(from)) with" : "rename \(full(from)) to", full(to),
        code)
    }
    try toParent.sync()
    if !fromParent.isSameFile(as: toParent) { try fromParent.sync() }
  }

  /// `RENAME_NOREPLACE`: fail instead of replacing an existing target.
  static let noReplace: UInt32 = 1
  /// `RENAME_EXCHANGE`: swap the two names atomically.
  static let exchange: UInt32 = 2

  /// A second name `to` for the file `from` (never following a link), flushed.
  func link(_ from: String, _ to: String) throws(NodeFileError) {
    let (fromParent, fromName) = try require(from)
    let (toParent, toName) = try require(to)
    guard Platform.linkat(fromParent.descriptor, fromName, toParent.descriptor, toName) == 0 else {
      throw .system("keep", full(from))
    }
    try toParent.sync()
  }

  /// Removes the file or empty directory `relative`; nothing there is fine.
  func remove(_ relative: String) throws(NodeFileError) {
    guard let (parent, name) = try parentAndName(relative),
      let status = Platform.lstatat(parent.descriptor, name)
    else { return }
    guard Platform.unlinkat(parent.descriptor, name, directory: status.isDirectory) == 0 else {
      if Platform.errno == Platform.noEntry { return }
      throw .system("remove", full(relative))
    }
  }

  /// Removes `relative` and everything below it (links are removed, never followed).
  func removeTree(_ relative: String) throws(NodeFileError) {
    guard let status = try status(relative) else { return }
    if status.isDirectory {
      for name in try names(relative) { try removeTree(relative + "/" + name) }
    }
    try remove(relative)
  }

  /// The names in the subdirectory `relative` ("" is this one), sorted.
  func names(_ relative: String = "") throws(NodeFileError) -> [String] {
    guard let directory = try directory(relative) else { return [] }
    guard let names = Platform.names(directory.descriptor) else {
      throw .system("list", full(relative))
    }
    return names
  }

  /// `fsync` of the directory. File systems that cannot sync a directory report Platform.invalidArgument; that
  /// is not an error.
  func sync() throws(NodeFileError) { try Self.sync(descriptor, path) }

  private static func sync(_ descriptor: Int32, _ path: String) throws(NodeFileError) {
    if Platform.fsync(descriptor) != 0, Platform.errno != Platform.invalidArgument {
      throw .system("flush", path)
    }
  }

  func isSameFile(as other: DirectoryDescriptor) -> Bool {
    guard let mine = Platform.fstat(descriptor), let theirs = Platform.fstat(other.descriptor)
    else { return false }
    return mine.isSameFile(as: theirs)
  }

  // MARK: - Files

  /// Creates the file `relative` exclusively, mode 0600 while it is filled, then `owner` (as
  /// root) and exactly `mode`, flushed; returns what it is.
  @discardableResult
  func createFile(
    _ relative: String, _ bytes: some ContiguousBytes, mode: UInt32, owner: Owner?
  ) throws(NodeFileError) -> FileStatus {
    let (parent, name) = try require(relative)
    let fd = Platform.openat(
      parent.descriptor, name,
      Platform.writeOnly | Platform.create | Platform.exclusive | Platform.noFollow, 0o600)
    guard fd >= 0 else { throw .system("create", full(relative)) }
    var open = true
    var done = false
    defer {
      if open { _ = Platform.close(fd) }
      // A half-written file (a full disk) is not left behind.
      if !done { _ = Platform.unlinkat(parent.descriptor, name, directory: false) }
    }
    if let failure = bytes.withUnsafeBytes({ Platform.writeAll(fd, $0) }) {
      throw .system("write", full(relative), failure)
    }
    if let owner, Platform.isRoot, Platform.fchown(fd, owner.user, owner.group) != 0 {
      throw .system("set the owner of", full(relative))
    }
    guard Platform.fchmod(fd, mode) == 0 else {
      throw .system("set the permissions of", full(relative))
    }
    guard Platform.fsync(fd) == 0 else { throw .system("flush", full(relative)) }
    guard let status = Platform.fstat(fd) else { throw .system("inspect", full(relative)) }
    open = false
    // close can report a deferred write error (NFS, quotas).
    guard Platform.close(fd) == 0 else { throw .system("close", full(relative)) }
    done = true
    return status
  }

  /// The bytes of the regular file `relative` and what it is, or nil when nothing is there.
  /// Opened with Platform.nonBlocking and Platform.noFollow and checked with fstat, so a FIFO, a device or a
  /// link is refused without waiting; larger than `limit` bytes is refused unread.
  func readFile(_ relative: String, limit: Int) throws(NodeFileError) -> (SecureBytes, FileStatus)?
  {
    guard let (parent, name) = try parentAndName(relative) else { return nil }
    let fd = Platform.openat(
      parent.descriptor, name, Platform.readOnly | Platform.noFollow | Platform.nonBlocking)
    guard fd >= 0 else {
      let code = Platform.errno
      if code == Platform.noEntry { return nil }
      if code == Platform.symbolicLinkLoop {
        throw NodeFileError(
          .unexpectedFile,
          "\(full(relative)) is a symbolic link; links inside \(path) are not followed"
        )
      }
      throw .system("read", full(relative), code)
    }
    defer { _ = Platform.close(fd) }
    guard let status = Platform.fstat(fd) else { throw .system("inspect", full(relative)) }
    guard status.isRegularFile else {
      throw NodeFileError(
        .unexpectedFile, "\(full(relative)) is \(status.kindDescription), not a regular file")
    }
    guard status.size <= limit else {
      throw NodeFileError(
        .unexpectedFile, "\(full(relative)) is larger than \(limit) bytes; it is not a node file")
    }
    let (bytes, failure) = NodeFileReader.readAll(fd, capacity: Int(status.size) + 1)
    guard failure == 0 else { throw .system("read", full(relative), failure) }
    guard bytes.count <= status.size else {
      throw NodeFileError(.io, "\(full(relative)) changed while it was read")
    }
    return (bytes, status)
  }

  /// A random hex suffix for names that must not collide.
  static func randomSuffix() -> String { Hex.encode(SecureRandom.bytes(count: 6)) }
}

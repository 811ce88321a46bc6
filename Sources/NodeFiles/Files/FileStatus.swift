import SystemCalls

/// What `lstat` or `stat` says about a path.
package struct FileStatus: Sendable, Equatable {
  /// The type and permission bits.
  package let mode: UInt32
  /// The owner.
  package let owner: UInt32
  /// The group.
  package let group: UInt32
  /// The inode number: the same file, whatever its name.
  package let inode: UInt64
  /// The device the inode is on.
  package let device: UInt64
  /// The size in bytes.
  package let size: Int64

  init(mode: UInt32, owner: UInt32, group: UInt32, inode: UInt64, device: UInt64, size: Int64) {
    self.mode = mode
    self.owner = owner
    self.group = group
    self.inode = inode
    self.device = device
    self.size = size
  }

  /// A directory.
  package var isDirectory: Bool { type == Platform.directoryType }
  /// A regular file.
  package var isRegularFile: Bool { type == Platform.regularFileType }
  /// A symbolic link (only from `lstat`).
  package var isSymbolicLink: Bool { type == Platform.symbolicLinkType }
  private var type: UInt32 { mode & Platform.fileTypeMask }
  /// The same inode as `other` (same device and inode number).
  package func isSameFile(as other: FileStatus) -> Bool {
    inode == other.inode && device == other.device
  }
  /// What kind of file it is, for messages ("a FIFO").
  var kindDescription: String {
    switch type {
    case Platform.regularFileType: "a regular file"
    case Platform.directoryType: "a directory"
    case Platform.symbolicLinkType: "a symbolic link"
    case Platform.fifoType: "a FIFO"
    case Platform.socketType: "a socket"
    case Platform.characterDeviceType, Platform.blockDeviceType: "a device"
    default: "an unknown kind of file"
    }
  }
  /// The permission bits.
  package var permissions: UInt32 { mode & 0o7777 }

  /// The status of `path` itself (a symbolic link is not followed), or nil when nothing is there.
  package static func of(_ path: String) throws(NodeFileError) -> FileStatus? {
    guard let status = Platform.lstat(path: path) else {
      if Platform.errno == Platform.noEntry { return nil }
      throw .system("inspect", path)
    }
    return status
  }

  /// The status of what `path` names, following symbolic links, or nil when nothing is there.
  package static func following(_ path: String) throws(NodeFileError) -> FileStatus? {
    guard let status = Platform.statFollowing(path: path) else {
      let code = Platform.errno
      if code == Platform.noEntry || code == Platform.notDirectory { return nil }
      throw .system("inspect", path, code)
    }
    return status
  }
}

/// Path helpers shared by the layouts and the transaction.
package enum NodePath {
  /// `directory/name`, without doubling a trailing slash.
  package static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// Whether `path` names something below a directory without leaving it: relative, no empty,
  /// `.` or `..` component, no space or control character (the intent record is a list of
  /// space-separated fields), at most 4096 bytes.
  static func isBeneath(_ path: String) -> Bool {
    guard !path.isEmpty, path.utf8.count <= 4096, !path.hasPrefix("/") else { return false }
    guard path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
      return false
    }
    return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
      !$0.isEmpty && $0 != "." && $0 != ".."
    }
  }

  /// Whether a component of `path` is one of the names the engine keeps for itself
  /// (`.freedom-keys.*`), which no change may write and no record may name.
  static func namesEngineFile(_ path: String) -> Bool {
    path.split(separator: "/").contains { $0.hasPrefix(".freedom-keys") }
  }

  /// `path` with every symbolic link and `.`/`..` resolved, or nil when it does not resolve
  /// (for comparing two names of one directory; never for opening).
  package static func resolved(_ path: String) -> String? { Platform.realPath(path) }

  /// The names in the directory `path` (links followed, as for a folder the user named),
  /// sorted, without `.` and `..`; nothing when it cannot be listed.
  package static func entries(_ path: String) -> [String] { Platform.names(path: path) ?? [] }

  /// The last component of `path`.
  package static func leaf(_ path: String) -> String {
    String(path.split(separator: "/").last ?? "")
  }

  /// The directory part of `path` ("." for a bare name).
  package static func parent(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }
}

extension FileStatus {
  init(_ info: FileInfo) {
    self.init(
      mode: info.mode, owner: info.owner, group: info.group, inode: info.inode,
      device: info.device, size: info.size)
  }
}

/// The engine's `stat` calls, answering `FileStatus`.
extension Platform {
  /// `stat(2)` (links followed): nil with errno set.
  static func statFollowing(path: String) -> FileStatus? { info(path: path).map(FileStatus.init) }
  /// `lstat(2)` (a symbolic link itself): nil with errno set.
  static func lstat(path: String) -> FileStatus? { linkInfo(path: path).map(FileStatus.init) }
  /// `fstat(2)`: nil with errno set.
  static func fstat(_ descriptor: Int32) -> FileStatus? { info(descriptor).map(FileStatus.init) }
  /// `fstatat(2)` of `name` itself (a symbolic link is not followed): nil with errno set.
  static func lstatat(_ directory: Int32, _ name: String) -> FileStatus? {
    linkInfo(directory, name).map(FileStatus.init)
  }
}

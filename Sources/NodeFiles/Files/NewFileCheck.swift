import SystemCalls

/// Whether a new file can be written at a path, asked before the work whose result it is, so
/// that result is never lost to it: the file must not exist (not even as a dangling symbolic
/// link), its directory must, and be writable.
package enum NewFileCheck {
  /// Throws why a new file cannot be written at `path`.
  package static func check(_ path: String) throws(NewFileRefusal) {
    if let status = Platform.linkInfo(path: path) {
      if status.type == Platform.symbolicLinkType { throw .symbolicLink(path: path) }
      throw .exists(path: path)
    }
    let directory =
      switch path.lastIndex(of: "/") {
      case nil: "."
      case path.startIndex: "/"
      case let slash?: String(path[..<slash])
      }
    guard Platform.info(path: directory)?.type == Platform.directoryType else {
      throw .notADirectory(directory: directory, path: path)
    }
    guard Platform.access(path: directory, Platform.mayWriteIn) == 0 else {
      throw .notWritable(directory: directory, path: path)
    }
  }
}

/// Why a new file cannot be written at a path.
package enum NewFileRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  /// The path is a symbolic link (dangling or not): writing would go through it.
  case symbolicLink(path: String)
  /// A file is there already.
  case exists(path: String)
  /// The directory the file would go into is not one (or does not exist).
  case notADirectory(directory: String, path: String)
  /// The directory the file would go into is not writable by this user.
  case notWritable(directory: String, path: String)

  package var description: String {
    switch self {
    case .symbolicLink(let path):
      "\(path) is a symbolic link; refusing to write through it — choose another path"
    case .exists(let path): "\(path) already exists; refusing to overwrite it — choose another path"
    case .notADirectory(let directory, let path):
      "\(directory) is not a directory, so \(path) cannot be written: create it first or choose "
        + "another path"
    case .notWritable(let directory, let path):
      "\(directory) is not writable, so \(path) cannot be written: choose another directory"
    }
  }
}

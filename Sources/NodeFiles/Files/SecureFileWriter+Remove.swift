import SystemCalls

extension SecureFileWriter {
  /// Removes the file `path` wrote (a checkpoint that is no longer needed), never a directory;
  /// a file already gone is not an error.
  package static func remove(_ path: String) throws(SecureFileError) {
    if let status = Platform.lstat(path: path), status.isDirectory {
      throw .isADirectory(path: path)
    }
    guard Platform.unlink(path: path) == 0 || Platform.errno == Platform.noEntry else {
      throw SecureFileError(errno: Platform.errno, path: path, operation: "remove")
    }
  }
}

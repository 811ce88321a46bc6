import NodeFiles

/// Why a new file cannot be written at a path (`UserFiles.checkNew`).
package typealias NewFileRefusal = NodeFiles.NewFileRefusal

extension UserFiles {
  /// Throws why a new file cannot be written at `path`, asked before the work whose result it
  /// is: it must not exist (not even as a dangling symbolic link), its directory must, and be
  /// writable.
  package static func checkNew(_ path: String) throws(NewFileRefusal) {
    try NewFileCheck.check(path)
  }
}

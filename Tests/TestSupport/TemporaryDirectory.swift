import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh directory under /tmp (mode 0700), removed with everything left in it when the value
/// goes away: every test target's scratch space.
public final class TemporaryDirectory {
  /// The directory.
  public let path: String
  /// The same, as a URL.
  public var url: URL { URL(fileURLWithPath: path) }

  public init() throws {
    var template = Array("/tmp/freedom-keys-test-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    path = String(cString: made)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// The path of `name` inside the directory (nothing is written).
  public func file(_ name: String) -> String { path + "/" + name }

  /// Writes `bytes` to `name` with `mode` (0600 unless told) and returns its path.
  public func file(_ name: String, _ bytes: Data, mode: Int = 0o600) throws -> String {
    let target = file(name)
    guard FileManager.default.createFile(atPath: target, contents: bytes) else {
      throw CocoaError(.fileWriteUnknown)
    }
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target)
    return target
  }

  /// Writes `text` as UTF-8.
  public func file(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
    try file(name, Data(text.utf8), mode: mode)
  }

  /// The names in the directory (or in `subdirectory` of it), sorted.
  public func contents(_ subdirectory: String = "") throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: subdirectory.isEmpty ? path : file(subdirectory)
    ).sorted()
  }
}

/// The permission bits of `path` (following symlinks), or nil if it does not exist.
public func permissions(_ path: String) -> UInt32? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  return UInt32(info.st_mode & 0o7777)
}

/// The bytes of the file at `path`.
public func readBytes(_ path: String) throws -> [UInt8] {
  Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Writes `bytes` to a new file at `path` with mode 0600, as ssh-keygen wants a private key.
public func writePrivateFile(_ bytes: some ContiguousBytes, to path: String) throws {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
  guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
  defer { close(descriptor) }
  let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  guard written == bytes.withUnsafeBytes({ $0.count }) else { throw CocoaError(.fileWriteUnknown) }
}

import Foundation
import Glibc

/// A fresh directory under /tmp, removed (with anything left in it) when the test ends.
final class TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/freedom-keys-test-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    path = String(cString: made)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { path + "/" + name }

  /// The names in the directory, sorted.
  func contents(_ subdirectory: String = "") throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: subdirectory.isEmpty ? path : file(subdirectory)
    ).sorted()
  }
}

/// The permission bits of `path` (following symlinks), or nil if it does not exist.
func permissions(_ path: String) -> UInt32? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  return UInt32(info.st_mode & 0o7777)
}

func readBytes(_ path: String) throws -> [UInt8] {
  Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Runs `executable` with `arguments`; returns (exit status, stdout, stderr).
func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String, String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: stdout, as: UTF8.self),
    String(decoding: stderr, as: UTF8.self)
  )
}

/// The full path of `name` on PATH, if installed.
func which(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(name)"
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}

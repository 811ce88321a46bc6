import Foundation

#if canImport(Glibc)
  import Glibc
#endif
/// Runs `executable` with `arguments`; returns (exit status, stdout, stderr).
public func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String, String) {
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
public func which(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(name)"
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}

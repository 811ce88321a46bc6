import Foundation

/// Runs the built `freedom-keys` binary, as a user would, and captures what it printed.
struct CLIRun {
  let status: Int32
  let stdout: String
  let stderr: String
}

enum CLI {
  /// The binary SwiftPM built beside the test runner (the package's `freedom-keys` product).
  static var executable: URL {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    for dir in [Bundle.main.bundleURL, runner.deletingLastPathComponent()] {
      let candidate = dir.appendingPathComponent("freedom-keys")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return Bundle.main.bundleURL.appendingPathComponent("freedom-keys")
  }

  /// Runs `freedom-keys arguments…` with `stdin` on its standard input.
  static func run(_ arguments: [String], stdin: String = "", environment: [String: String]? = nil) throws -> CLIRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIRun(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }
}

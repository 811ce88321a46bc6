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

  /// A write to a pipe the binary closed early must fail with EPIPE, not kill the test runner.
  private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  /// Runs `freedom-keys arguments…` with `stdin` on its standard input.
  static func run(
    _ arguments: [String], stdin: String = "", environment: [String: String]? = nil,
    executable: String? = nil
  ) throws -> CLIRun {
    try run(
      arguments, stdinBytes: Data(stdin.utf8), environment: environment, executable: executable)
  }

  /// Runs `freedom-keys arguments…` with arbitrary bytes on its standard input. Input is written
  /// and stderr read on other threads, so neither side can block the other on a full pipe.
  static func run(
    _ arguments: [String], stdinBytes: Data, environment: [String: String]? = nil,
    executable program: String? = nil
  ) throws -> CLIRun {
    ignoreBrokenPipes
    let process = Process()
    // Another program (setpriv) may run the binary.
    process.executableURL = program.map { URL(fileURLWithPath: $0) } ?? executable
    process.arguments = arguments
    // A search keeps a checkpoint by itself in $XDG_STATE_HOME/freedom-keys: each run its own,
    // never the user's, unless the test gives it.
    var environment = environment ?? ProcessInfo.processInfo.environment
    let state = FileManager.default.temporaryDirectory.appendingPathComponent(
      "freedom-keys-state-\(UUID().uuidString)")
    if environment["XDG_STATE_HOME"] == nil { environment["XDG_STATE_HOME"] = state.path }
    defer { try? FileManager.default.removeItem(at: state) }
    process.environment = environment
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      // The binary may exit before reading everything (size limits): EPIPE is expected then.
      try? input.fileHandleForWriting.write(contentsOf: stdinBytes)
      try? input.fileHandleForWriting.close()
    }
    nonisolated(unsafe) var err = Data()
    DispatchQueue.global().async(group: group) {
      err = error.fileHandleForReading.readDataToEndOfFile()
    }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CLIRun(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }
}

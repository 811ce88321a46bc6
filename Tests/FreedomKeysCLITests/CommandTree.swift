import Foundation

/// The command tree as the built binary's help shows it, walked through `--help`, so the man page
/// and completion tests check every command a user can reach, including ones added later.
enum CommandTree {
  /// Every command's words after `freedom-keys` (`[]`, `["export"]`, `["export", "bee"]` …),
  /// parents first; `help` is left out (it has no page of its own).
  static func allCommands() throws -> [[String]] {
    var found: [[String]] = []
    var pending: [[String]] = [[]]
    while let words = pending.first {
      pending.removeFirst()
      found.append(words)
      let subcommands = try self.subcommands(of: words)
      pending += subcommands.filter { !(words.isEmpty && $0 == "help") }.map { words + [$0] }
    }
    return found
  }

  /// The names in the SUBCOMMANDS section of `freedom-keys words… --help`.
  static func subcommands(of words: [String]) throws -> [String] {
    let help = try CLI.run(words + ["--help"]).stdout
    guard let section = help.range(of: "SUBCOMMANDS:\n") else { return [] }
    return help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
      .prefix { !$0.isEmpty }
      .compactMap { $0.split(separator: " ").first.map(String.init) }
  }

  /// The long options in the OPTIONS section of `freedom-keys words… --help`.
  static func options(of words: [String]) throws -> [String] {
    let help = try CLI.run(words + ["--help"]).stdout
    guard let section = help.range(of: "OPTIONS:\n") else { return [] }
    return help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
      .prefix { !$0.isEmpty }
      .compactMap { line in
        line.split(separator: " ").first { $0.hasPrefix("--") }.map(String.init)
      }
  }
}

/// Runs a program other than freedom-keys (man, bash, zsh, fish) and captures its output.
enum Program {
  /// The full path of `name` on PATH, nil if it is not installed.
  static func find(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:]
  ) throws -> CLIRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = error
    try process.run()
    nonisolated(unsafe) var err = Data()
    let group = DispatchGroup()
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

import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 8, reproducer 7: a crash prints one line, no registers or memory, and ends the process
/// with the signal (non-zero); core files stay off. The binary is crashed from outside, with
/// the signal a fault would raise, while it waits for its mnemonic on a FIFO: the handler that
/// runs is the same whatever raised the signal, and no test hook ships in the binary.
@Suite("crash")
struct CrashTests {
  static let line =
    "freedom-keys: error: stopped by a fatal signal; if you did not send it, please report this crash (nothing from memory is printed)\n"

  /// Runs `freedom-keys arguments…` with the FIFO `fifo` as its mnemonic file, and returns once
  /// it has opened the FIFO's read end (it is in main, past start-up, blocked reading its
  /// mnemonic), with the write end.
  static func startWaiting(
    _ arguments: [String], fifo: String, output: Pipe, error: Pipe,
    runner: (program: String, arguments: [String])? = nil
  ) throws -> (Process, writer: Int32) {
    #expect(mkfifo(fifo, 0o666) == 0)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: runner?.program ?? CLI.executable.path)
    process.arguments = (runner?.arguments ?? []) + arguments
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Opening the write end succeeds once the binary has opened the read end.
    var writer: Int32 = -1
    let deadline = Date().addingTimeInterval(30)
    while writer < 0, Date() < deadline, process.isRunning {
      writer = open(fifo, O_WRONLY | O_NONBLOCK)
      if writer < 0 { usleep(10_000) }
    }
    if writer < 0 {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try #require(writer >= 0, "the binary never opened its mnemonic file")
    return (process, writer)
  }

  /// The soft and hard core size limits of process `pid`, as /proc prints them.
  static func coreLimits(_ pid: Int32) throws -> [Substring]? {
    let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
    let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
    return core.map { Array($0.split(separator: " ").dropFirst(4).prefix(2)) }
  }

  /// The real user id of process `pid` (its `Uid:` line) and the owner of `/proc/<pid>/status`:
  /// the kernel gives the files in a process's /proc directory (not the directory itself) to
  /// root while it is not dumpable (`prctl(PR_SET_DUMPABLE, 0)`), and to its user otherwise.
  static func userAndProcOwner(_ pid: Int32) throws -> (user: UInt32?, owner: UInt32?) {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let user = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?
      .split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { UInt32($0) }
    var info = stat()
    return (user, stat("/proc/\(pid)/status", &info) == 0 ? info.st_uid : nil)
  }

  @Test(arguments: [SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGTRAP, SIGFPE, SIGQUIT])
  func crashIsOneLineAndTheSignal(signal: Int32) throws {
    let dir = try TemporaryDirectory()
    let fifo = dir.url.appendingPathComponent("mnemonic").path
    let output = Pipe()
    let error = Pipe()
    let (process, writer) = try Self.startWaiting(
      ["derive", "--mnemonic-file", fifo], fifo: fifo, output: output, error: error)
    #expect(try Self.coreLimits(process.processIdentifier) == ["0", "0"])

    #expect(kill(process.processIdentifier, signal) == 0)
    // Bounded: a signal the binary ignored or held back must fail the test, not hang it.
    let exitDeadline = Date().addingTimeInterval(30)
    while process.isRunning, Date() < exitDeadline { usleep(10_000) }
    if process.isRunning {
      Issue.record("signal \(signal) did not end the process")
      kill(process.processIdentifier, SIGKILL)
    }
    let err = error.fileHandleForReading.readDataToEndOfFile()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    close(writer)

    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    #expect(out.isEmpty)
    #expect(String(decoding: err, as: UTF8.self) == Self.line)
  }

  /// Issue 26, item 6: a piped `core_pattern` (systemd-coredump, apport) receives a core
  /// whatever `RLIMIT_CORE` says; a process that is not dumpable gets none. Every command is
  /// made so at start-up, before it reads a secret: each is caught here waiting for its
  /// mnemonic, run as a user other than root (setpriv when the tests run as root), and its
  /// /proc files belong to root, as they do only for a process that is not dumpable.
  @Test(arguments: [
    ["derive"], ["mnemonic", "check"], ["verify", "--bee-dir", "{dir}"],
    ["export", "bee", "--data-dir", "{dir}", "--dry-run"],
    ["recover", "--address", "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"],
  ])
  func noCommandCanDumpCore(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let node = dir.file("node")
    try FileManager.default.createDirectory(atPath: node, withIntermediateDirectories: false)
    var runner: (program: String, arguments: [String])?
    if getuid() == 0 {
      guard let setpriv = executable("setpriv") else {
        try Test.cancel("setpriv (util-linux) is not installed")
      }
      // The build may lie in a home other users cannot enter: a copy of the binary runs.
      let binary = dir.file("freedom-keys")
      try FileManager.default.copyItem(atPath: CLI.executable.path, toPath: binary)
      #expect(chmod(dir.path, 0o755) == 0 && chmod(binary, 0o755) == 0)
      #expect(chown(node, SudoRestoreTests.user, SudoRestoreTests.user) == 0)
      let id = "\(SudoRestoreTests.user)"
      runner = (setpriv, ["--reuid", id, "--regid", id, "--clear-groups", "--", binary])
    }
    let fifo = dir.file("mnemonic")
    let (process, writer) = try Self.startWaiting(
      command.map { $0 == "{dir}" ? node : $0 } + ["--mnemonic-file", fifo], fifo: fifo,
      output: Pipe(), error: Pipe(), runner: runner)
    defer {
      close(writer)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let (user, owner) = try Self.userAndProcOwner(process.processIdentifier)
    try #require(user != nil && user != 0, "\(command) runs as root")
    #expect(owner == 0, "\(command) is dumpable")
    #expect(try Self.coreLimits(process.processIdentifier) == ["0", "0"], "\(command)")
  }
}

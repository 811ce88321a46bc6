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

  @Test(arguments: [SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGTRAP, SIGFPE, SIGQUIT])
  func crashIsOneLineAndTheSignal(signal: Int32) throws {
    let dir = try TemporaryDirectory()
    let fifo = dir.url.appendingPathComponent("mnemonic").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["derive", "--mnemonic-file", fifo]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()

    // Opening the write end succeeds once the binary has opened the read end: it is in main,
    // past start-up, blocked reading its mnemonic.
    var writer: Int32 = -1
    let deadline = Date().addingTimeInterval(30)
    while writer < 0, Date() < deadline, process.isRunning {
      writer = open(fifo, O_WRONLY | O_NONBLOCK)
      if writer < 0 { usleep(10_000) }
    }
    try #require(writer >= 0, "the binary never opened its mnemonic file")
    let limits = try String(
      contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)
    let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
    #expect(
      core?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2) == [
        "0", "0",
      ])

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
}

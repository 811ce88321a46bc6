import Foundation
import Testing

/// The hidden prompt, driven through a pseudo-terminal: echo is off while the words are typed,
/// nothing typed appears on the terminal, and the terminal is restored afterwards, also when
/// the user presses Ctrl-C.
@Suite("Hidden prompt")
struct PromptTests {
  static let prompt = "Enter your mnemonic (input hidden; or use --mnemonic-file PATH): "

  /// A pseudo-terminal whose slave side becomes the binary's standard input.
  final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    init() throws {
      // Glibc's Swift module hides the XSI pseudo-terminal calls; look them up in libc.
      typealias OpenPT = @convention(c) (Int32) -> Int32
      typealias PTCall = @convention(c) (Int32) -> Int32
      typealias PTSName = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
      let libc = dlopen(nil, RTLD_NOW)
      func function<F>(_ name: String, as type: F.Type) throws -> F {
        guard let symbol = dlsym(libc, name) else { throw POSIXError(.ENOSYS) }
        return unsafeBitCast(symbol, to: type)
      }
      master = try function("posix_openpt", as: OpenPT.self)(O_RDWR | O_NOCTTY)
      guard master >= 0, try function("grantpt", as: PTCall.self)(master) == 0,
        try function("unlockpt", as: PTCall.self)(master) == 0
      else { throw POSIXError(.ENOTTY) }
      var name = [CChar](repeating: 0, count: 128)
      guard try function("ptsname_r", as: PTSName.self)(master, &name, name.count) == 0 else {
        throw POSIXError(.ENOTTY)
      }
      slave = open(
        String(decoding: name.prefix(while: { $0 != 0 }).map(UInt8.init), as: UTF8.self),
        O_RDWR | O_NOCTTY)
      guard slave >= 0 else { throw POSIXError(.ENOTTY) }
    }

    deinit {
      close(slave)
      close(master)
    }

    /// Whether the terminal currently echoes what is typed.
    var echoes: Bool {
      var settings = termios()
      _ = tcgetattr(slave, &settings)
      return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Types `text` as if at the keyboard.
    func type(_ text: String) {
      _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }

    /// Everything the terminal displayed so far (what was echoed), without waiting.
    func displayed() -> String {
      var bytes: [UInt8] = []
      var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      var buffer = [UInt8](repeating: 0, count: 4096)
      while poll(&poller, 1, 100) > 0 {
        let count = read(master, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[0..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// A running binary whose stdin is `terminal`; stdout and stderr are pipes.
  struct Session {
    let process = Process()
    let output = Pipe()
    let error = Pipe()

    init(_ arguments: [String], terminal: PseudoTerminal) throws {
      process.executableURL = CLI.executable
      process.arguments = arguments
      process.standardInput = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
      process.standardOutput = output
      process.standardError = error
      try process.run()
      // A hung binary must fail the test, not hang it.
      let process = process
      DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      }
    }

    /// Reads stderr until `text` arrived; returns everything read.
    func waitForStandardError(containing text: String) -> String {
      var seen = Data()
      while !String(decoding: seen, as: UTF8.self).contains(text) {
        let chunk = error.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        seen += chunk
      }
      return String(decoding: seen, as: UTF8.self)
    }

    /// Waits for the exit; returns stdout and the rest of stderr.
    func finish() -> (stdout: String, stderr: String) {
      let out = output.fileHandleForReading.readDataToEndOfFile()
      let err = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
  }

  @Test func typedMnemonicIsHiddenAndUsed() throws {
    let terminal = try PseudoTerminal()
    #expect(terminal.echoes)
    let session = try Session(["derive", "--json"], terminal: terminal)
    #expect(session.waitForStandardError(containing: Self.prompt) == Self.prompt)
    #expect(!terminal.echoes)
    terminal.type(SecretInputTests.mnemonic + "\n")
    let (stdout, stderr) = session.finish()

    #expect(session.process.terminationStatus == 0)
    #expect(stderr == "\n")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    let wallet = try #require(json["wallet"] as? [String: Any])
    #expect(wallet["address"] as? String == DeriveTests.walletAddress)
    #expect(terminal.echoes)
    #expect(terminal.displayed() == "")
  }

  @Test func controlCRestoresTheTerminal() throws {
    let terminal = try PseudoTerminal()
    let session = try Session(["derive"], terminal: terminal)
    _ = session.waitForStandardError(containing: Self.prompt)
    #expect(!terminal.echoes)
    session.process.interrupt()
    let (stdout, _) = session.finish()

    #expect(session.process.terminationReason == .uncaughtSignal)
    #expect(session.process.terminationStatus == SIGINT)
    #expect(stdout == "")
    #expect(terminal.echoes)
  }

  @Test func endOfInputAtThePrompt() throws {
    let terminal = try PseudoTerminal()
    let session = try Session(["derive"], terminal: terminal)
    _ = session.waitForStandardError(containing: Self.prompt)
    terminal.type("\u{04}")  // Ctrl-D on an empty line
    let (stdout, stderr) = session.finish()

    #expect(session.process.terminationStatus == 1)
    #expect(stdout == "")
    #expect(stderr == "\nfreedom-keys: error: no mnemonic was entered\n")
    #expect(terminal.echoes)
  }
}

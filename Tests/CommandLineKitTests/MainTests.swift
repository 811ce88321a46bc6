import CommandLineKit
import Foundation
import Synchronization
import Testing

/// What `main` does with a command line: the result on one stream, one error line on the
/// other, the exit status; arguments that are not UTF-8 refused by position or option.
@Suite("command-line framework: running a tool")
struct MainTests {
  /// What `tool` printed and returned for `arguments`.
  func run(
    _ arguments: [String], of tool: CommandLineTool = Toy.tool,
    describe: @escaping (any Error) -> String = { String(describing: $0) }
  ) -> (status: Int32, output: String, error: String) {
    let output = Mutex("")
    let error = Mutex("")
    let streams = StandardStreams(
      output: { text in output.withLock { $0 += text } },
      error: { text in error.withLock { $0 += text } })
    let status = tool.run(arguments, streams: streams, describe: describe)
    return (status, output.withLock { $0 }, error.withLock { $0 })
  }

  @Test func versionAndHelpGoToStandardOutput() {
    #expect(run(["--version"]) == (0, "toy 9.8.7\n", ""))
    let help = run(["seal", "--help"])
    #expect(help.status == 0 && help.error == "")
    #expect(help.output.hasPrefix("OVERVIEW: Seal something."))
    #expect(run(["seal"]) == (0, "", ""))
  }

  @Test func aUsageErrorIsOneLineAndExitTwo() {
    #expect(
      run(["seal", "--nope"])
        == (2, "", "toy: error: unknown option '--nope' (see 'toy seal --help')\n"))
    // A group without its subcommand: its help on stderr, then the usage error.
    let missing = run([])
    #expect(missing.status == 2 && missing.output == "")
    #expect(missing.error.hasSuffix("\ntoy: error: missing subcommand (see 'toy --help')\n"))
  }

  @Test func anErrorIsWordedOnOneLineWithItsStatus() {
    #expect(run([], of: Failing.tool) == (4, "", "fail: error: none of them?again\n"))
    #expect(
      run(["--other"], of: Failing.tool, describe: { _ in "worded by the tool" })
        == (1, "", "fail: error: worded by the tool\n"))
  }

  @Test func argumentsThatAreNotUTF8AreRefusedNeverDecoded() throws {
    let tool = Toy.tool
    #expect(try tool.arguments([Array("seal".utf8), Array("é".utf8)]).get() == ["seal", "é"])
    let suffix =
      " is not valid UTF-8: toy takes file and directory names as UTF-8 text only and "
      + "changed nothing; rename the file or directory to a UTF-8 name"
    func refusal(_ argv: [[UInt8]]) -> String? {
      guard case .failure(let error) = tool.arguments(argv) else { return nil }
      #expect(error.exitStatus == 1)
      return error.description
    }
    #expect(refusal([[0x66, 0xFF]]) == "argument 1" + suffix)
    #expect(
      refusal([Array("seal".utf8), Array("--out-dir".utf8), [0xFF]])
        == "the argument after --out-dir" + suffix)
    #expect(refusal([Array("--out-dir=".utf8) + [0xC3]]) == "the value of --out-dir" + suffix)
    #expect(refusal([Array("x".utf8), [0xC3, 0x28]]) == "argument 2" + suffix)
  }

  @Test func manualPagesAreWrittenIntoADirectoryMadeForThem() throws {
    let root = NSTemporaryDirectory() + "manual-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: root) }
    let status = run(["--generate-manual", root + "/man/man1"])
    #expect(status == (0, "", ""))
    let pages = try FileManager.default.contentsOfDirectory(atPath: root + "/man/man1")
    #expect(pages.sorted() == ManualPages.pages(of: Toy.tool).map(\.fileName).sorted())
    #expect(pages.contains("toy-seal.1"))

    _ = FileManager.default.createFile(atPath: root + "/file", contents: Data())
    let refused = run(["--generate-manual", root + "/file"])
    #expect(refused.status == 1)
    #expect(
      refused.error
        == "toy: error: \(root)/file is not a directory; give --generate-manual a directory\n")
  }

  @Test func progressIsRedrawnOnATerminalAndAppendedElsewhere() {
    let written = Mutex("")
    let streams = StandardStreams(
      output: { _ in }, error: { text in written.withLock { $0 += text } })
    let terminal = ProgressLine(onTerminal: true, streams: streams)
    terminal.show("1 %")
    terminal.show("2 %")
    terminal.say("phase 2")
    terminal.clear()
    #expect(written.withLock { $0 } == "\r\u{1B}[K1 %\r\u{1B}[K2 %\r\u{1B}[Kphase 2\n")
    written.withLock { $0 = "" }
    let log = ProgressLine(onTerminal: false, streams: streams)
    log.show("1 %")
    log.say("phase 2")
    #expect(written.withLock { $0 } == "progress: 1 %\nphase 2\n")
  }

  /// An error line is one line: control characters shown as '?' by the one rule
  /// (`TerminalText.oneLine`, tested in WordingTests).
  @Test func errorLineShowsControlCharactersAsQuestionMarks() {
    #expect(Failing.tool.errorLine("a\nb\u{7}c\u{85}é") == "fail: error: a?b?c?é\n")
  }
}

/// A tool whose command fails: a `CLIError` with its own status, or another error.
struct Failing: Command {
  struct Other: Error {}

  static var definition: CommandDefinition {
    CommandDefinition(name: "fail", abstract: "Fail.", options: [.flag("other", help: "x")])
  }

  static var tool: CommandLineTool {
    CommandLineTool(root: Failing.self, version: "1", exitStatus: "never 0.")
  }

  let other: Bool
  init(_ arguments: ParsedArguments) { other = arguments.flag(Self.definition.options[0]) }

  func run() throws {
    if other { throw Other() }
    throw CLIError.notFound("none of them\nagain")
  }
}

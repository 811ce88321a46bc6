import Foundation
import TestSupport
import Testing

/// One test per class of bad mnemonic input, for every command that reads a mnemonic: exit
/// status 1, one line on stderr naming the problem, nothing on stdout, and never three
/// consecutive words of the phrase in what is printed.
@Suite("Bad input")
struct BadInputTests {
  /// A published BIP-39 test phrase (trezor vectors) whose words are all different enough that
  /// an echo of it would be noticed.
  static let phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
  static var words: [String] { phrase.split(separator: " ").map(String.init) }

  static let counts = "12, 15, 18, 21 or 24"

  /// What the mnemonic file holds.
  enum Content: Sendable {
    case bytes(Data)
    case missing
    case directory
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let content: Content
    /// The message after "freedom-keys: error: ", given the path of the mnemonic file.
    let message: @Sendable (String) -> String
    var testDescription: String { name }

    init(_ name: String, _ content: Content, _ message: @escaping @Sendable (String) -> String) {
      self.name = name
      self.content = content
      self.message = message
    }

    init(_ name: String, _ text: String, _ message: String) {
      self.init(name, .bytes(Data(text.utf8)), { _ in message })
    }
  }

  static let cases: [Case] = [
    Case("empty", "", "the phrase is empty: enter its \(counts) words"),
    Case("whitespace only", " \t\r\n \u{3000}\n", "the phrase is empty: enter its \(counts) words"),
    Case(
      "11 words", words.dropLast().joined(separator: " "),
      "found 11 words, but a BIP-39 phrase has \(counts) words"),
    Case(
      "13 words", phrase + " wave",
      "found 13 words, but a BIP-39 phrase has \(counts) words"),
    Case(
      "unknown word", phrase.replacingOccurrences(of: "wave", with: "wabe"),
      "word 5 ('wabe') is not in the english wordlist — did you mean 'wage', 'wave' or 'wait'?"),
    Case(
      "bad checksum", words.dropLast().joined(separator: " ") + " year",
      "the checksum of these 12 english words does not match: one or more words are wrong or "
        + "out of order (changing only the last word would fix it; 128 of the 2048 words are "
        + "valid as word 12)"),
    Case(
      "mixed languages", words.dropLast().joined(separator: " ") + " あいこくしん",
      "the words come from different wordlists: words 1–11 are english, word 12 is japanese; "
        + "a phrase uses one wordlist"),
    Case(
      "invalid UTF-8", .bytes(Data("legal winner ".utf8) + Data([0xFF]) + Data(" thank".utf8)),
      { "mnemonic file '\($0)' is not valid UTF-8 (byte 14)" }),
    Case(
      "NUL byte", .bytes(Data("legal winner".utf8) + Data([0]) + Data(phrase.utf8.dropFirst(12))),
      { "mnemonic file '\($0)' contains a control character (U+0000) at byte 13" }),
    Case(
      "10 MB file",
      .bytes(Data((phrase + "\n").utf8) + Data(repeating: 0x0A, count: 10_000_000)),
      { "mnemonic file '\($0)' is larger than 64 KiB; it should hold only the secret" }),
    Case(
      "missing file", .missing, { "cannot read mnemonic file '\($0)': No such file or directory" }),
    Case("directory", .directory, { "mnemonic file '\($0)' is a directory, not a file" }),
    Case(
      "comma-separated list", words.joined(separator: ","),
      "word 1 contains ',' (U+002C COMMA), but no wordlist has punctuation: separate the words "
        + "with spaces only"),
    Case(
      "comma and space", words.joined(separator: ", "),
      "word 1 contains ',' (U+002C COMMA), but no wordlist has punctuation: separate the words "
        + "with spaces only"),
    Case(
      "zero-width space in a word", phrase.replacingOccurrences(of: "thank", with: "th\u{200B}ank"),
      "word 3 contains an invisible character (U+200B ZERO WIDTH SPACE) that no wordlist has: "
        + "delete it or retype the word"),
    Case(
      "numbered list", words.enumerated().map { "\($0 + 1). \($1)" }.joined(separator: "\n"),
      "word 1 contains '1' (U+0031), but no wordlist has digits: write only the words, without "
        + "numbering"),
  ]

  /// The commands that read a mnemonic; `OUT` stands for a directory the exports must not create.
  static let commands: [[String]] = [
    ["derive"], ["derive", "--json"], ["mnemonic", "check"],
    ["export", "bee", "--data-dir", "OUT"], ["export", "kubo", "--key-file", "OUT/key"],
    ["export", "ant", "--data-dir", "OUT"], ["export", "radicle", "--home", "OUT"],
  ]

  @Test(arguments: cases, commands)
  func rejected(_ bad: Case, command: [String]) throws {
    let dir = try TemporaryDirectory()
    let path: String
    switch bad.content {
    case .bytes(let data): path = try dir.file("words.txt", data)
    case .missing: path = dir.url.appendingPathComponent("words.txt").path
    case .directory: path = dir.url.path
    }
    let out = dir.url.appendingPathComponent("out").path
    let arguments = command.map { $0.replacingOccurrences(of: "OUT", with: out) }
    let run = try CLI.run(arguments + ["--mnemonic-file", path])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    let repair = command == ["mnemonic", "check"] ? MnemonicCheckTests.repair(bad.name, path) : ""
    #expect(run.stderr == "freedom-keys: error: \(bad.message(path))\(repair)\n")
    Self.expectNoEcho(of: Self.phrase, in: run.stderr)
    #expect(!FileManager.default.fileExists(atPath: out), "an export wrote \(out)")
  }

  /// The same phrases on standard input give the same diagnosis.
  @Test(
    arguments: cases.filter {
      if case .bytes(let data) = $0.content { data.count < 65_536 } else { false }
    })
  func rejectedOnStandardInput(_ bad: Case) throws {
    guard case .bytes(let data) = bad.content else { return }
    let run = try CLI.run(["mnemonic", "check", "--mnemonic-file", "-"], stdinBytes: data)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    let expected = bad.message("-").replacingOccurrences(
      of: "mnemonic file '-'", with: "mnemonic on standard input")
    #expect(
      run.stderr == "freedom-keys: error: \(expected)\(MnemonicCheckTests.repair(bad.name))\n")
  }

  /// The checker itself: an echo of three words in a row is caught, single words are not.
  @Test func echoCheckerCatchesAnEcho() {
    #expect(Self.echoedRun(of: Self.phrase, in: "error: 'thank year wave' is wrong") == [2, 3, 4])
    #expect(Self.echoedRun(of: Self.phrase, in: "error: THANK,\nyear  wave") == [2, 3, 4])
    #expect(Self.echoedRun(of: Self.phrase, in: "word 5 ('wave') — did you mean 'year'?") == nil)
  }

  /// Fails if three consecutive words of `phrase` appear in a row in `text` (ignoring case,
  /// punctuation and spacing).
  static func expectNoEcho(
    of phrase: String, in text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let run = echoedRun(of: phrase, in: text)
    #expect(
      run == nil, "words \(run ?? []) of the phrase were echoed", sourceLocation: sourceLocation)
  }

  /// The 0-based positions of the first three consecutive phrase words found in `text`.
  static func echoedRun(of phrase: String, in text: String) -> [Int]? {
    func tokens(_ text: String) -> [String] {
      text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
    }
    let words = tokens(phrase)
    let printed = tokens(text)
    guard words.count >= 3, printed.count >= 3 else { return nil }
    for start in 0...(words.count - 3) {
      let window = Array(words[start..<(start + 3)])
      for offset in 0...(printed.count - 3) where Array(printed[offset..<(offset + 3)]) == window {
        return [start, start + 1, start + 2]
      }
    }
    return nil
  }
}

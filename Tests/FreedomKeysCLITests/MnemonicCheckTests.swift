import Foundation
import TestSupport
import Testing

/// `mnemonic check`: the verdict on valid phrases, abbreviations, suggestions, --json, the hidden
/// prompt and the shared-file warning.
@Suite("mnemonic check")
struct MnemonicCheckTests {
  static let phrase = BadInputTests.phrase
  /// BIP-39's Japanese test vector for entropy 0x00…00 (12 words), as published with U+3000.
  static let japanese =
    "あいこくしん　あいこくしん　あいこくしん　あいこくしん　あいこくしん　あいこくしん　あいこくしん　あいこくしん　あいこくしん　あいこくしん　あいこくしん　あおぞら"

  /// The end of `check`'s error line: the recover command for the damage, if one applies.
  static func repairSuffix(_ options: String, file: String = "FILE") -> String {
    "; to repair it: freedom-keys recover --mnemonic-file \(file)\(options) --bee-dir DIR (or "
      + "another target: --address, --peer-id, --kubo-repo, --radicle-home, --ant-dir, "
      + "--freedom-dir)"
  }

  /// The suffix for the bad-input cases of `BadInputTests` by name: each is within the
  /// automatic phases' reach, so plain recover is the search.
  static func repair(_ name: String, _ file: String = "FILE") -> String {
    switch name {
    case "11 words", "unknown word", "bad checksum": repairSuffix("", file: file)
    default: ""
    }
  }

  func check(_ stdin: String, _ options: [String] = []) throws -> CLIRun {
    try CLI.run(["mnemonic", "check", "--mnemonic-file", "-"] + options, stdin: stdin)
  }

  @Test func validPhrase() throws {
    let run = try check(Self.phrase + "\n")
    #expect(run.status == 0)
    #expect(run.stdout == "valid — 12 words, english\n")
    #expect(run.stderr == "")
  }

  @Test(arguments: [
    (SecretInputTests.mnemonic, "valid — 12 words, english\n"),
    (
      Array(repeating: "abandon", count: 23).joined(separator: " ") + " art",
      "valid — 24 words, english\n"
    ),
    (japanese, "valid — 12 words, japanese\n"),
    // Japanese written with ASCII spaces, and with CR LF line endings (a stray CR is whitespace).
    (japanese.replacingOccurrences(of: "\u{3000}", with: " "), "valid — 12 words, japanese\n"),
    (phrase.replacingOccurrences(of: " ", with: "\r\n") + "\r\n", "valid — 12 words, english\n"),
    // Upper case and a byte order mark.
    ("\u{FEFF}" + phrase.uppercased(), "valid — 12 words, english\n"),
  ])
  func validPhrases(phrase: String, verdict: String) throws {
    let run = try check(phrase)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == verdict)
  }

  @Test func abbreviationsAreNamedByPosition() throws {
    let run = try check("lega winner than year wave sausage worth usef legal winner thank yell")
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        valid — 12 words, english
        words 1, 3, 8, 12 are abbreviated; read as the English words they begin

        """)
    #expect(run.stderr == "")
  }

  @Test func abbreviationsInJSON() throws {
    let run = try check(
      "legal winner thank year wave sausage worth useful legal winner thank yell", ["--json"])
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        {
          "valid": true,
          "language": "english",
          "words": 12,
          "expandedAbbreviations": [
            12
          ]
        }

        """)
    #expect(run.stderr == "")
  }

  @Test func validJSON() throws {
    let run = try check(Self.japanese, ["--json"])
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        {
          "valid": true,
          "language": "japanese",
          "words": 12,
          "expandedAbbreviations": []
        }

        """)
  }

  /// An invalid phrase is a verdict on stdout (parseable), the error on stderr, exit status 1.
  @Test func invalidJSON() throws {
    let run = try check(Self.phrase.replacingOccurrences(of: "yellow", with: "yelow"), ["--json"])
    let message =
      "word 12 ('yelow') is not in the english wordlist — did you mean 'yellow', 'below' or 'allow'?"
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        {
          "valid": false,
          "language": "english",
          "words": 12,
          "expandedAbbreviations": [],
          "error": "\(message)",
          "recover": "\(Self.repairSuffix("").dropFirst("; to repair it: ".count))"
        }

        """)
    let repair = message.contains("; to repair it: ") ? "" : Self.repairSuffix("")
    #expect(run.stderr == "freedom-keys: error: \(message)\(repair)\n")
    BadInputTests.expectNoEcho(of: Self.phrase, in: run.stdout + run.stderr)
  }

  @Test func wrongCountJSONHasNoLanguage() throws {
    let run = try check("legal winner thank", ["--json"])
    #expect(run.status == 1)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(json["valid"] as? Bool == false)
    #expect(json["language"] == nil)
    #expect(json["words"] as? Int == 3)
    #expect(
      json["error"] as? String
        == "found 3 words, but a BIP-39 phrase has 12, 15, 18, 21 or 24 words")
  }

  /// Suggestions come from the detected language, and a unique prefix ranks first.
  @Test(arguments: [
    (
      "legal winner thank year wave sausage worth usefull legal winner thank yellow",
      "word 8 ('usefull') is not in the english wordlist — did you mean 'useful'?"
    ),
    (
      "legal winner thank year wave sausage worth useful legal winner thank yelo",
      "word 12 ('yelo') is not in the english wordlist — did you mean 'yellow', 'year' or 'below'?"
    ),
    (
      "legal winner thank year wave sausage worth useful legal winner thank qqqqqq",
      // recover places 'qqqqqq' nowhere, so the command it suggests first writes ? for it.
      "word 12 ('qqqqqq') is not in the english wordlist; to repair it: write ? for word 12 in "
        + "FILE (no word is within two letters of it), then run"
        + Self.repairSuffix("").dropFirst("; to repair it:".count)
    ),
    // A transposition is one edit.
    (
      "legal winner thank year wave sausage wroth useful legal winner thank yellow",
      "word 7 ('wroth') is not in the english wordlist — did you mean 'worth', 'wrong' or 'write'?"
    ),
  ])
  func suggestions(phrase: String, message: String) throws {
    let run = try check(phrase)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    let repair = message.contains("; to repair it: ") ? "" : Self.repairSuffix("")
    #expect(run.stderr == "freedom-keys: error: \(message)\(repair)\n")
  }

  @Test func forcedLanguage() throws {
    let run = try check(Self.phrase, ["--language", "japanese"])
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "freedom-keys: error: word 1 ('legal') is not in the japanese wordlist but in the english wordlist\n"
    )
    let json = try check(Self.phrase, ["--language", "japanese", "--json"])
    #expect(json.stdout.contains("\"language\": \"japanese\""))
  }

  @Test func typoThatIsAnotherWordIsAChecksumMismatch() throws {
    // "wave" → "wine": both are English words, so only the checksum can notice. (With 4
    // checksum bits, 1 in 16 such slips passes unnoticed: "wage" or "wife" would.)
    let run = try check(Self.phrase.replacingOccurrences(of: "wave", with: "wine"))
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "freedom-keys: error: the checksum of these 12 english words does not match: one or "
        + "more words are wrong or out of order (changing only the last word would fix it; 128 "
        + "of the 2048 words are valid as word 12)\(Self.repairSuffix(""))\n")
  }

  @Test func wordsOnTheCommandLineAreRefused() throws {
    let run = try CLI.run(["mnemonic", "check"] + BadInputTests.words)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: the mnemonic is never accepted on the command line (it would land in "
        + "shell history and `ps`): put it in a file and pass --mnemonic-file PATH, or pipe it with "
        + "--mnemonic-file - (see 'freedom-keys mnemonic check --help')\n")
    BadInputTests.expectNoEcho(of: BadInputTests.phrase, in: run.stderr)
  }

  @Test func passphraseIsNotAnOption() throws {
    let run = try CLI.run(["mnemonic", "check", "--passphrase-file", "x"])
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "freedom-keys: error: unknown option '--passphrase-file' (see 'freedom-keys mnemonic check --help')\n"
    )
  }

  @Test func noTerminalNoFile() throws {
    let run = try CLI.run(["mnemonic", "check"])
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "freedom-keys: error: standard input is not a terminal, so the mnemonic cannot be asked "
        + "for: pass --mnemonic-file PATH, or pipe it with --mnemonic-file - (see 'freedom-keys "
        + "mnemonic check --help')\n")
  }

  @Test func sharedFileWarns() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words", Self.phrase, mode: 0o640)
    let run = try CLI.run(["mnemonic", "check", "--mnemonic-file", path])
    #expect(run.status == 0)
    #expect(run.stdout == "valid — 12 words, english\n")
    #expect(
      run.stderr
        == "freedom-keys: warning: \(path) is readable by other users (mode 0640); run chmod 600 \(path)\n"
    )
  }

  @Test func typedAtTheHiddenPrompt() throws {
    let terminal = try PromptTests.PseudoTerminal()
    let session = try PromptTests.Session(["mnemonic", "check"], terminal: terminal)
    #expect(session.waitForStandardError(containing: PromptTests.prompt) == PromptTests.prompt)
    #expect(!terminal.echoes)
    terminal.type(Self.phrase + "\n")
    let (stdout, stderr) = session.finish()
    #expect(session.process.terminationStatus == 0)
    #expect(stdout == "valid — 12 words, english\n")
    #expect(stderr == "\n")
    #expect(terminal.echoes)
    #expect(terminal.displayed() == "")
  }

  @Test func invalidAtTheHiddenPrompt() throws {
    let terminal = try PromptTests.PseudoTerminal()
    let session = try PromptTests.Session(["mnemonic", "check"], terminal: terminal)
    _ = session.waitForStandardError(containing: PromptTests.prompt)
    terminal.type(Self.phrase.replacingOccurrences(of: "legal", with: "legl") + "\n")
    let (stdout, stderr) = session.finish()
    #expect(session.process.terminationStatus == 1)
    #expect(stdout == "")
    #expect(
      stderr
        == "\nfreedom-keys: error: word 1 ('legl') is not in the english wordlist — did you mean 'leg', 'legal' or 'leaf'?\(Self.repairSuffix(""))\n"
    )
    #expect(terminal.displayed() == "")
  }

  @Test(arguments: [
    ["mnemonic", "--help"], ["mnemonic", "check", "-h"], ["mnemonic", "generate", "--help"],
  ])
  func helpFitsEightyColumns(arguments: [String]) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("OVERVIEW: "))
    for line in run.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
  }

  @Test func groupWithoutSubcommandShowsItsHelp() throws {
    let run = try CLI.run(["mnemonic"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    // The list goes to stderr with the error: a group needs a subcommand.
    #expect(
      run.stderr == """
        OVERVIEW: Generate a new mnemonic or check one before using it.

        USAGE: freedom-keys mnemonic <subcommand>

        OPTIONS:
          -h, --help  Show help information.

        SUBCOMMANDS:
          generate    Create a new mnemonic from secure random entropy.
          check       Check a mnemonic's words, count and checksum.

          See 'freedom-keys mnemonic <subcommand> --help' for detailed help.

        freedom-keys: error: missing subcommand (see 'freedom-keys mnemonic --help')

        """)
  }

  /// The damaged phrases of recover's syntax, misspelt beyond recover's reach, misspelt within
  /// it, two close wrong words (a checksum mismatch no single typo or swap explains: the fixed
  /// `--typos 1 --swaps` once suggested searched 295k candidates in vain), a word left out, and
  /// what `check` must say of each.
  @Test(arguments: [
    (
      [11: "?"],
      "word 11 is written as recover writes a damaged word (? for a word that cannot be read"
    ),
    (
      [3: "th*"],
      "word 3 is written as recover writes a damaged word (? for a word that cannot be read"
    ),
    ([12: "kwolutee"], "word 12 ('kwolutee') is not in the english wordlist"),
    ([12: "yelow"], "word 12 ('yelow') is not in the english wordlist"),
    ([5: "wage", 7: "north"], "the checksum of these 12 english words does not match"),
    ([4: ""], "found 11 words, but a BIP-39 phrase has 12"),
  ])
  func suggestedRecoverCommandRuns(damage: [Int: String], message: String) throws {
    let directory = try TemporaryDirectory()
    let truth = Self.phrase.split(separator: " ").map(String.init)
    let words = try directory.file("words.txt", truth.joined(separator: " ") + "\n")
    let bee = directory.url.appendingPathComponent("bee").path
    #expect(
      try CLI.run(["export", "bee", "--data-dir", bee, "--mnemonic-file", words]).status == 0)
    var damaged = truth
    for (position, written) in damage { damaged[position - 1] = written }
    damaged.removeAll { $0.isEmpty }
    try damaged.joined(separator: " ").write(toFile: words, atomically: false, encoding: .utf8)
    let position = damage.keys.min() ?? 0

    let check = try CLI.run(["mnemonic", "check", "--mnemonic-file", words])
    #expect(check.status == 1)
    #expect(check.stderr.hasPrefix("freedom-keys: error: \(message)"), "\(check.stderr)")
    #expect(check.stderr.split(separator: "\n").count == 1)
    var repair = try #require(
      check.stderr.components(separatedBy: "; to repair it: ").dropFirst().first)
    // A word recover can place nowhere is to be written as ? first, as the line says.
    let edit =
      "write ? for word \(position) in \(words) (no word is within two letters of it), then run "
    if repair.hasPrefix(edit) {
      repair.removeFirst(edit.count)
      damaged[position - 1] = "?"
      try damaged.joined(separator: " ").write(toFile: words, atomically: false, encoding: .utf8)
    }
    let command = try #require(repair.components(separatedBy: " --bee-dir DIR (or another").first)
    let arguments = command.split(separator: " ").map(String.init)
    #expect(arguments.first == "freedom-keys")
    let run = try CLI.run(Array(arguments.dropFirst()) + ["--bee-dir", bee, "--threads", "2"])
    #expect(run.status == 0, "\(command): \(run.stderr)")
    #expect(run.stdout.contains("matched swarm.address\n"))
  }
}

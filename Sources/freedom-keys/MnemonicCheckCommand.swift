import CryptoPrimitives
import FoundationEssentials
import VaultKeys

/// `freedom-keys mnemonic check`: whether a mnemonic is valid, and if not, which word or count
/// is wrong — without ever printing the phrase.
struct MnemonicCheckCommand: ParsableCommand {
  static let json = Option.flag("json", help: "Print the verdict as JSON.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "check",
      abstract: "Check a mnemonic's words, count and checksum.",
      discussion: MnemonicOptions.discussion + "\n" + """
        Prints "valid — 24 words, english" and exits 0, or names what is wrong (a word
        in no wordlist with the nearest words, the word count, the checksum, mixed
        wordlists) and exits 1, ending with the 'freedom-keys recover' command that
        finds the right words when a misspelt or missing word or a wrong checksum
        is the problem. The phrase itself is never printed. --json prints {"valid",
        "language", "words", "expandedAbbreviations", "error", "recover"};
        "language" is left out when it is unknown, "error" when the phrase is
        valid, "recover" when no recover command applies.
        """,
      options: MnemonicOptions.phraseOnly + [json])
  }

  let input: MnemonicOptions
  let printsJSON: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    printsJSON = arguments.flag(Self.json)
  }

  func run() throws {
    let phrase = try input.readPhrase()
    let verdict: Verdict
    do {
      let mnemonic = try Mnemonic(phrase: phrase, language: input.language)
      verdict = Verdict(
        language: mnemonic.language, words: mnemonic.wordCount,
        expandedAbbreviations: mnemonic.expandedAbbreviations, error: nil)
    } catch {
      verdict = Verdict(
        language: input.language ?? error.language, words: Mnemonic.wordCount(of: phrase) ?? 0,
        expandedAbbreviations: [], error: error)
    }

    let repair = verdict.error.flatMap { recoverCommand(for: $0) }
    if printsJSON {
      var json = verdict.json
      if let repair { json.append("recover", .string(repair)) }
      Output.standardOutput(JSONValue.object(json).rendered() + "\n")
    } else if verdict.error == nil {
      Output.standardOutput(verdict.text)
    }
    if let error = verdict.error {
      throw CLIError.failure(error.description + (repair.map { "; to repair it: " + $0 } ?? ""))
    }
  }

  /// The `recover` command that searches for the fix of `error`, when one applies: a misspelt
  /// word is searched as it is, a short phrase with --missing, a checksum mismatch with one
  /// wrong or two exchanged words.
  func recoverCommand(for error: MnemonicError) -> String? {
    let options: String
    switch error {
    case .unknownWord:
      options = ""
    case .invalidWordCount(let count):
      // One word short of any count, or two of the 12 and 24 words Freedom creates; a phrase
      // with words too many is not a damage recover searches.
      guard let target = Mnemonic.validWordCounts.first(where: { $0 >= count }),
        target - count == 1 || (target - count == 2 && (target == 12 || target == 24))
      else { return nil }
      options = " --missing \(target - count)"
    case .checksumMismatch:
      options = " --typos 1 --swaps"
    default:
      return nil
    }
    let file = input.mnemonicPath.flatMap { $0 == "-" ? nil : $0 } ?? "FILE"
    let language = input.language.map { " --language \($0.rawValue)" } ?? ""
    return "freedom-keys recover --mnemonic-file \(Self.shellWord(file))\(language)\(options) "
      + "--bee-dir DIR (or another target: --address, --peer-id, --kubo-repo, --radicle-home, "
      + "--ant-dir, --freedom-dir)"
  }

  /// `path` as one shell word: quoted when it holds anything but safe characters.
  private static func shellWord(_ path: String) -> String {
    let safe = path.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
      default: "/._-+,:@%".utf8.contains(byte)
      }
    }
    guard !safe else { return path }
    let escaped = path.split(separator: "'", omittingEmptySubsequences: false)
    return "'" + escaped.joined(separator: "'\\''") + "'"
  }

  /// What `check` found.
  struct Verdict {
    let language: Wordlist.Language?
    let words: Int
    let expandedAbbreviations: [Int]
    let error: MnemonicError?

    var json: JSONObject {
      var object: JSONObject = ["valid": .bool(error == nil)]
      if let language { object.append("language", .string(language.rawValue)) }
      object.append("words", .number(UInt64(words)))
      object.append(
        "expandedAbbreviations", .array(expandedAbbreviations.map { .number(UInt64($0)) }))
      if let error { object.append("error", .string(error.description)) }
      return object
    }

    /// "valid — 24 words, english", and which words were abbreviations.
    var text: String {
      var text = "valid — \(words) words, \(language?.rawValue ?? "")\n"
      if !expandedAbbreviations.isEmpty {
        text += MnemonicOptions.abbreviationNote(expandedAbbreviations) + "\n"
      }
      return text
    }
  }
}

extension MnemonicError {
  /// The wordlist the diagnosis is about, where it names one.
  fileprivate var language: Wordlist.Language? {
    switch self {
    case .unknownWord(_, _, let language, _), .wordNotInLanguage(_, _, let language, _),
      .checksumMismatch(let language, _):
      language
    default: nil
    }
  }
}

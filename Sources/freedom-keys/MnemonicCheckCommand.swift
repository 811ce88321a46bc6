import CryptoPrimitives
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
        wordlists) and exits 1. The phrase itself is never printed. --json prints
        {"valid", "language", "words", "expandedAbbreviations", "error"}; "language" is
        left out when it is unknown, "error" when the phrase is valid.
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

    if printsJSON {
      Output.standardOutput(JSONValue.object(verdict.json).rendered() + "\n")
    } else if verdict.error == nil {
      Output.standardOutput(verdict.text)
    }
    if let error = verdict.error { throw CLIError.failure(error.description) }
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

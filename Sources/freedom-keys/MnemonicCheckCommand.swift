import CommandLineKit
import CryptoPrimitives
import FoundationEssentials
import PhraseRecovery
import VaultKeys

/// `freedom-keys mnemonic check`: whether a mnemonic is valid, and if not, which word or count
/// is wrong — without ever printing the phrase.
struct MnemonicCheckCommand: ParsableCommand {
  static let json = SharedOptions.json(help: "Print the verdict as JSON.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "check",
      abstract: "Check a mnemonic's words, count and checksum.",
      discussion: MnemonicOptions.discussion + "\n" + """
        Prints "valid — 24 words, english" and exits 0, or names what is wrong (a word
        in no wordlist with the nearest words, the word count, the checksum, mixed
        wordlists) and exits 1, ending with the 'freedom-keys recover' command that
        finds the right words when a misspelt or missing word, a wrong checksum or
        recover's own syntax (? and ab*) is the problem; a word recover cannot place
        is to be written as ? first, as the line says. The phrase itself is never
        printed. --json prints {"valid",
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

    let diagnosis = verdict.error.map { diagnose($0, phrase: phrase) }
    let repair = diagnosis?.repair
    if printsJSON {
      var json = verdict.json(error: diagnosis?.message)
      if let repair { json.append("recover", .string(repair)) }
      Output.standardOutput(JSONValue.object(json).rendered() + "\n")
    } else if verdict.error == nil {
      Output.standardOutput(verdict.text)
    }
    if let diagnosis {
      throw CLIError.failure(
        diagnosis.message + (repair.map { "; to repair it: " + $0 } ?? ""))
    }
  }

  /// What to say of `error`, and the `recover` command that searches for the fix when one
  /// applies: a misspelt word is searched as it is, a short phrase with --missing, a checksum
  /// mismatch with one wrong or two exchanged words, a phrase in recover's own syntax (`?`,
  /// `ab*`) as it is. A command is suggested only if recover accepts the phrase with it; a word
  /// recover can place nowhere is to be written as `?` first.
  func diagnose(_ error: MnemonicError, phrase: SecureBytes) -> (message: String, repair: String?) {
    var message = error.description
    var missing = 0
    var damage = ""
    let damaged = try? DamagedPhrase(
      phrase: phrase, language: input.language, unplaceableAsUnknown: true)
    switch error {
    case .unknownWord:
      break
    case .invalidWordCount(let count):
      guard let words = Self.missingWords(count) else { return (message, nil) }
      missing = words
    case .checksumMismatch:
      damage = " --typos 1 --swaps"
    case .unexpectedCharacter(let position, _):
      guard let damaged, damaged.words.contains(where: Self.isRecoverSyntax) else {
        return (message, nil)
      }
      message =
        "word \(position) is written as recover writes a damaged word (? for a word that "
        + "cannot be read, ab* for a word known by its beginning), which mnemonic check does "
        + "not read"
      if !Mnemonic.validWordCounts.contains(damaged.words.count) {
        guard let words = Self.missingWords(damaged.words.count) else { return (message, nil) }
        missing = words
      }
    default:
      return (message, nil)
    }
    guard let damaged,
      (try? RecoverySearch(
        phrase: damaged, missingWords: missing, allowsSwap: !damage.isEmpty,
        typos: damage.isEmpty ? 0 : 1)) != nil
    else { return (message, nil) }
    let file = input.mnemonicPath.flatMap { $0 == "-" ? nil : $0 } ?? "FILE"
    let language = input.language.map { " --language \($0.rawValue)" } ?? ""
    let options = (missing > 0 ? " --missing \(missing)" : "") + damage
    var command =
      "freedom-keys recover --mnemonic-file \(NodeText.shellQuoted(file))\(language)\(options) "
      + "--bee-dir DIR (or another target: --address, --peer-id, --kubo-repo, --radicle-home, "
      + "--ant-dir, --freedom-dir)"
    if !damaged.unplaceable.isEmpty {
      let positions = damaged.unplaceable.map(String.init)
      let which =
        positions.count == 1
        ? "word \(positions[0])"
        : "words \(positions.dropLast().joined(separator: ", ")) and \(positions.last!)"
      command =
        "write ? for \(which) in \(NodeText.shellQuoted(file)) (no word is within two letters of "
        + "\(positions.count == 1 ? "it" : "them")), then run \(command)"
    }
    return (message, command)
  }

  /// Whether a word was written as `?` or `ab*`.
  private static func isRecoverSyntax(_ word: DamagedPhrase.Word) -> Bool {
    switch word {
    case .unknown, .prefix, .pattern, .alternatives: true
    case .known, .misspelt: false
    }
  }

  /// The words to give as --missing for a phrase of `count` words: one short of any count, or
  /// two of the 12 and 24 words Freedom creates; a phrase with words too many is not a damage
  /// recover searches.
  private static func missingWords(_ count: Int) -> Int? {
    guard let target = Mnemonic.validWordCounts.first(where: { $0 >= count }),
      target - count == 1 || (target - count == 2 && (target == 12 || target == 24))
    else { return nil }
    return target - count
  }

  /// What `check` found.
  struct Verdict {
    let language: Wordlist.Language?
    let words: Int
    let expandedAbbreviations: [Int]
    let error: MnemonicError?

    /// The verdict with `error` as the diagnosis's wording.
    func json(error message: String?) -> JSONObject {
      var object: JSONObject = ["valid": .bool(error == nil)]
      if let language { object.append("language", .string(language.rawValue)) }
      object.append("words", .number(UInt64(words)))
      object.append(
        "expandedAbbreviations", .array(expandedAbbreviations.map { .number(UInt64($0)) }))
      if let message { object.append("error", .string(message)) }
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

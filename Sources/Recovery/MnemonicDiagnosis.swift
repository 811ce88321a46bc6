import CryptoPrimitives
import VaultKeys

/// Whether a phrase is a valid mnemonic and, if not, what is wrong with it and which search
/// finds the right words: a misspelt word is searched as it is, a short phrase with the words
/// missing, a checksum mismatch with one wrong or two exchanged words, a phrase written in the
/// damaged-phrase syntax (`?`, `ab*`) as it is. A repair is offered only if `RecoverySearch`
/// accepts the phrase with it, and is the automatic phases (`RecoveryPhase.plan`) wherever they
/// reach it: they also try what a fixed damage model would miss (two close wrong words behind
/// a checksum mismatch). The phrase itself is never part of what it says.
package struct MnemonicDiagnosis: Sendable {
  /// The wordlist, where the phrase or the caller names one.
  package let language: Wordlist.Language?
  /// The number of words.
  package let wordCount: Int
  /// The 1-based positions of words written as abbreviations and read as the words they begin.
  package let expandedAbbreviations: [Int]
  /// Why the phrase is not a valid mnemonic; nil when it is one.
  package let error: MnemonicError?
  /// The 1-based position of a word written in the damaged-phrase syntax (`?` for a word that
  /// cannot be read, `ab*` for a word known by its beginning), when that is why it was refused.
  package let damagedSyntaxPosition: Int?
  /// The search that repairs the phrase; nil when none applies.
  package let repair: Repair?

  /// A search for the right words.
  package struct Repair: Sendable, Equatable {
    /// Words missing from the phrase.
    package let missingWords: Int
    /// Wrong words allowed (one for a checksum mismatch).
    package let typos: Int
    /// Whether two exchanged words are tried.
    package let allowsSwap: Bool
    /// The 1-based positions of words no word is within two letters of: to be written as `?`
    /// before the search can place them.
    package let unplaceable: [Int]
    /// Whether the automatic phases (a search given no damage model) reach this damage: then
    /// they are the search to run, likeliest damage first, and the counts above only describe
    /// what was seen.
    package let automatic: Bool

    /// "word 3" or "words 3, 7 and 9": the unplaceable words, nil when there are none.
    package var unplaceableWords: String? {
      guard let last = unplaceable.last else { return nil }
      let positions = unplaceable.dropLast().map(String.init)
      return positions.isEmpty
        ? "word \(last)" : "words \(positions.joined(separator: ", ")) and \(last)"
    }
  }

  /// The diagnosis of `phrase`, read in `language` when one is given.
  package init(phrase: SecureBytes, language: Wordlist.Language?) {
    do {
      let mnemonic = try Mnemonic(phrase: phrase, language: language)
      self.language = mnemonic.language
      wordCount = mnemonic.wordCount
      expandedAbbreviations = mnemonic.expandedAbbreviations
      (error, damagedSyntaxPosition, repair) = (nil, nil, nil)
    } catch {
      self.language = language ?? error.language
      wordCount = Mnemonic.wordCount(of: phrase) ?? 0
      expandedAbbreviations = []
      self.error = error
      let damaged = try? DamagedPhrase(
        phrase: phrase, language: language, unplaceableAsUnknown: true)
      (damagedSyntaxPosition, repair) = Self.repair(error, damaged)
    }
  }

  /// The search for `error`'s fix, and the damaged-syntax word `error` stands for.
  private static func repair(_ error: MnemonicError, _ damaged: DamagedPhrase?) -> (Int?, Repair?) {
    var missing = 0
    var checksum = false
    var position: Int?
    switch error {
    case .unknownWord:
      break
    case .invalidWordCount(let count):
      guard let words = missingWords(count) else { return (nil, nil) }
      missing = words
    case .checksumMismatch:
      checksum = true
    case .unexpectedCharacter(let at, _):
      guard let damaged, damaged.words.contains(where: isDamagedSyntax) else { return (nil, nil) }
      position = at
      if !Mnemonic.validWordCounts.contains(damaged.words.count) {
        guard let words = missingWords(damaged.words.count) else { return (position, nil) }
        missing = words
      }
    default:
      return (nil, nil)
    }
    let typos = checksum ? 1 : 0
    guard let damaged,
      (try? RecoverySearch(
        phrase: damaged, missingWords: missing, allowsSwap: checksum, typos: typos)) != nil
    else { return (position, nil) }
    // The phases of as many missing words try this damage and more (a swap, close and wrong
    // words, a missing word with a wrong one); two missing words are not among them.
    let automatic = RecoveryPhase.plan(for: damaged).contains {
      $0.phase.missingWords == missing && $0.phase.extraWords == 0
    }
    return (
      position,
      Repair(
        missingWords: missing, typos: typos, allowsSwap: checksum,
        unplaceable: damaged.unplaceable, automatic: automatic)
    )
  }

  /// Whether a word was written as `?` or `ab*`.
  private static func isDamagedSyntax(_ word: DamagedPhrase.Word) -> Bool {
    switch word {
    case .unknown, .prefix, .pattern, .alternatives: true
    case .known, .misspelt: false
    }
  }

  /// The words missing from a phrase of `count` words: one short of any count, or two of the 12
  /// and 24 words Freedom creates; a phrase with words too many is not a damage searched for.
  static func missingWords(_ count: Int) -> Int? {
    guard let target = Mnemonic.validWordCounts.first(where: { $0 >= count }),
      target - count == 1 || (target - count == 2 && (target == 12 || target == 24))
    else { return nil }
    return target - count
  }

  /// `{"valid", "language", "words", "expandedAbbreviations", "error"}`, the error worded as
  /// `message` (left out when nil); "language" is left out when it is unknown.
  package func json(error message: String?) -> JSONObject {
    var object: JSONObject = ["valid": .bool(error == nil)]
    if let language { object.append("language", .string(language.rawValue)) }
    object.append("words", .number(UInt64(wordCount)))
    object.append(
      "expandedAbbreviations", .array(expandedAbbreviations.map { .number(UInt64($0)) }))
    if let message { object.append("error", .string(message)) }
    return object
  }
}

extension MnemonicError {
  /// The wordlist the error is about, where it names one.
  fileprivate var language: Wordlist.Language? {
    switch self {
    case .unknownWord(_, _, let language, _), .wordNotInLanguage(_, _, let language, _),
      .checksumMismatch(let language, _):
      language
    default: nil
    }
  }
}

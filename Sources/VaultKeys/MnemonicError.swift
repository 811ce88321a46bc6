/// Why a phrase or entropy is not a BIP-39 mnemonic. Messages quote at most the one word at
/// fault, never the phrase.
public enum MnemonicError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The input holds no words.
  case empty
  /// The phrase bytes are not valid UTF-8.
  case invalidUTF8
  /// The phrase has this many words, not 12, 15, 18, 21 or 24 (also an invalid count asked of
  /// `generate`).
  case invalidWordCount(Int)
  /// The entropy has this many bytes, not 16, 20, 24, 28 or 32.
  case invalidEntropyLength(Int)
  /// The word at a 1-based position holds a character no wordlist has — a digit, punctuation or
  /// an invisible character such as U+200B — so it was typed or pasted by mistake.
  case unexpectedCharacter(position: Int, codePoint: UInt32)
  /// The word at a 1-based position is in no wordlist; `suggestions` are the nearest words of
  /// `language` (the forced language, or the one most other words belong to).
  case unknownWord(position: Int, word: String, language: Wordlist.Language, suggestions: [String])
  /// The word at a 1-based position is not in the forced `language` but in the `foundIn` lists.
  case wordNotInLanguage(
    position: Int, word: String, language: Wordlist.Language, foundIn: [Wordlist.Language])
  /// Every word is in some list but no list holds them all: the 1-based positions by language.
  case mixedLanguages([Wordlist.Language: [Int]])
  /// All words are in `language` but the checksum does not verify.
  case checksumMismatch(language: Wordlist.Language, wordCount: Int)

  public var description: String {
    switch self {
    case .empty:
      "the phrase is empty: enter its \(Self.counts) words"
    case .invalidUTF8:
      "the phrase is not valid UTF-8 text"
    case .invalidWordCount(let count):
      "found \(count) \(count == 1 ? "word" : "words"), but a BIP-39 phrase has \(Self.counts) words"
    case .invalidEntropyLength(let count):
      "the entropy is \(count) bytes, but BIP-39 takes 16, 20, 24, 28 or 32 bytes"
    case .unexpectedCharacter(let position, let codePoint):
      Self.unexpectedCharacter(position: position, codePoint: codePoint)
    case .unknownWord(let position, let word, let language, let suggestions):
      "word \(position) ('\(word)') is not in the \(language.rawValue) wordlist"
        + (suggestions.isEmpty
          ? "" : " — did you mean \(Self.list(suggestions.map { "'\($0)'" }, "or"))?")
    case .wordNotInLanguage(let position, let word, let language, let foundIn):
      "word \(position) ('\(word)') is not in the \(language.rawValue) wordlist but in the "
        + "\(Self.list(foundIn.map(\.rawValue), "and")) \(foundIn.count == 1 ? "wordlist" : "wordlists")"
    case .mixedLanguages(let positions):
      "the words come from different wordlists: "
        + positions.sorted { $0.value[0] < $1.value[0] }.map { language, positions in
          "\(positions.count == 1 ? "word" : "words") \(Self.ranges(positions)) "
            + "\(positions.count == 1 ? "is" : "are") \(language.rawValue)"
        }.joined(separator: ", ") + "; a phrase uses one wordlist"
    case .checksumMismatch(let language, let wordCount):
      "the checksum of these \(wordCount) \(language.rawValue) words does not match: one or more "
        + "words are wrong or out of order (changing only the last word would fix it; "
        + "\(Mnemonic.validLastWordCount(wordCount: wordCount)) of the 2048 words are valid "
        + "as word \(wordCount))"
    }
  }

  /// Names the character (never the word around it) and says what to do about it.
  private static func unexpectedCharacter(position: Int, codePoint: UInt32) -> String {
    let digits = String(codePoint, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    guard let scalar = Unicode.Scalar(codePoint) else { return "word \(position) contains \(code)" }
    let name = scalar.properties.name.map { " " + $0 } ?? ""
    switch scalar.properties.generalCategory {
    case .decimalNumber, .letterNumber, .otherNumber:
      return "word \(position) contains '\(scalar)' (\(code)), but no wordlist has digits: "
        + "write only the words, without numbering"
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
      .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
      .modifierSymbol, .otherSymbol:
      return "word \(position) contains '\(scalar)' (\(code)\(name)), but no wordlist has "
        + "punctuation: separate the words with spaces only"
    default:
      return "word \(position) contains an invisible character (\(code)\(name)) that no "
        + "wordlist has: delete it or retype the word"
    }
  }

  private static let counts = list(Mnemonic.validWordCounts.map(String.init), "or")

  /// "a", "a or b", "a, b or c".
  private static func list(_ items: [String], _ conjunction: String) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
  }

  /// Sorted positions with runs shortened: "1–3, 5, 7–12".
  private static func ranges(_ positions: [Int]) -> String {
    var parts: [String] = []
    var start = 0
    let sorted = positions.sorted()
    while start < sorted.count {
      var end = start
      while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
      parts.append(end == start ? "\(sorted[start])" : "\(sorted[start])–\(sorted[end])")
      start = end + 1
    }
    return parts.joined(separator: ", ")
  }
}

import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Mnemonic {
  /// Parses a phrase given as UTF-8 text (see `init(phrase: String, language:)`).
  public init(phrase: SecureBytes, language: Wordlist.Language? = nil) throws(MnemonicError) {
    guard let text = phrase.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
      throw .invalidUTF8
    }
    try self.init(phrase: text, language: language)
  }

  /// Parses a phrase: words of one wordlist separated by any Unicode whitespace, compared after
  /// NFKD and lowercasing; a leading byte order mark is ignored.
  ///
  /// Without `language`, the phrase is read in the first language of `Wordlist.Language.allCases`
  /// whose list holds every word and whose checksum verifies. (Chinese simplified and
  /// traditional share 1,275 characters at the same indices, so a phrase of shared characters is
  /// read as `chineseSimplified`; the entropy and seed are the same either way.) Only if no list
  /// holds the phrase as written is it read as English with abbreviations: a word of four or more
  /// letters that starts exactly one English word stands for that word.
  public init(phrase: String, language: Wordlist.Language? = nil) throws(MnemonicError) {
    let tokens = Self.tokens(of: phrase)
    guard !tokens.isEmpty else { throw .empty }
    // Before counting: a comma or a zero-width space can join two words into one.
    if let (offset, scalar) = Self.firstNonWordCharacter(in: tokens) {
      throw .unexpectedCharacter(position: offset + 1, codePoint: scalar.value)
    }
    guard Self.validWordCounts.contains(tokens.count) else {
      throw .invalidWordCount(tokens.count)
    }
    let keys = tokens.map(Wordlist.matchingKey)
    if let language {
      self = try Self.parse(keys, tokens: tokens, in: language)
    } else {
      self = try Self.parse(keys, tokens: tokens)
    }
  }

  /// The number of words in a UTF-8 phrase as `init(phrase:language:)` splits it (nil if the
  /// bytes are not UTF-8): what a diagnosis reports when the phrase is not a mnemonic.
  public static func wordCount(of phrase: SecureBytes) -> Int? {
    phrase.withUnsafeBytes { String(validating: $0, as: UTF8.self) }.map { tokens(of: $0).count }
  }

  /// The 0-based word and the first character in it that no wordlist has: every published word
  /// is letters and combining marks only (in NFKD).
  static func firstNonWordCharacter(in tokens: [String]) -> (Int, Unicode.Scalar)? {
    for (offset, token) in tokens.enumerated() {
      let odd = token.unicodeScalars.first { scalar in
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
          .nonspacingMark, .spacingMark, .enclosingMark:
          false
        default: true
        }
      }
      if let odd { return (offset, odd) }
    }
    return nil
  }

  /// The words of `phrase` in NFKD, as typed: split on Unicode whitespace, BOM dropped.
  package static func tokens(of phrase: String) -> [String] {
    if NFKD.isASCII(phrase) {
      // ASCII is its own NFKD; its whitespace is space, tab, LF, VT, FF and CR.
      return phrase.utf8.split(whereSeparator: { $0 == 0x20 || (0x09...0x0D).contains($0) })
        .map { String(decoding: $0, as: UTF8.self) }
    }
    var scalars = Substring(phrase).unicodeScalars
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    // NFKD also turns U+3000 and other compatibility spaces into U+0020.
    let normalized = NFKD.normalize(String(scalars))
    return normalized.unicodeScalars.split(whereSeparator: \.properties.isWhitespace).map {
      String($0)
    }
  }

  /// Reads the phrase in the forced `language` (English with abbreviations).
  private static func parse(
    _ keys: [String], tokens: [String], in language: Wordlist.Language
  ) throws(MnemonicError) -> Mnemonic {
    let list = Wordlist.named(language)
    var indices: [Int] = []
    var expanded: [Int] = []
    for (offset, key) in keys.enumerated() {
      if let index = list.index(forKey: key) {
        indices.append(index)
      } else if language == .english,
        let index = list.uniquePrefixIndex(forKey: key, minimumLength: abbreviationLength)
      {
        indices.append(index)
        expanded.append(offset + 1)
      } else {
        let others = Wordlist.Language.allCases.filter {
          $0 != language && Wordlist.named($0).index(forKey: key) != nil
        }
        if others.isEmpty {
          throw .unknownWord(
            position: offset + 1, word: tokens[offset], language: language,
            suggestions: list.suggestions(for: key))
        }
        throw .wordNotInLanguage(
          position: offset + 1, word: tokens[offset], language: language, foundIn: others)
      }
    }
    guard let entropy = entropy(fromWordIndices: indices) else {
      throw .checksumMismatch(language: language, wordCount: keys.count)
    }
    return Mnemonic(verifiedEntropy: entropy, language: language, expandedAbbreviations: expanded)
  }

  /// Detects the language (see `init(phrase:language:)`) and reads the phrase in it.
  private static func parse(
    _ keys: [String], tokens: [String]
  ) throws(MnemonicError) -> Mnemonic {
    // 1. Every word as written, languages in allCases order; lists load only as needed.
    var checksumFailedIn: Wordlist.Language?
    for language in Wordlist.Language.allCases {
      let list = Wordlist.named(language)
      let indices = keys.compactMap(list.index(forKey:))
      guard indices.count == keys.count else { continue }
      if let entropy = entropy(fromWordIndices: indices) {
        return Mnemonic(verifiedEntropy: entropy, language: language, expandedAbbreviations: [])
      }
      checksumFailedIn = checksumFailedIn ?? language
    }

    // 2. English with abbreviations.
    let english = Wordlist.named(.english)
    let abbreviations = keys.map {
      english.index(forKey: $0) == nil
        ? english.uniquePrefixIndex(forKey: $0, minimumLength: abbreviationLength) : nil
    }
    let englishIndices = zip(keys, abbreviations).compactMap { english.index(forKey: $0) ?? $1 }
    let expanded = abbreviations.indices.filter { abbreviations[$0] != nil }.map { $0 + 1 }
    if englishIndices.count == keys.count, !expanded.isEmpty {
      if let entropy = entropy(fromWordIndices: englishIndices) {
        return Mnemonic(
          verifiedEntropy: entropy, language: .english, expandedAbbreviations: expanded)
      }
      checksumFailedIn = checksumFailedIn ?? .english
    }
    if let language = checksumFailedIn {
      throw .checksumMismatch(language: language, wordCount: keys.count)
    }

    // 3. No list holds every word: say which word is unknown, or which lists are mixed.
    let memberships = keys.enumerated().map { offset, key in
      Wordlist.Language.allCases.filter {
        Wordlist.named($0).index(forKey: key) != nil
          || ($0 == .english && abbreviations[offset] != nil)
      }
    }
    if let unknown = memberships.firstIndex(where: \.isEmpty) {
      var others = memberships
      others.remove(at: unknown)
      let language = mostCommonLanguage(in: others) ?? .english
      throw .unknownWord(
        position: unknown + 1, word: tokens[unknown], language: language,
        suggestions: Wordlist.named(language).suggestions(for: keys[unknown]))
    }
    let main = mostCommonLanguage(in: memberships) ?? .english
    var positions: [Wordlist.Language: [Int]] = [:]
    for (offset, languages) in memberships.enumerated() {
      let language = languages.contains(main) ? main : languages[0]
      positions[language, default: []].append(offset + 1)
    }
    throw .mixedLanguages(positions)
  }

  /// The shortest English abbreviation: four letters.
  private static let abbreviationLength = 4

  /// The language holding the most words (ties to the earlier in allCases); nil if none holds any.
  private static func mostCommonLanguage(
    in memberships: [[Wordlist.Language]]
  ) -> Wordlist.Language? {
    var best: (language: Wordlist.Language, count: Int)?
    for language in Wordlist.Language.allCases {
      let count = memberships.filter { $0.contains(language) }.count
      if count > 0, count > best?.count ?? 0 { best = (language, count) }
    }
    return best?.language
  }
}

extension Mnemonic {
  /// "word 3 is abbreviated; …" for the 1-based `positions` of expanded words: what a reader
  /// tells the user, who typed something other than a word.
  public static func abbreviationNote(_ positions: [Int]) -> String {
    let list = positions.map(String.init).joined(separator: ", ")
    return positions.count == 1
      ? "word \(list) is abbreviated; read as the English word it begins"
      : "words \(list) are abbreviated; read as the English words they begin"
  }
}

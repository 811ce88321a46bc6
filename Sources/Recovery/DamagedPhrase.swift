import CryptoPrimitives
import VaultKeys

/// A phrase as remembered: per word, a wordlist word, `?` for a word that cannot be read,
/// `ab*` for a word known by its beginning, a pattern with `*` anywhere (`*et`, `w*t`), a word
/// in no list, taken as misspelt, or alternatives of these (`wet|west`).
package struct DamagedPhrase: Sendable {
  /// What is known of one word.
  package enum Word: Sendable, Equatable {
    /// A word of the list (an English four-letter abbreviation is expanded): its index.
    case known(Int)
    /// `?`: any word.
    case unknown
    /// `ab*`: any word beginning with these letters.
    case prefix(String)
    /// In no wordlist: the words within two edits (Damerau–Levenshtein) of it, or for English
    /// of their four-letter abbreviations.
    case misspelt(String)
    /// `*et`, `w*t`: the words the pattern matches, each `*` any run of letters (or none).
    case pattern(String)
    /// `wet|west`: any word one of the alternatives allows.
    case alternatives([Word])
  }

  /// The wordlist searched: `language` if given, else the one holding most of the words.
  package let language: Wordlist.Language
  /// The words as remembered, first word first.
  package let words: [Word]
  /// Each word as it was written (NFKD), for "was '…'" in reports.
  let written: [String]
  /// The word indices each remembered word may stand for.
  let sets: [WordSet]
  /// For each position, the close words of what was written there that it does not allow,
  /// closest first (`DamagedPhrase+CloseWords.swift`): what a close wrong word ranges over.
  let closeSets: [WordSet]
  /// The 1-based positions of words in no wordlist and not within two edits of any word,
  /// read as `?` because `unplaceableAsUnknown` was given (else they are refused).
  package let unplaceable: [Int]

  /// The marker of an unknown word, of unknown letters and between alternatives.
  static let unknownMarker: Unicode.Scalar = "?"
  static let prefixMarker: Unicode.Scalar = "*"
  static let alternativeMarker: Unicode.Scalar = "|"
  /// The edit distance within which a misspelt word's replacements are searched.
  package static let misspellingDistance = 2
  private static let abbreviationLength = 4

  /// Reads `phrase` (UTF-8): words separated by any whitespace, compared after NFKD and
  /// lowercasing, as `Mnemonic(phrase:)` reads them. A word too far from every word of the
  /// list is refused, or with `unplaceableAsUnknown` read as `?` and listed in `unplaceable`.
  package init(
    phrase: SecureBytes, language: Wordlist.Language? = nil, unplaceableAsUnknown: Bool = false
  ) throws(RecoveryError) {
    guard let text = phrase.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
      throw .invalidUTF8
    }
    try self.init(
      positions: Mnemonic.tokens(of: text).map { [$0] }, language: language,
      unplaceableAsUnknown: unplaceableAsUnknown)
  }

  /// Reads a damage file (UTF-8): one line per position of the phrase, first word first. A
  /// line holds what that position may be, in the syntax of a phrase (`wet`, `?`, `ab*`,
  /// `*et`, a misspelt word), several alternatives separated by whitespace or `|`; blank lines
  /// and lines beginning with `#` are skipped.
  package init(damageFile: SecureBytes, language: Wordlist.Language? = nil)
    throws(RecoveryError)
  {
    guard let text = damageFile.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
      throw .invalidUTF8
    }
    var positions: [[String]] = []
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      let tokens = Mnemonic.tokens(of: String(line))
      if tokens.isEmpty || tokens[0].hasPrefix("#") { continue }
      // Whitespace and bars both separate alternatives here.
      let alternatives = tokens.flatMap { $0.split(separator: "|").map(String.init) }
      positions.append(alternatives.isEmpty ? [""] : alternatives)
    }
    try self.init(positions: positions, language: language, unplaceableAsUnknown: false)
  }

  /// Each position's tokens, joined as alternatives.
  private init(
    positions: [[String]], language: Wordlist.Language?, unplaceableAsUnknown: Bool
  ) throws(RecoveryError) {
    guard !positions.isEmpty else { throw .empty }
    // A position written as several tokens (a damage file's line) reads as `a|b|c`.
    let tokens = positions.map { $0.joined(separator: "|") }
    for (offset, token) in tokens.enumerated() {
      if let odd = Self.firstOddCharacter(token) {
        throw .unexpectedCharacter(position: offset + 1, codePoint: odd.value)
      }
    }
    let written = tokens.map {
      $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    }
    for (offset, options) in written.enumerated() where options.contains("") {
      throw .emptyAlternative(position: offset + 1)
    }
    let keys = written.map { $0.map(Wordlist.matchingKey) }
    let chosen = language ?? Self.detectLanguage(keys.flatMap { $0 })
    guard let chosen else { throw .unknownLanguage }
    let list = Wordlist.named(chosen)
    var words: [Word] = []
    var sets: [WordSet] = []
    var unplaceable: [Int] = []
    for (offset, options) in keys.enumerated() {
      let position = offset + 1
      var parsed: [Word] = []
      var members = Set<Int>()
      for (key, token) in zip(options, written[offset]) {
        let (word, matches, placed) = try Self.word(
          key, written: token, position: position, in: list,
          unplaceableAsUnknown: unplaceableAsUnknown)
        if !placed, !unplaceable.contains(position) { unplaceable.append(position) }
        parsed.append(word)
        members.formUnion(matches)
      }
      words.append(parsed.count == 1 ? parsed[0] : .alternatives(parsed))
      sets.append(members.count == Wordlist.wordCount ? .all : WordSet(members))
    }
    self.language = chosen
    self.words = words
    self.written = tokens
    self.sets = sets
    closeSets = Self.closeSets(words: words, sets: sets, in: list)
    self.unplaceable = unplaceable
  }

  /// What one token (no `|`) stands for, the word indices it allows, and false for a word too
  /// far from every word read as `?` (`unplaceableAsUnknown`).
  private static func word(
    _ key: String, written: String, position: Int, in list: Wordlist,
    unplaceableAsUnknown: Bool
  ) throws(RecoveryError) -> (Word, [Int], Bool) {
    if key == "?" || key.allSatisfy({ $0 == "*" }) {
      return (.unknown, Array(list.words.indices), true)
    }
    if key.hasSuffix("*"), !key.dropLast().contains("*") {
      let prefix = String(key.dropLast())
      let matches = list.words.indices.filter {
        Wordlist.matchingKey(list.words[$0]).hasPrefix(prefix)
      }
      guard !matches.isEmpty else {
        throw .noWordWithPrefix(
          position: position, prefix: String(written.dropLast()), language: list.language)
      }
      return (.prefix(prefix), matches, true)
    }
    if key.contains("*") {
      let pattern = Array(key)
      let matches = list.words.indices.filter {
        Self.matches(Array(Wordlist.matchingKey(list.words[$0])), pattern)
      }
      guard !matches.isEmpty else {
        throw .noWordMatchesPattern(
          position: position, pattern: written, language: list.language)
      }
      return (.pattern(key), matches, true)
    }
    if let index = Self.knownIndex(key, in: list) { return (.known(index), [index], true) }
    let near = Self.nearbyWords(key, in: list)
    if near.isEmpty, unplaceableAsUnknown { return (.unknown, Array(list.words.indices), false) }
    guard !near.isEmpty else {
      throw .noNearbyWord(position: position, word: written, language: list.language)
    }
    return (.misspelt(key), near, true)
  }

  /// Whether `word` matches `pattern`, where each `*` stands for any run of letters (or none).
  static func matches(_ word: [Character], _ pattern: [Character]) -> Bool {
    var w = 0
    var p = 0
    var star: Int?
    var resume = 0
    while w < word.count {
      if p < pattern.count, pattern[p] != "*", pattern[p] == word[w] {
        w += 1
        p += 1
      } else if p < pattern.count, pattern[p] == "*" {
        star = p
        resume = w
        p += 1
      } else if let star {
        p = star + 1
        resume += 1
        w = resume
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }

  /// The index of a word of `list`, or of the English word a four-letter abbreviation begins.
  private static func knownIndex(_ key: String, in list: Wordlist) -> Int? {
    if let index = list.index(forKey: key) { return index }
    guard list.language == .english else { return nil }
    return list.uniquePrefixIndex(forKey: key, minimumLength: abbreviationLength)
  }

  /// The words within `misspellingDistance` edits of `key`, or of their abbreviation.
  static func nearbyWords(_ key: String, in list: Wordlist) -> [Int] {
    let typed = Array(key)
    return list.words.indices.filter { index in
      let word = Array(Wordlist.matchingKey(list.words[index]))
      if Wordlist.editDistance(typed, word, limit: misspellingDistance) <= misspellingDistance {
        return true
      }
      guard list.language == .english, word.count > abbreviationLength else { return false }
      let abbreviation = Array(word.prefix(abbreviationLength))
      return Wordlist.editDistance(typed, abbreviation, limit: misspellingDistance)
        <= misspellingDistance
    }
  }

  /// The language whose list holds most of the words as written (ties to the earlier in
  /// `Wordlist.Language.allCases`); English counts its abbreviations. Nil if none holds any.
  private static func detectLanguage(_ keys: [String]) -> Wordlist.Language? {
    var best: (language: Wordlist.Language, count: Int)?
    for language in Wordlist.Language.allCases {
      let list = Wordlist.named(language)
      let count = keys.filter { knownIndex($0, in: list) != nil }.count
      if count > 0, count > best?.count ?? 0 { best = (language, count) }
    }
    return best?.language
  }

  /// The first character that is not a letter, a mark or one of the markers (`?` alone
  /// between bars, `*` anywhere, `|`).
  private static func firstOddCharacter(_ token: String) -> Unicode.Scalar? {
    for alternative in token.split(separator: "|", omittingEmptySubsequences: false) {
      if alternative == "?" { continue }
      if let odd = firstOddLetter(alternative) { return odd }
    }
    return nil
  }

  private static func firstOddLetter(_ token: Substring) -> Unicode.Scalar? {
    for scalar in token.unicodeScalars {
      if scalar == prefixMarker { continue }
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .nonspacingMark, .spacingMark, .enclosingMark:
        continue
      default: return scalar
      }
    }
    return nil
  }
}

import CryptoPrimitives
import VaultKeys

/// A phrase as remembered: per word, a wordlist word, `?` for a word that cannot be read,
/// `ab*` for a word known by its beginning, or a word in no list, taken as misspelt.
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
  }

  /// The wordlist searched: `language` if given, else the one holding most of the words.
  package let language: Wordlist.Language
  /// The words as remembered, first word first.
  package let words: [Word]
  /// Each word as it was written (NFKD), for "was '…'" in reports.
  let written: [String]
  /// The word indices each remembered word may stand for.
  let sets: [WordSet]
  /// The 1-based positions of words in no wordlist and not within two edits of any word,
  /// read as `?` because `unplaceableAsUnknown` was given (else they are refused).
  package let unplaceable: [Int]

  /// The marker of an unknown word and of a known beginning.
  static let unknownMarker: Unicode.Scalar = "?"
  static let prefixMarker: Unicode.Scalar = "*"
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
    let tokens = Mnemonic.tokens(of: text)
    guard !tokens.isEmpty else { throw .empty }
    for (offset, token) in tokens.enumerated() {
      if let odd = Self.firstOddCharacter(token) {
        throw .unexpectedCharacter(position: offset + 1, codePoint: odd.value)
      }
    }
    let keys = tokens.map(Wordlist.matchingKey)
    let chosen = language ?? Self.detectLanguage(keys)
    guard let chosen else { throw .unknownLanguage }
    let list = Wordlist.named(chosen)
    var words: [Word] = []
    var sets: [WordSet] = []
    var unplaceable: [Int] = []
    for (offset, key) in keys.enumerated() {
      let position = offset + 1
      if key == "?" || key == "*" {
        words.append(.unknown)
        sets.append(.all)
      } else if key.hasSuffix("*") {
        let prefix = String(key.dropLast())
        let matches = list.words.indices.filter {
          Wordlist.matchingKey(list.words[$0]).hasPrefix(prefix)
        }
        guard !matches.isEmpty else {
          throw .noWordWithPrefix(
            position: position, prefix: tokens[offset].dropLastString, language: chosen)
        }
        words.append(.prefix(prefix))
        sets.append(WordSet(matches))
      } else if let index = Self.knownIndex(key, in: list) {
        words.append(.known(index))
        sets.append(WordSet([index]))
      } else {
        let near = Self.nearbyWords(key, in: list)
        if near.isEmpty, unplaceableAsUnknown {
          words.append(.unknown)
          sets.append(.all)
          unplaceable.append(position)
          continue
        }
        guard !near.isEmpty else {
          throw .noNearbyWord(position: position, word: tokens[offset], language: chosen)
        }
        words.append(.misspelt(key))
        sets.append(WordSet(near))
      }
    }
    self.language = chosen
    self.words = words
    self.written = tokens
    self.sets = sets
    self.unplaceable = unplaceable
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

  /// The first character that is not a letter, a mark or one of the two markers.
  private static func firstOddCharacter(_ token: String) -> Unicode.Scalar? {
    if token == "?" { return nil }
    let scalars = Array(token.unicodeScalars)
    for (offset, scalar) in scalars.enumerated() {
      if scalar == prefixMarker, offset == scalars.count - 1 { continue }
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

extension String {
  fileprivate var dropLastString: String { String(dropLast()) }
}

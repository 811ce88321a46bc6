import VaultKeys
import Wording

/// Why a damaged phrase cannot be searched. Messages quote at most the one word at fault, never
/// the phrase, and name no option: what can be changed is a typed `RecoveryRemedy`.
package enum RecoveryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The input holds no words.
  case empty
  /// The phrase bytes are not valid UTF-8.
  case invalidUTF8
  /// The word at a 1-based position holds a character that is neither a letter nor one of the
  /// markers `?` (unknown word) and `*` (after the known beginning of a word).
  case unexpectedCharacter(position: Int, codePoint: UInt32)
  /// No word of the phrase is in any wordlist, so the language cannot be told.
  case unknownLanguage
  /// No word of `language` begins with the `prefix` written at a 1-based position.
  case noWordWithPrefix(position: Int, prefix: String, language: Wordlist.Language)
  /// The word at a 1-based position is in no wordlist and no word of `language` is within two
  /// edits of it.
  case noNearbyWord(position: Int, word: String, language: Wordlist.Language)
  /// No word of `language` matches the `pattern` (with `*` inside) written at a 1-based position.
  case noWordMatchesPattern(position: Int, pattern: String, language: Wordlist.Language)
  /// The alternatives written at a 1-based position include an empty one (`wet||west`).
  case emptyAlternative(position: Int)
  /// The remembered words plus the missing ones minus the extra ones do not make a BIP-39
  /// word count.
  case invalidWordCount(remembered: Int, missing: Int, extra: Int = 0)
  /// More typos were allowed than the phrase has words.
  case tooManyTypos(typos: Int, words: Int)
  /// The search has more candidates than can be counted (2^63).
  case searchTooLarge
  /// The damage models combine into too many overlapping parts to enumerate.
  case tooManyParts(Int)
  /// A passphrase candidates file holds no line.
  case noPassphrases
  /// The passphrases to try would be more than can be held (about this many, before
  /// duplicates are dropped).
  case tooManyPassphrases(UInt64)
  /// The typos asked for would make up to this many passphrases: too many to count before the
  /// search (`TypoTree.maximumWalk`).
  case tooManyPassphrasesToCount(UInt64)
  /// A shard was not K/N with 1 ≤ K ≤ N.
  case invalidShard(index: Int, count: Int)
  /// A derivation path template does not read: why.
  case invalidPathTemplate(String)
  /// A 1-based position kept in place is not a position of the phrase.
  case keptPositionOutOfRange(position: Int, words: Int)
  /// A 1-based position is kept in place twice.
  case keptPositionRepeated(Int)
  /// The order-lost model takes the words as written: the word at this 1-based position is
  /// not one word of the list (a prefix, a pattern, alternatives, a misspelling).
  case orderLostNeedsWords(position: Int)
  /// The order-lost model takes one `?` word; this 1-based position holds a second.
  case orderLostSecondUnknown(position: Int)

  /// The one line for this error, its remedies typed (`RecoveryRemedy`) for a tool to word.
  package var message: RecoveryMessage {
    switch self {
    case .empty:
      "the phrase is empty: write the words you remember, with ? for each unknown word"
    case .invalidUTF8:
      "the phrase is not valid UTF-8 text"
    case .unexpectedCharacter(let position, let codePoint):
      "word \(position) contains U+\(Self.hex4(codePoint)), which no wordlist has: write a "
        + "word, ? for an unknown word, or the beginning of a word followed by * (ab*)"
    case .unknownLanguage:
      "no word of the phrase is in a wordlist, so its language is unknown: "
        + "\(remedy: .language)"
    case .noWordWithPrefix(let position, let prefix, let language):
      "word \(position): no \(language.rawValue) word begins with '\(prefix)'; write ? if the "
        + "beginning is not certain"
    case .noNearbyWord(let position, let word, let language):
      "word \(position) ('\(word)') is not within two letters of any \(language.rawValue) word: "
        + "write ? for it"
    case .noWordMatchesPattern(let position, let pattern, let language):
      "word \(position): no \(language.rawValue) word matches '\(pattern)'; write ? if the "
        + "letters are not certain"
    case .emptyAlternative(let position):
      "word \(position) has an empty alternative: write the words it may be separated by |, "
        + "as in wet|west"
    case .invalidWordCount(let remembered, let missing, let extra) where extra > 0:
      "\(remembered) words"
        + (missing > 0 ? " and \(missing) missing" : "")
        + " less \(extra) extra make \(remembered + missing - extra), but a BIP-39 phrase has "
        + "12, 15, 18, 21 or 24 words"
    case .invalidWordCount(let remembered, let missing, _):
      "\(remembered) words"
        + (missing > 0 ? " and \(missing) missing make \(remembered + missing)" : "")
        + ", but a BIP-39 phrase has 12, 15, 18, 21 or 24 words: write ? for each word you "
        + "cannot read, or \(remedy: .countMissingWords)"
    case .tooManyTypos(let typos, let words):
      "\(remedy: .typosAllowed(typos)) more than the \(words) words of the phrase"
    case .searchTooLarge:
      "the search has more than 2^63 candidates: narrow it (fewer ? words, "
        + "\(remedy: .fewerTypos))"
    case .tooManyParts(let count):
      "the damage models combine into \(count) overlapping parts, more than can be searched "
        + "at once: \(remedy: .fewerDamageModels)"
    case .noPassphrases:
      "the passphrase candidates file holds no line: write one passphrase per line"
    case .tooManyPassphrases(let count):
      "the passphrases to try would be more than \(count), more than can be held: allow fewer "
        + "edits or give fewer candidates"
    case .tooManyPassphrasesToCount(let bound):
      "the typos asked for would make up to \(RecoveryText.grouped(bound)) passphrases, too "
        + "many to count before the search: allow fewer edits"
    case .invalidPathTemplate(let reason):
      "the path template does not read: \(reason)"
    case .keptPositionOutOfRange(let position, let words):
      "position \(position) is kept in place, but the phrase has \(words) words: "
        + "\(remedy: .keptPositions) counts from 1"
    case .keptPositionRepeated(let position):
      "position \(position) is kept in place twice: name each position once in "
        + "\(remedy: .keptPositions)"
    case .orderLostNeedsWords(let position):
      "word \(position) is not one wordlist word: when only the order is lost, every word must "
        + "be written out (one ? allowed)"
    case .orderLostSecondUnknown(let position):
      "word \(position) is a second ?: when only the order is lost, at most one word can be "
        + "unknown"
    case .invalidShard(let index, let count):
      "shard \(index)/\(count) does not exist: \(remedy: .shardSyntax) needs 1 ≤ K ≤ N"
    }
  }

  /// The message in the library's own words.
  package var description: String { message.rendered(\.plainWording) }

  private static func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

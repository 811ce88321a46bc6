import Wording

/// What the person can change where a recovery error refuses a search: the library names it,
/// the tool words it as its own option (`.fewerTypos` is "a lower --typos" to freedom-keys), so
/// no recovery message names a flag, and a tool words each remedy once. `plainWording` is the
/// library's own wording, for a reader with no tool (`description`).
package enum RecoveryRemedy: Sendable, Equatable, Hashable {
  /// Name the phrase's language.
  case language
  /// Count the words left out of the phrase as missing.
  case countMissingWords
  /// The number of typos allowed, as the subject of the sentence that refuses it
  /// ("13 typos are").
  case typosAllowed(Int)
  /// Allow fewer typos in the phrase.
  case fewerTypos
  /// Combine fewer of the damage models: missing words, swaps and typos.
  case fewerDamageModels
  /// How one part of a search cut into N is named (K of N).
  case shardSyntax
  /// Allow fewer typos in the password, or give fewer candidates.
  case fewerPasswords
  /// The list of 1-based positions whose word is known to be in its place.
  case keptPositions

  /// The remedy in the library's own words.
  package var plainWording: String {
    switch self {
    case .language: "name the language"
    case .countMissingWords: "count the words left out as missing"
    case .typosAllowed(let count): "\(count) typos are"
    case .fewerTypos: "fewer typos"
    case .fewerDamageModels: "combine fewer of missing words, swaps and typos"
    case .shardSyntax: "shard K of N"
    case .fewerPasswords: "allow fewer typos or give fewer candidates"
    case .keptPositions: "the list of positions kept in place"
    }
  }
}

/// Tool-neutral text with typed recovery remedies in it, as a recovery error words itself.
package typealias RecoveryMessage = RemedyMessage<RecoveryRemedy>

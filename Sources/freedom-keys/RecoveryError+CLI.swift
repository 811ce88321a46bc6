import CommandLineKit
import PhraseRecovery

extension RecoveryError: CLIWordedError {
  /// The library's message, with the options to change named as the command line spells them.
  var cliDescription: String {
    switch self {
    case .unknownLanguage:
      "no word of the phrase is in a wordlist, so its language is unknown: give --language"
    case .invalidWordCount(let remembered, let missing, let extra) where extra == 0:
      "\(remembered) words"
        + (missing > 0 ? " and \(missing) missing make \(remembered + missing)" : "")
        + ", but a BIP-39 phrase has 12, 15, 18, 21 or 24 words: write ? for each word you "
        + "cannot read, or give --missing N for words left out"
    case .tooManyTypos(let typos, let words):
      "--typos \(typos) is more than the \(words) words of the phrase"
    case .searchTooLarge:
      "the search has more than 2^63 candidates: narrow it (fewer ? words, a lower --typos)"
    case .tooManyParts(let count):
      "the damage models combine into \(count) overlapping parts, more than can be searched "
        + "at once: use fewer of --missing, --swaps and --typos together"
    case .invalidShard(let index, let count):
      "shard \(index)/\(count) does not exist: --shard K/N needs 1 ≤ K ≤ N"
    default:
      description
    }
  }
}

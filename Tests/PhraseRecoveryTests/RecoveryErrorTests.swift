import Testing

@testable import PhraseRecovery

/// The library says what is wrong in plain words; naming an option is the CLI's wording.
@Suite("recover: error messages")
struct RecoveryErrorTests {
  @Test(arguments: [
    (
      RecoveryError.unknownLanguage,
      "no word of the phrase is in a wordlist, so its language is unknown: name the language"
    ),
    (
      .invalidWordCount(remembered: 11, missing: 0),
      "11 words, but a BIP-39 phrase has 12, 15, 18, 21 or 24 words: write ? for each word you "
        + "cannot read, or count the words left out as missing"
    ),
    (.tooManyTypos(typos: 13, words: 12), "13 typos are more than the 12 words of the phrase"),
    (
      .searchTooLarge,
      "the search has more than 2^63 candidates: narrow it (fewer ? words, fewer typos)"
    ),
    (
      .tooManyParts(6001),
      "the damage models combine into 6001 overlapping parts, more than can be searched at "
        + "once: combine fewer of missing words, swaps and typos"
    ),
    (
      .invalidShard(index: 4, count: 3),
      "shard 4/3 does not exist: shard K of N needs 1 ≤ K ≤ N"
    ),
  ])
  func messagesNameNoOption(error: RecoveryError, message: String) {
    #expect(error.description == message)
    #expect(!error.description.contains("--"))
  }
}

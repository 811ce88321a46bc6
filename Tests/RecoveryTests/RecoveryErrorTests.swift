import Testing

@testable import Recovery

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

  /// What can be changed is a typed remedy, for a tool to word as its own option; the rest is
  /// the library's text.
  @Test(arguments: [
    (RecoveryError.unknownLanguage, [RecoveryRemedy.language]),
    (.invalidWordCount(remembered: 11, missing: 0), [.countMissingWords]),
    (.invalidWordCount(remembered: 11, missing: 2, extra: 1), []),
    (.tooManyTypos(typos: 13, words: 12), [.typosAllowed(13)]),
    (.searchTooLarge, [.fewerTypos]),
    (.tooManyParts(6001), [.fewerDamageModels]),
    (.invalidShard(index: 4, count: 3), [.shardSyntax]),
    (.empty, []),
  ])
  func remediesAreTyped(error: RecoveryError, remedies: [RecoveryRemedy]) {
    #expect(error.message.remedies == remedies)
  }

  @Test func aRemedyIsWordedByWhoeverRendersIt() {
    #expect(
      RecoveryError.tooManyTypos(typos: 13, words: 12).message.rendered { _ in "R" }
        == "R more than the 12 words of the phrase")
    #expect(
      RecoveryError.invalidShard(index: 4, count: 3).message.rendered { _ in "R" }
        == "shard 4/3 does not exist: R needs 1 ≤ K ≤ N")
  }

  /// Too many passwords: the count grouped, what to change a typed remedy.
  @Test func tooManyPasswordsNamesNoOption() {
    let error = PasswordRecoveryError.tooManyPasswords(8_388_609)
    #expect(error.message.remedies == [.fewerPasswords])
    #expect(
      error.description
        == "the passwords to try would be more than 8,388,609, more than can be held or "
        + "numbered: allow "
        + "fewer typos or give fewer candidates")
  }
}

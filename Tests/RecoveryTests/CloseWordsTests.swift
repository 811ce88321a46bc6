import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// Close words: which replacements of a written word are tried first, in which order, and the
/// automatic phases that try them before any word.
@Suite("recover: close words")
struct CloseWordsTests {
  typealias F = RecoveryFixture
  static let truth = F.words(F.legalWinner)
  static let list = Wordlist.named(.english)

  static func indices(_ words: [String]) -> [Int] { words.map { list.index(of: $0)! } }
  static func members(_ set: WordSet) -> [Int] { set.indices.map(Int.init) }

  @Test func aKnownWordsCloseWordsClosestFirst() throws {
    let phrase = try DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner))
    // Within two edits, a neighbouring key (t→r, a→s, g→h…) the cheapest substitution; then
    // the words whose abbreviation is one edit from the written one's ("than" → "chan…").
    #expect(
      Self.members(phrase.closeSets[2])
        == Self.indices([
          "tank", "chalk", "chunk", "hand", "hawk", "talk", "task", "that", "then", "thing",
          "track", "change", "thunder", "transfer",
        ]))
    #expect(
      Self.members(phrase.closeSets[11])
        == Self.indices([
          "hello", "hollow", "allow", "below", "elbow", "follow", "tell", "jelly", "sell",
        ]))
    #expect(
      Self.members(phrase.closeSets[4]).prefix(6)
        == Self.indices(["save", "wage", "cave", "have", "pave", "safe"])[...])
    // The written word itself is no replacement of it.
    for (position, word) in Self.truth.enumerated() {
      #expect(!phrase.closeSets[position].contains(Self.list.index(of: word)!))
    }
  }

  @Test func closenessPrefersANeighbouringKey() {
    func closeness(_ a: String, _ b: String) -> Int {
      DamagedPhrase.closeness(Array(a), Array(b))
    }
    // s is beside a on QWERTY, t is not.
    #expect(closeness("car", "cat") == 1)
    #expect(closeness("wave", "save") == 1)
    #expect(closeness("car", "bar") == 2)
    #expect(closeness("thank", "tank") == 2)
    #expect(closeness("thank", "thing") == 4)
  }

  @Test func onlyWrittenLettersHaveCloseWords() throws {
    let phrase = try DamagedPhrase(
      phrase: F.damaged(Self.truth, [1: "?", 2: "win*", 4: "*ar", 3: "thnak", 5: "wave|yellow"]))
    #expect(phrase.closeSets[0].count == 0)
    #expect(phrase.closeSets[1].count == 0)
    #expect(phrase.closeSets[3].count == 0)
    // A misspelt word already allows every word within two edits of it or of its abbreviation:
    // nothing is left to be close.
    #expect(phrase.sets[2].count > 0)
    #expect(phrase.closeSets[2].count == 0)
    // Alternatives: the union of each one's close words, without the alternatives themselves.
    let plain = try DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner))
    let union = Set(Self.members(plain.closeSets[4]) + Self.members(plain.closeSets[11]))
      .subtracting(Self.indices(["wave", "yellow"]))
    #expect(Set(Self.members(phrase.closeSets[4])) == union)
    #expect(phrase.closeSets[4].count == union.count)
  }

  @Test func theCloseSetsHoldAFewWordsEach() {
    // Over the whole English list 16.1 close words a word on average (13.0 within two edits);
    // over every 16th word (a sample quick enough to test), 18.8.
    let sample = Array(stride(from: 0, to: Wordlist.wordCount, by: 16))
    let sets = DamagedPhrase.closeSets(
      words: sample.map { .known($0) }, sets: sample.map { WordSet([$0]) }, in: Self.list)
    let total = sets.reduce(0) { $0 + $1.count }
    #expect(total == 2401)
  }

  @Test func aRankedSetIsTheSameSetInAnotherOrder() {
    let ranked = WordSet(ranked: [5, 3, 900, 3])
    #expect(ranked.indices == [5, 3, 900])
    #expect(ranked == WordSet([3, 5, 900]))
    #expect(ranked != WordSet([3, 5]))
    #expect(ranked.complement.count == Wordlist.wordCount - 3)
  }

  @Test func aCloseWrongWordRangesOverItsCloseWordsInRankOrder() throws {
    let phrase = try DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner))
    let one = try RecoverySearch(phrase: phrase, typos: 1, minimumTypos: 1, wrongWords: .close)
    #expect(one.candidateCount == UInt64(phrase.closeSets.reduce(0) { $0 + $1.count }))
    #expect(one.parts[2].sets[2].indices == phrase.closeSets[2].indices)
    #expect(one.parts[2].wrong == [2])
  }

  @Test func thePlanTriesCloseWordsBeforeAnyWord() throws {
    let phrase = try DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner))
    let plan = RecoveryPhase.plan(for: phrase)
    #expect(
      plan.map(\.phase.description) == [
        "the phrase as written", "two adjacent words exchanged", "one close word",
        "two adjacent words exchanged and one close word", "two close words",
        "three close words", "one wrong word", "two adjacent words exchanged and one wrong word",
        "two wrong words",
      ])
    let counts: [UInt64] = [1, 11, 192, 2112, 15843, 752_678, 12 * 2047, 11 * 12 * 2047]
    #expect(plan.map(\.search.candidateCount).prefix(8) == counts[...])
    #expect(plan.last?.search.candidateCount == 66 * 2047 * 2047)
  }

  @Test func twoCloseWrongWordsAreFoundInTheCloseWordsPhase() throws {
    let profile = try F.profile(Self.truth, .english)
    let phrase = try DamagedPhrase(phrase: F.damaged(Self.truth, [3: "that", 5: "save"]))
    var found: (phase: String, words: [String])?
    // The likeliest phases only: the wider ones would take days.
    for (phase, search) in RecoveryPhase.plan(for: phrase)
    where phase.typos == 0 || phase.wrongWords == .close {
      let recovery = try PhraseRecovery(
        search: search, targets: [.address(profile.swarm.address)],
        configuration: .init(threads: 2))
      if let match = try recovery.run().found {
        found = (phase.description, try F.words(of: match))
        break
      }
    }
    #expect(found?.phase == "two close words")
    #expect(found?.words == Self.truth)
  }

  @Test func theHashNamesCloseWordsOnlyWhenUsed() throws {
    let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: F.legalWinner))
    let profile = try FreedomProfile(mnemonic: mnemonic)
    let phrase = try DamagedPhrase(phrase: F.damaged(F.words(F.legalWinner), [12: "?"]))
    func recovery(_ wrongWords: RecoverySearch.WrongWords, typos: Int) throws -> PhraseRecovery {
      try PhraseRecovery(
        search: RecoverySearch(
          phrase: phrase, typos: typos, minimumTypos: typos, wrongWords: wrongWords),
        targets: [.address(profile.swarm.address)],
        configuration: .init(threads: 2, shardIndex: 1, shardCount: 3))
    }
    // `.any`, said or not, is the search of 1fbfeca (SearchHashTests pins the same hash).
    #expect(
      Hex.encode(try recovery(.any, typos: 0).searchHash)
        == "b19ebb64e04647562412a44ad3b3295248c6a85773bea99c9ef957fcbca9051c")
    let any = try recovery(.any, typos: 1)
    let close = try recovery(.close, typos: 1)
    #expect(close.searchHash != any.searchHash)
    #expect(close.publicSearchHash != any.publicSearchHash)
    #expect(close.shapeHash != any.shapeHash)
    #expect(
      Hex.encode(close.shapeHash)
        == "f7a3973d53a11c96b099fb6dd4c1a4c8df9352ed4e159305b0e5e31144fc781c")
  }
}

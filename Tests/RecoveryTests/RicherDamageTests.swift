import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// Alternatives, patterns, extra words, damage files, exact phases, passphrase sets and the
/// bounds of a search.
@Suite("recover: richer damage")
struct RicherDamageTests {
  typealias F = RecoveryFixture
  static let truth = F.words(F.legalWinner)
  static let list = Wordlist.named(.english)

  /// The English words `predicate` keeps, by brute force over the list.
  static func words(where predicate: (String) -> Bool) -> [Int] {
    list.words.indices.filter { predicate(list.words[$0]) }
  }

  @Test func alternativesAreTheUnionOfTheirWords() throws {
    let damaged = try DamagedPhrase(
      phrase: F.damaged(Self.truth, [3: "thnak|theme|th*k", 5: "wav"]))
    // "thnak" is in no list: the words within two letters of it.
    let expected = Set(
      Self.words { $0.hasPrefix("th") && $0.hasSuffix("k") }
        + DamagedPhrase.nearbyWords("thnak", in: Self.list) + [Self.list.index(of: "theme")!])
    #expect(Set(damaged.sets[2].indices.map(Int.init)) == expected)
    #expect(
      damaged.words[2] == .alternatives([.misspelt("thnak"), .known(1792), .pattern("th*k")]))
    let profile = try F.profile(Self.truth, .english)
    let outcome = try F.run(
      F.damaged(Self.truth, [3: "thnak|that"]), targets: [.address(profile.swarm.address)])
    #expect(try F.words(of: outcome.found) == Self.truth)
    #expect(
      outcome.found?.changes == [RecoveryChange(position: 3, word: "thank", was: "thnak|that")])
  }

  @Test func aStarAnywhereIsAnyRunOfLetters() throws {
    let damaged = try DamagedPhrase(
      phrase: F.damaged(Self.truth, [4: "*ar", 7: "w*th", 8: "u*f*l", 2: "win*"]))
    #expect(damaged.words[3] == .pattern("*ar"))
    #expect(damaged.sets[3].indices.map(Int.init) == Self.words { $0.hasSuffix("ar") })
    #expect(
      damaged.sets[6].indices.map(Int.init)
        == Self.words { $0.hasPrefix("w") && $0.hasSuffix("th") && $0.count >= 3 })
    #expect(damaged.sets[7].indices.map(Int.init).contains(Self.list.index(of: "useful")!))
    // ab* stays a prefix.
    #expect(damaged.words[1] == .prefix("win"))
    #expect(
      throws: RecoveryError.noWordMatchesPattern(position: 4, pattern: "*qx", language: .english)
    ) {
      try DamagedPhrase(phrase: F.damaged(Self.truth, [4: "*qx"]))
    }
    #expect(throws: RecoveryError.emptyAlternative(position: 4)) {
      try DamagedPhrase(phrase: F.damaged(Self.truth, [4: "year||yard"]))
    }
  }

  @Test func anExtraWordIsDropped() throws {
    var written = Self.truth
    written.insert("zoo", at: 5)
    let phrase = SecureBytes(utf8: written.joined(separator: " "))
    let profile = try F.profile(Self.truth, .english)
    let outcome = try F.run(
      phrase, extra: 1, targets: [.address(profile.swarm.address)])
    #expect(try F.words(of: outcome.found) == Self.truth)
    #expect(outcome.found?.extraPositions == [6])
    #expect(outcome.found?.changes == [])
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: phrase), extraWords: 1)
    #expect(search.candidateCount == 13)
  }

  @Test func extraWordsCountEachPhraseOnce() throws {
    // "legal winner" twice: dropping either copy of a repeated word gives the same phrase.
    var written = Self.truth
    written.insert("legal", at: 0)
    let phrase = SecureBytes(utf8: written.joined(separator: " "))
    let outcome = try F.run(phrase, extra: 1, typos: 1, targets: [], collect: 100_000)
    var distinct = Set<[Int]>()
    let base = written.map { Self.list.index(of: $0)! }
    for dropped in 0..<written.count {
      var kept = base
      kept.remove(at: dropped)
      for position in 0..<12 {
        for word in 0..<2048 {
          var candidate = kept
          candidate[position] = word
          if Mnemonic.entropy(fromWordIndices: candidate) != nil { distinct.insert(candidate) }
        }
      }
    }
    #expect(outcome.progress.checksumValid == UInt64(distinct.count))
    #expect(outcome.candidates.count == distinct.count)
  }

  @Test func aDamageFileIsOneLinePerPosition() throws {
    let file = """
      # my steel plate, read in the dark
      legal
      winner
      thnak theme | th*k

      year
      wave
      sausage
      worth
      useful
      legal
      winner
      thank
      yellow
      """
    let damaged = try DamagedPhrase(damageFile: SecureBytes(utf8: file))
    let inline = try DamagedPhrase(phrase: F.damaged(Self.truth, [3: "thnak|theme|th*k"]))
    #expect(damaged.words == inline.words)
    #expect(damaged.sets == inline.sets)
    #expect(throws: RecoveryError.empty) {
      try DamagedPhrase(damageFile: SecureBytes(utf8: "# nothing\n\n"))
    }
  }

  @Test func phasesOfExactlyKTyposAndOnlySwapsAreDisjoint() throws {
    let phrase = try DamagedPhrase(phrase: F.damaged(Self.truth, [:]))
    let one = try RecoverySearch(phrase: phrase, typos: 1, minimumTypos: 1)
    #expect(one.candidateCount == 12 * 2047)
    let two = try RecoverySearch(phrase: phrase, typos: 2, minimumTypos: 2)
    #expect(two.candidateCount == 66 * 2047 * 2047)
    let swaps = try RecoverySearch(phrase: phrase, requiresSwap: true)
    // The 11 adjacent pairs are all of two different words: 11 parts of one candidate each.
    #expect(swaps.candidateCount == 11)
    #expect(swaps.parts.allSatisfy { $0.swap != nil })
  }

  @Test func thePhasesGoFromTheCheapest() throws {
    let twelve = try DamagedPhrase(phrase: F.damaged(Self.truth, [:]))
    let plan = RecoveryPhase.plan(for: twelve)
    // The close words first (CloseWordsTests), then any word.
    let counts: [UInt64] = [
      1, 11, 192, 2112, 15843, 752_678, 12 * 2047, 11 * 12 * 2047, 66 * 2047 * 2047,
    ]
    #expect(plan.map(\.search.candidateCount) == counts)
    #expect(plan[1].phase == RecoveryPhase(extraWords: 0, missingWords: 0, swap: true, typos: 0))
    #expect(
      plan[2].phase
        == RecoveryPhase(extraWords: 0, missingWords: 0, swap: false, typos: 1, wrongWords: .close)
    )
    let eleven = try DamagedPhrase(
      phrase: SecureBytes(utf8: Self.truth.dropLast().joined(separator: " ")))
    #expect(
      RecoveryPhase.plan(for: eleven).map(\.phase) == [
        RecoveryPhase(extraWords: 0, missingWords: 1, swap: false, typos: 0),
        RecoveryPhase(extraWords: 0, missingWords: 1, swap: false, typos: 1),
      ])
    let thirteen = try DamagedPhrase(
      phrase: SecureBytes(utf8: (Self.truth + ["zoo"]).joined(separator: " ")))
    let extra: [UInt64] = [13, 13 * 12 * 2047]
    #expect(RecoveryPhase.plan(for: thirteen).map(\.search.candidateCount) == extra)
  }

  @Test func aHugeSearchIsRefusedBeforeItsPartsAreBuilt() throws {
    let words24 = Array(repeating: "abandon", count: 23) + ["art"]
    let phrase = try DamagedPhrase(phrase: SecureBytes(utf8: words24.joined(separator: " ")))
    // C(24, ≤12) ≈ 4.2 million parts: refused on the count, without storing one.
    #expect(throws: RecoveryError.searchTooLarge) {
      try RecoverySearch(phrase: phrase, typos: 12)
    }
    let short = try DamagedPhrase(
      phrase: SecureBytes(utf8: Array(repeating: "abandon", count: 12).joined(separator: " ")))
    #expect(throws: RecoveryError.searchTooLarge) {
      try RecoverySearch(phrase: short, missingWords: 12)
    }
    // Within 2^63 but more parts than the budget: refused too.
    #expect(RecoverySearch.maximumParts == 1 << 16)
    let many = try RecoverySearch(phrase: phrase, typos: 4)
    #expect(many.partCount == 1 + 24 + 276 + 2024 + 10626)
  }

  @Test func passphraseCandidatesAreTriedWithEveryPhrase() throws {
    let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: F.legalWinner))
    // "TREZOR": the passphrase of the published BIP-39 vectors.
    let profile = try FreedomProfile(mnemonic: mnemonic, passphrase: SecureBytes(utf8: "TREZOR"))
    let lines = "\nsecret\nsecret\r\nTREZOR\nTrezor\n"
    let set = try PassphraseSet(candidates: SecureBytes(utf8: lines))
    // Line 3 repeats line 2: dropped.
    #expect(set.count == 4)
    let search = try RecoverySearch(
      phrase: DamagedPhrase(phrase: F.damaged(Self.truth, [3: "th*"])))
    let recovery = try PhraseRecovery(
      search: search, targets: [.address(profile.swarm.address)], passphrases: set,
      configuration: .init(threads: 2, chunkSize: 8))
    #expect(recovery.candidateCount == 15 * 4)
    let outcome = try recovery.run()
    #expect(try F.words(of: outcome.found) == Self.truth)
    #expect(outcome.found?.passphraseOrigin == .line(4))
    #expect(text(try #require(outcome.found?.passphrase)) == "TREZOR")
    #expect(outcome.progress.match?.passphrase == 2)
    // The checkpoint names the passphrase by number, never by its text, and is found again.
    let json = String(decoding: outcome.progress.jsonBytes(), as: UTF8.self)
    #expect(!json.contains("TREZOR") && !json.contains("secret"))
    let again = try recovery.run(resumingFrom: RecoveryProgress(json: outcome.progress.jsonBytes()))
    #expect(again.foundEarlier)
    #expect(again.found?.passphraseOrigin == .line(4))
  }

  /// The phrase as written with 150 candidate passphrases: one PBKDF2 batch holds 64 of them,
  /// each seed with its own salt, and the match is reported with its own passphrase, not its
  /// batch's first.
  @Test func aBatchSpansPassphrases() throws {
    let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: F.legalWinner))
    let profile = try FreedomProfile(mnemonic: mnemonic, passphrase: SecureBytes(utf8: "TREZOR"))
    var lines = (0..<150).map { "p\($0)" }
    lines[100] = "TREZOR"
    let set = try PassphraseSet(candidates: SecureBytes(utf8: lines.joined(separator: "\n")))
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner)))
    let outcome = try PhraseRecovery(
      search: search, targets: [.address(profile.swarm.address)], passphrases: set,
      configuration: .init(threads: 1)
    ).run()
    #expect(outcome.found?.passphraseOrigin == .line(101))
    #expect(text(try #require(outcome.found?.passphrase)) == "TREZOR")
    #expect(outcome.progress.match?.passphrase == 100)
    // Passphrases 0–63, then 64–100 of the second batch: the match ends the count.
    #expect(outcome.progress.checked == 101)
  }

  @Test func passphraseTyposAreEveryStringWithinKEdits() throws {
    let set = try PassphraseSet(remembered: SecureBytes(utf8: "ab"), edits: 1)
    // By brute force: the strings within one edit of "ab" over "ab" plus printable ASCII.
    let alphabet = (0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
    // And caps lock: one typo, though two edits.
    var expected: Set<String> = ["ab", "a", "b", "ba", "AB"]
    for c in alphabet {
      expected.formUnion([String([c, "b"]), String(["a", c])])
      expected.formUnion([String([c, "a", "b"]), String(["a", c, "b"]), String(["a", "b", c])])
    }
    #expect(set.count == expected.count)
    var seen = Set<String>()
    for index in 0..<set.count { seen.insert(text(try set.passphrase(index))) }
    #expect(seen == expected)
    #expect(try text(set.passphrase(0)) == "ab")

    let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: F.legalWinner))
    let profile = try FreedomProfile(mnemonic: mnemonic, passphrase: SecureBytes(utf8: "TREZOR"))
    let typos = try PassphraseSet(remembered: SecureBytes(utf8: "TERZOR"), edits: 1)
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner)))
    let outcome = try PhraseRecovery(
      search: search, targets: [.peerID(profile.ipfs.peerID)], passphrases: typos,
      configuration: .init(threads: 2)
    ).run()
    #expect(outcome.found?.passphraseOrigin == .edits([.exchanged(at: 2)]))
    #expect(throws: RecoveryError.tooManyPassphrases(UInt64(PassphraseSet.maximumCount) + 1)) {
      try PassphraseSet(remembered: SecureBytes(utf8: "correct horse"), edits: 3)
    }
  }
}

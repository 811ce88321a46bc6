import CryptoPrimitives
import Foundation
import Recovery
import Testing
import VaultKeys

func secure(hex: String) throws -> SecureBytes {
  SecureBytes(try #require(Hex.decode(hex)))
}

func text(_ bytes: SecureBytes) -> String {
  bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

/// Published BIP-39 vector phrases, damaged on purpose and searched for.
enum RecoveryFixture {
  /// The BIP-39 vector for 16 × 0x7f.
  static let legalWinner =
    "legal winner thank year wave sausage worth useful legal winner thank yellow"
  /// The BIP-39 vector for 16 × 0x80.
  static let letterAdvice =
    "letter advice cage absurd amount doctor acoustic avoid letter advice cage above"

  /// The words of the mnemonic of `entropyHex` in `language`.
  static func words(_ entropyHex: String, _ language: Wordlist.Language) throws -> [String] {
    let mnemonic = try Mnemonic(entropy: secure(hex: entropyHex), language: language)
    return text(mnemonic.phrase()).split(whereSeparator: { $0 == " " || $0 == "\u{3000}" })
      .map(String.init)
  }

  static func words(_ phrase: String) -> [String] {
    phrase.split(separator: " ").map(String.init)
  }

  /// The phrase with the 1-based `changes` applied.
  static func damaged(_ words: [String], _ changes: [Int: String]) -> SecureBytes {
    var words = words
    for (position, word) in changes { words[position - 1] = word }
    return SecureBytes(utf8: words.joined(separator: " "))
  }

  static func profile(_ words: [String], _ language: Wordlist.Language) throws -> FreedomProfile {
    let phrase = SecureBytes(utf8: words.joined(separator: " "))
    return try FreedomProfile(mnemonic: Mnemonic(phrase: phrase, language: language))
  }

  /// Runs a search to its end on two threads.
  static func run(
    _ phrase: SecureBytes, language: Wordlist.Language? = nil, missing: Int = 0,
    extra: Int = 0, swaps: Bool = false, typos: Int = 0, targets: [RecoveryTarget],
    collect: Int = 0,
    shard: (Int, Int) = (1, 1), chunkSize: UInt64 = 1 << 13
  ) throws -> PhraseRecovery.Outcome {
    let damaged = try DamagedPhrase(phrase: phrase, language: language)
    let search = try RecoverySearch(
      phrase: damaged, missingWords: missing, extraWords: extra, allowsSwap: swaps, typos: typos)
    let recovery = try PhraseRecovery(
      search: search, targets: targets,
      configuration: .init(
        threads: 2, shardIndex: shard.0, shardCount: shard.1, chunkSize: chunkSize))
    return try recovery.run(collect: collect)
  }

  static func words(of found: RecoveredPhrase?) throws -> [String] {
    let found = try #require(found)
    return text(found.mnemonic.phrase()).split(whereSeparator: { $0 == " " || $0 == "\u{3000}" })
      .map(String.init)
  }
}

@Suite("recover: damage models")
struct RecoveryDamageTests {
  typealias F = RecoveryFixture

  @Test func unknownWordInEnglish() throws {
    let truth = F.words(F.legalWinner)
    let profile = try F.profile(truth, .english)
    let outcome = try F.run(
      F.damaged(truth, [3: "?"]), targets: [.address(profile.swarm.address, of: .swarm)])
    #expect(try F.words(of: outcome.found) == truth)
    #expect(outcome.found?.changes == [RecoveryChange(position: 3, word: "thank", was: "?")])
    #expect(outcome.found?.matched == "swarm.address")
    #expect(outcome.isComplete)
  }

  @Test func prefixInJapanese() throws {
    let truth = try F.words("7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f", .japanese)
    let profile = try F.profile(truth, .japanese)
    let prefix = String(truth[4].prefix(1)) + "*"
    let outcome = try F.run(
      F.damaged(truth, [5: prefix]), targets: [.peerID(profile.ipfs.peerID)])
    #expect(try F.words(of: outcome.found) == truth)
    #expect(outcome.found?.changes == [RecoveryChange(position: 5, word: truth[4], was: prefix)])
    #expect(outcome.found?.mnemonic.language == .japanese)
  }

  @Test func misspeltWordInSpanish() throws {
    let truth = try F.words("00000000000000000000000000000000", .spanish)
    // "ábaco" written without its accent is in no list.
    let outcome = try F.run(
      F.damaged(truth, [2: "abaco"]),
      targets: [.radicle(try F.profile(truth, .spanish).radicle.radicle)])
    #expect(try F.words(of: outcome.found) == truth)
    #expect(outcome.found?.changes == [RecoveryChange(position: 2, word: truth[1], was: "abaco")])
  }

  @Test func misspeltAbbreviationInEnglish() throws {
    let truth = F.words(F.letterAdvice)
    // "advice" abbreviated "advi" on a steel plate, then misread "adiv".
    let damaged = try DamagedPhrase(phrase: F.damaged(truth, [2: "adiv"]))
    guard case .misspelt = damaged.words[1] else {
      Issue.record("adiv was not taken as misspelt")
      return
    }
    let outcome = try F.run(
      F.damaged(truth, [2: "adiv"]),
      targets: [.address(try F.profile(truth, .english).wallet.address)])
    #expect(try F.words(of: outcome.found) == truth)
    #expect(outcome.found?.matched == "wallet.address")
  }

  @Test func missingWordInFrench() throws {
    let truth = try F.words("80808080808080808080808080808080", .french)
    var remembered = truth
    remembered.remove(at: 1)
    let outcome = try F.run(
      SecureBytes(utf8: remembered.joined(separator: " ")), language: .french, missing: 1,
      targets: [.address(try F.profile(truth, .french).swarm.address)])
    #expect(try F.words(of: outcome.found) == truth)
    #expect(
      outcome.found?.changes.contains(RecoveryChange(position: 2, word: truth[1], was: nil)) == true
    )
  }

  @Test func adjacentSwapInCzech() throws {
    let truth = try F.words("80808080808080808080808080808080", .czech)
    var remembered = truth
    remembered.swapAt(8, 9)
    let outcome = try F.run(
      SecureBytes(utf8: remembered.joined(separator: " ")), swaps: true,
      targets: [.address(try F.profile(truth, .czech).swarm.address)])
    #expect(try F.words(of: outcome.found) == truth)
    let swapped = try #require(outcome.found?.swappedPositions)
    #expect(swapped == (9, 10))
  }

  @Test func wrongWordInItalian() throws {
    let truth = try F.words("00000000000000000000000000000000", .italian)
    let wrong = Wordlist.named(.italian).words[100]
    let outcome = try F.run(
      F.damaged(truth, [1: wrong]), typos: 1,
      targets: [.address(try F.profile(truth, .italian).swarm.address)])
    #expect(try F.words(of: outcome.found) == truth)
    #expect(outcome.found?.changes == [RecoveryChange(position: 1, word: truth[0], was: wrong)])
  }
}

@Suite("recover: targets")
struct RecoveryTargetTests {
  typealias F = RecoveryFixture
  static let truth = F.words(F.legalWinner)
  /// "th*" leaves 15 English words for word 3, one of them valid with the rest.
  static let damaged = F.damaged(truth, [3: "th*"])

  static func match(_ target: RecoveryTarget) throws -> String? {
    let outcome = try F.run(damaged, targets: [target])
    if outcome.found != nil { #expect(try F.words(of: outcome.found) == truth) }
    return outcome.found?.matched
  }

  @Test func everyKind() throws {
    let profile = try F.profile(Self.truth, .english)
    #expect(try Self.match(.address(profile.wallet.address)) == "wallet.address")
    #expect(try Self.match(.address(profile.swarm.address)) == "swarm.address")
    #expect(try Self.match(.address(profile.wallet(index: 2).address)) == "wallets[2].address")
    #expect(
      try Self.match(.address(profile.publisher(index: 1).address)) == "publishers[1].address")
    #expect(try Self.match(.peerID(profile.ipfs.peerID)) == "ipfs.peerId")
    #expect(try Self.match(.radicle(profile.radicle.radicle)) == "radicle.did")
    let overlay = try profile.swarmOverlay(networkID: 10)
    #expect(
      try Self.match(.overlay(overlay.rawRepresentation, networkID: 10)) == "swarm.overlay")
  }

  @Test func accountsLimitTheAddressesTried() throws {
    let profile = try F.profile(Self.truth, .english)
    #expect(try Self.match(.address(profile.wallet(index: 2).address, accounts: 2)) == nil)
    #expect(try Self.match(.address(profile.swarm.address, of: .wallet(0))) == nil)
  }

  @Test func noMatchSearchesEverything() throws {
    let other = try F.profile(F.words(F.letterAdvice), .english)
    let outcome = try F.run(Self.damaged, targets: [.address(other.swarm.address)])
    #expect(outcome.found == nil)
    #expect(outcome.isComplete)
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: Self.damaged))
    #expect(outcome.progress.candidates == search.candidateCount)
    #expect(outcome.progress.checked == outcome.progress.checksumValid)
  }
}

@Suite("recover: counting, shards, resume")
struct RecoveryCountTests {
  typealias F = RecoveryFixture

  /// The distinct checksum-valid phrases of the search, by brute force over strings.
  static func bruteCount(
    _ remembered: [String], unknown: Set<Int>, swaps: Bool, typos: Int
  ) -> Int {
    let list = Wordlist.named(.english)
    let base = remembered.map { list.index(of: $0) }
    var candidates = Set<[Int]>()
    func variants(_ fixed: [Int?]) {
      // `nil` positions are any word.
      var results: [[Int]] = [[]]
      for slot in fixed {
        results = results.flatMap { prefix in
          (slot.map { [$0] } ?? Array(0..<2048)).map { prefix + [$0] }
        }
      }
      candidates.formUnion(results)
    }
    var layouts: [[Int?]] = [
      base.enumerated().map { unknown.contains($0.offset) ? nil : $0.element }
    ]
    if swaps {
      for i in 0..<(base.count - 1) {
        var swapped = layouts[0]
        swapped.swapAt(i, i + 1)
        layouts.append(swapped)
      }
    }
    for layout in layouts {
      variants(layout)
      if typos >= 1 {
        for position in layout.indices where layout[position] != nil {
          var wrong = layout
          wrong[position] = nil
          variants(wrong)
        }
      }
    }
    return candidates.filter { indices in
      let sentence = indices.map { list.words[$0] }.joined(separator: " ")
      return (try? Mnemonic(phrase: sentence, language: .english)) != nil
    }.count
  }

  @Test func countWithoutTargetsEqualsBruteCount() throws {
    let truth = F.words(F.legalWinner)
    let outcome = try F.run(F.damaged(truth, [12: "?"]), targets: [], collect: 1000)
    #expect(outcome.progress.checksumValid == 128)
    #expect(
      Int(outcome.progress.checksumValid)
        == Self.bruteCount(truth, unknown: [11], swaps: false, typos: 0))
    #expect(outcome.candidates.count == 128)
    #expect(outcome.candidates.contains { text($0.mnemonic.phrase()) == F.legalWinner })
  }

  @Test func overlappingModelsCountEachPhraseOnce() throws {
    let truth = F.words(F.letterAdvice)
    let outcome = try F.run(F.damaged(truth, [:]), swaps: true, typos: 1, targets: [])
    #expect(outcome.isComplete)
    #expect(
      Int(outcome.progress.checksumValid)
        == Self.bruteCount(truth, unknown: [], swaps: true, typos: 1))
  }

  @Test func shardsCoverTheSpaceOnce() throws {
    let truth = F.words(F.legalWinner)
    let phrase = F.damaged(truth, [2: "w*", 12: "?"])
    let whole = try F.run(phrase, targets: [], collect: 100_000, chunkSize: 512)
    var seen: [String] = []
    var candidates: UInt64 = 0
    for k in 1...3 {
      let part = try F.run(phrase, targets: [], collect: 100_000, shard: (k, 3), chunkSize: 512)
      #expect(part.isComplete)
      candidates += part.progress.candidates
      seen += part.candidates.map { text($0.mnemonic.phrase()) }
    }
    let all = whole.candidates.map { text($0.mnemonic.phrase()) }
    #expect(candidates == whole.progress.candidates)
    #expect(seen.count == all.count)
    #expect(Set(seen) == Set(all))
    #expect(Set(seen).count == seen.count)
  }

  @Test func resumeContinuesWhereItStopped() throws {
    let truth = F.words(F.legalWinner)
    let phrase = F.damaged(truth, [2: "w*", 12: "?"])
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: phrase))
    let configuration = PhraseRecovery.Configuration(threads: 1, chunkSize: 256)
    let recovery = try PhraseRecovery(search: search, targets: [], configuration: configuration)
    let whole = try recovery.run(collect: 100_000)

    var ticks = 0
    let stopped = try recovery.run(collect: 100_000, tick: 0.001) { progress in
      ticks += 1
      return progress.doneBelow == 0
    }
    #expect(!stopped.isComplete)
    #expect(stopped.progress.doneBelow > 0)
    #expect(stopped.progress.candidates < whole.progress.candidates)

    let json = stopped.progress.jsonBytes()
    let saved = try RecoveryProgress(json: json)
    #expect(saved.doneBelow == stopped.progress.doneBelow)
    let text = String(decoding: json, as: UTF8.self)
    for word in truth { #expect(!text.contains(word)) }

    let resumed = try recovery.run(resumingFrom: saved, collect: 100_000)
    #expect(resumed.isComplete)
    #expect(resumed.progress.candidates == whole.progress.candidates)
    #expect(resumed.progress.checksumValid == whole.progress.checksumValid)

    let other = try PhraseRecovery(
      search: RecoverySearch(phrase: DamagedPhrase(phrase: F.damaged(truth, [2: "?"]))),
      targets: [], configuration: configuration)
    #expect(throws: RecoveryCheckpointError.otherSearch) {
      try other.run(resumingFrom: saved)
    }
  }

  @Test func sizes() throws {
    let truth = F.words(F.legalWinner)
    let two = try RecoverySearch(phrase: DamagedPhrase(phrase: F.damaged(truth, [3: "?", 7: "?"])))
    #expect(two.candidateCount == 2048 * 2048)
    #expect(two.expectedChecksumValidCount == 262_144)
    let typos = try RecoverySearch(phrase: DamagedPhrase(phrase: F.damaged(truth, [:])), typos: 2)
    #expect(typos.candidateCount == 1 + 12 * 2047 + 66 * 2047 * 2047)
    let missing = try RecoverySearch(
      phrase: DamagedPhrase(phrase: SecureBytes(utf8: truth.dropLast().joined(separator: " "))),
      missingWords: 1)
    #expect(missing.candidateCount == 12 * 2048)
  }

  @Test func badInput() throws {
    #expect(throws: RecoveryError.unexpectedCharacter(position: 2, codePoint: 0x31)) {
      try DamagedPhrase(phrase: SecureBytes(utf8: "legal 1winner"))
    }
    #expect(throws: RecoveryError.unknownLanguage) {
      try DamagedPhrase(phrase: SecureBytes(utf8: "? ? ?"))
    }
    #expect(throws: RecoveryError.noWordWithPrefix(position: 2, prefix: "xq", language: .english)) {
      try DamagedPhrase(phrase: SecureBytes(utf8: "legal xq* winner"))
    }
    #expect(throws: RecoveryError.invalidWordCount(remembered: 11, missing: 0)) {
      try RecoverySearch(
        phrase: DamagedPhrase(
          phrase: SecureBytes(utf8: F.words(F.legalWinner).dropLast().joined(separator: " "))))
    }
  }
}

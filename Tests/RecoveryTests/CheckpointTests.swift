import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// Checkpoints: a match is recorded and derived again; a checkpoint that does not fit its
/// search is refused; path templates.
@Suite("recover: checkpoints and paths")
struct CheckpointTests {
  typealias F = RecoveryFixture

  static func recovery(
    _ damage: [Int: String], targets: [RecoveryTarget], chunkSize: UInt64 = 256
  ) throws -> PhraseRecovery {
    let truth = F.words(F.legalWinner)
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: F.damaged(truth, damage)))
    return try PhraseRecovery(
      search: search, targets: targets, configuration: .init(threads: 2, chunkSize: chunkSize))
  }

  @Test func aMatchIsRecordedAndDerivedAgain() throws {
    let truth = F.words(F.legalWinner)
    let profile = try F.profile(truth, .english)
    // 15 × 2 candidates in chunks of 4.
    let recovery = try Self.recovery(
      [3: "th*", 12: "ye*"], targets: [.address(profile.swarm.address, of: .swarm)], chunkSize: 4)
    let outcome = try recovery.run()
    let found = try #require(outcome.found)
    let match = try #require(outcome.progress.match)
    // Words 3 and 12 were damaged: "thank" and "yellow" are the changes.
    let list = Wordlist.named(.english)
    #expect(
      match.changes == [
        .init(position: 3, wordIndex: list.index(of: "thank")!),
        .init(position: 12, wordIndex: list.index(of: "yellow")!),
      ])
    // The chunk that held it is done in the same snapshot.
    #expect(outcome.progress.doneBelow > 0 || !outcome.progress.doneChunks.isEmpty)

    let saved = try RecoveryProgress(json: outcome.progress.jsonBytes())
    #expect(saved.match == outcome.progress.match)
    #expect(saved.doneBelow == outcome.progress.doneBelow)
    #expect(saved.doneChunks == outcome.progress.doneChunks)
    let again = try recovery.run(resumingFrom: saved)
    #expect(again.foundEarlier)
    #expect(try F.words(of: again.found) == truth)
    #expect(again.found?.changes == found.changes)
    #expect(again.found?.matched == "swarm.address")
  }

  /// One chunk shared by two threads in slices, stopped part way and resumed: the
  /// stop leaves a checkpoint its search accepts (a chunk counted only once all its slices
  /// are), and the resumed run ends with exactly the counts of an uninterrupted one.
  @Test func aSlicedChunkStopsAndResumesWithExactCounts() throws {
    let other = try FreedomProfile(seed: SecureBytes([UInt8](repeating: 7, count: 64)))
    // 2048 candidates: one chunk of 8192.
    let recovery = try Self.recovery(
      [12: "?"], targets: [.address(other.swarm.address)], chunkSize: 8192)
    #expect(recovery.chunkCount == 1)
    let whole = try recovery.run()
    #expect(whole.found == nil && whole.isComplete)
    // Stopped at about 40% of the whole run's time: some slices done, the chunk not yet.
    let clock = ContinuousClock()
    let start = clock.now
    let stopped = try recovery.run(tick: 0.002) { _ in
      clock.now - start < .seconds(whole.progress.seconds * 0.4)
    }
    let saved = try RecoveryProgress(json: stopped.progress.jsonBytes())
    try recovery.validate(saved)
    #expect(saved.checked <= whole.progress.checked)
    let resumed = try recovery.run(resumingFrom: saved)
    #expect(resumed.isComplete)
    #expect(resumed.progress.candidates == whole.progress.candidates)
    #expect(resumed.progress.checksumValid == whole.progress.checksumValid)
    #expect(resumed.progress.checked == whole.progress.checked)
  }

  @Test func aCheckpointThatDoesNotFitIsRefused() throws {
    let recovery = try Self.recovery([2: "w*", 12: "?"], targets: [])
    let whole = try recovery.run()
    let hash = Hex.encode(recovery.searchHash)
    func checkpoint(_ fields: String) throws -> RecoveryProgress {
      try RecoveryProgress(
        json: Array(
          ("{\"format\": \"freedom-keys recover checkpoint 1\", \"search\": \"\(hash)\", "
            + fields + ", \"checksumValid\": 0, \"checked\": 0, \"milliseconds\": 0}").utf8))
    }
    #expect(throws: Never.self) { try recovery.validate(whole.progress) }
    let chunks = recovery.chunkCount
    for fields in [
      "\"doneBelow\": \(chunks + 1), \"doneChunks\": [], \"candidates\": 0",
      "\"doneBelow\": 0, \"doneChunks\": [\(chunks)], \"candidates\": 0",
      "\"doneBelow\": \(chunks), \"doneChunks\": [], \"candidates\": 0",
      "\"doneBelow\": 1, \"doneChunks\": [], \"candidates\": 257",
    ] {
      let progress = try checkpoint(fields)
      #expect(throws: RecoveryCheckpointError.self, "\(fields)") {
        try recovery.validate(progress)
      }
    }
    for fields in [
      "\"doneBelow\": 0, \"doneChunks\": [0], \"candidates\": 0",
      "\"doneBelow\": 0, \"doneChunks\": [2, 2], \"candidates\": 0",
      "\"doneBelow\": 0, \"doneChunks\": [3, 2], \"candidates\": 0",
      "\"doneBelow\": 18446744073709551615, \"doneChunks\": [], \"candidates\": 0",
    ] {
      #expect(throws: RecoveryCheckpointError.self, "\(fields)") { try checkpoint(fields) }
    }
    #expect(
      try checkpoint("\"doneBelow\": 1, \"doneChunks\": [], \"candidates\": 256").doneBelow == 1)
  }

  @Test func pathTemplates() throws {
    let paths = try DerivationPathTemplate("m/44'/60'/{0-1}'/0/{3-4}").paths.map(\.description)
    #expect(
      paths == ["m/44'/60'/0'/0/3", "m/44'/60'/0'/0/4", "m/44'/60'/1'/0/3", "m/44'/60'/1'/0/4"])
    #expect(
      try DerivationPathTemplate("m/44h/60H/0'/0/0").paths.map(\.description) == [
        "m/44'/60'/0'/0/0"
      ])
    for bad in ["", "m", "44'/60'", "m/{1-}", "m/{2-1}", "m/x", "m/{0-1000}", "m//0"] {
      #expect(throws: RecoveryError.self, "\(bad)") { try DerivationPathTemplate(bad) }
    }
  }
}

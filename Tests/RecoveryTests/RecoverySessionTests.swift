import CryptoPrimitives
import Dispatch
import Foundation
import Testing
import VaultKeys

@testable import Recovery

/// A checkpoint kept in memory.
final class MemoryCheckpoint: RecoveryCheckpointStore, @unchecked Sendable {
  var kept: RecoveryProgress?
  var saves = 0

  init(_ kept: RecoveryProgress? = nil) { self.kept = kept }

  func load() throws -> RecoveryProgress? { kept }

  func save(_ progress: RecoveryProgress) throws {
    kept = progress
    saves += 1
  }
}

/// The session in-process: its phases, events, checkpoints, deadline, and the part result it
/// leaves for a cluster's collector.
@Suite("recover: the session")
struct RecoverySessionTests {
  typealias F = RecoveryFixture

  static let truth = F.words(F.legalWinner)

  static func target() throws -> RecoveryTarget {
    .address(try F.profile(truth, .english).swarm.address, of: .swarm)
  }

  static func session(
    _ changes: [Int: String] = [:], swapped: Bool = false, damage: RecoveryDamage? = nil,
    targets: [RecoveryTarget]? = nil, passphrases: PassphraseSet = PassphraseSet(),
    shard: (Int, Int) = (1, 1), sharded: Bool = false
  ) throws -> RecoverySession {
    var words = truth
    if swapped { words.swapAt(0, 1) }
    let phrase = try DamagedPhrase(phrase: F.damaged(words, changes))
    return try RecoverySession(
      phrase: phrase, damage: damage, targets: try targets ?? [target()],
      passphrases: passphrases,
      configuration: .init(threads: 2, shardIndex: shard.0, shardCount: shard.1),
      sharded: sharded)
  }

  /// What each event was, in a word, in order.
  static func names(_ events: [RecoverySession.Event]) -> [String] {
    events.compactMap { event in
      switch event {
      case .measured: "measured"
      case .resuming(let phase, _): "resuming \(phase)"
      case .foundEarlier: "found earlier"
      case .phaseStarted(let phase): "phase \(phase.number)"
      case .searching: "searching"
      case .progress: nil
      case .phaseExhausted(let phase): "exhausted \(phase.number)"
      case .lastPhaseNext: "last next"
      case .checkpointNotSaved: "not saved"
      }
    }
  }

  @Test func automaticPhasesRunInTurnUntilOneMatches() throws {
    let session = try Self.session(swapped: true)
    #expect(session.isAutomatic)
    #expect(
      session.phases[0].kind == RecoveryPhase(extraWords: 0, missingWords: 0, swap: false, typos: 0)
    )
    var events: [RecoverySession.Event] = []
    let result = try session.run(onEvent: { events.append($0) })
    guard case .found(let found, let earlier) = result.ending else {
      Issue.record("no match: \(result.ending)")
      return
    }
    #expect(!earlier)
    #expect(result.phase.number == 2)
    #expect(result.phase.kind?.swap == true)
    #expect(try F.words(of: found) == Self.truth)
    #expect(
      Self.names(events) == [
        "measured", "phase 1", "searching", "exhausted 1", "phase 2", "searching",
      ])
  }

  /// A checkpoint that cannot be written never costs the match: the failure is said once, as
  /// an event, and the result carries the last one.
  @Test func aCheckpointThatCannotBeWrittenDoesNotStopTheSearch() throws {
    struct Full: Error, CustomStringConvertible {
      var description: String { "the disk is full" }
    }
    final class FailingCheckpoint: RecoveryCheckpointStore {
      var saves = 0
      func load() throws -> RecoveryProgress? { nil }
      func save(_ progress: RecoveryProgress) throws {
        saves += 1
        throw Full()
      }
    }
    let store = FailingCheckpoint()
    var events: [RecoverySession.Event] = []
    let result = try Self.session(swapped: true).run(
      checkpoint: store, onEvent: { events.append($0) })
    guard case .found(let found, _) = result.ending else {
      Issue.record("no match: \(result.ending)")
      return
    }
    #expect(try F.words(of: found) == Self.truth)
    // Phase 1's end and phase 2's end: two saves failed, said once.
    #expect(store.saves == 2)
    #expect(
      Self.names(events) == [
        "measured", "phase 1", "searching", "not saved", "exhausted 1", "phase 2", "searching",
      ])
    #expect(result.checkpointFailure == "the disk is full")
  }

  @Test func damageGivenOrShardedIsOneSearch() throws {
    let given = try Self.session(damage: RecoveryDamage(typos: 1))
    #expect(!given.isAutomatic)
    #expect(given.phases.count == 1)
    #expect(given.phases[0].kind == nil)
    let sharded = try Self.session(shard: (1, 2), sharded: true)
    #expect(!sharded.isAutomatic)
    #expect(sharded.phases.count == 1)
    #expect(sharded.phases[0].recovery.search.isAsWritten)
    // Without targets nothing can tell a phase found it: the one search, counted.
    let counting = try Self.session([12: "?"], targets: [])
    #expect(!counting.isAutomatic)
    let result = try counting.run(collect: 200)
    guard case .counted(let candidates) = result.ending else {
      Issue.record("not counted: \(result.ending)")
      return
    }
    #expect(result.progress?.candidates == 2048)
    #expect(result.progress?.checksumValid == 128)
    #expect(candidates?.count == 128)
    #expect(result.part == nil)
  }

  @Test func aStopKeepsACheckpointThatTheNextRunResumesAndThenFindsEarlier() throws {
    let store = MemoryCheckpoint()
    // 14 × 15 × 2048 candidates, the match some thousands of seeds in: more than one tick.
    let session = try Self.session([9: "le*", 11: "th*", 12: "?"], damage: RecoveryDamage())
    var searching = false
    // Stopped at the first question once the search (not the counting pass) is under way.
    let first = try session.run(
      checkpoint: store,
      shouldStop: { searching },
      onEvent: { event in
        if case .searching = event { searching = true }
      })
    guard case .stopped(let stop) = first.ending else {
      Issue.record("not stopped: \(first.ending)")
      return
    }
    #expect(stop == .interrupted)
    // The checkpoint written at the stop (it counts only the chunks done by then).
    #expect(try #require(store.kept).match == nil)
    let second = try session.run(checkpoint: store)
    guard case .found(_, let earlier) = second.ending else {
      Issue.record("not found: \(second.ending)")
      return
    }
    #expect(!earlier)
    let kept = try #require(store.kept)
    #expect(kept.match != nil)
    #expect(kept.shard == RecoveryProgress.Shard(index: 1, count: 1))
    #expect(kept.shape == session.phases[0].recovery.shapeHash)
    var events: [RecoverySession.Event] = []
    let third = try session.run(checkpoint: store, onEvent: { events.append($0) })
    guard case .found(let found, let earlier) = third.ending else {
      Issue.record("not found earlier: \(third.ending)")
      return
    }
    #expect(earlier)
    #expect(try F.words(of: found) == Self.truth)
    #expect(Self.names(events) == ["found earlier"])
  }

  @Test func aCheckpointThatDoesNotFitSaysWhatChanged() throws {
    let store = MemoryCheckpoint()
    let target = try Self.target()
    let original = try Self.session(
      [12: "?"], damage: RecoveryDamage(), shard: (1, 2), sharded: true)
    _ = try original.run(checkpoint: store)
    let kept = try #require(store.kept)

    func error(_ session: RecoverySession) -> RecoveryCheckpointError? {
      do {
        _ = try session.run(checkpoint: MemoryCheckpoint(kept))
        return nil
      } catch {
        return error as? RecoveryCheckpointError
      }
    }
    let otherPart = try Self.session(
      [12: "?"], damage: RecoveryDamage(), shard: (2, 2), sharded: true)
    #expect(error(otherPart) == .otherPart(index: 1, count: 2, runIndex: 2, runCount: 2))
    // The same count and options, another remembered word.
    let otherWord = try Self.session(
      [1: "letter", 12: "?"], damage: RecoveryDamage(), shard: (1, 2), sharded: true)
    #expect(error(otherWord) == .otherWordsOrPassphrases)
    let otherPassphrase = try Self.session(
      [12: "?"], damage: RecoveryDamage(),
      passphrases: PassphraseSet(passphrase: SecureBytes(utf8: "x")),
      shard: (1, 2), sharded: true)
    #expect(error(otherPassphrase) == .otherWordsOrPassphrases)
    let otherOptions = try Self.session(
      [12: "?"], damage: RecoveryDamage(allowsSwap: true), shard: (1, 2), sharded: true)
    #expect(error(otherOptions) == .otherOptions)
    let otherTargets = try Self.session(
      [12: "?"], damage: RecoveryDamage(),
      targets: [target, .address(try F.profile(Self.truth, .english).wallet.address)],
      shard: (1, 2), sharded: true)
    #expect(error(otherTargets) == .otherOptions)
    // A checkpoint of an earlier version holds neither: the general reason.
    var old = kept
    old.shard = nil
    old.shape = nil
    do {
      _ = try otherPart.run(checkpoint: MemoryCheckpoint(old))
      Issue.record("an old checkpoint of another part was taken")
    } catch let error as RecoveryCheckpointError {
      #expect(error == .otherSearch)
    }
  }

  @Test func aDeadlineStopsTheSessionAndSaysWhere() throws {
    let session = try Self.session([10: "?", 12: "?"], damage: RecoveryDamage())
    let during = try session.run(deadline: .now())
    guard case .stopped(let stop) = during.ending else {
      Issue.record("not stopped: \(during.ending)")
      return
    }
    #expect(stop == .deadline)
    // Automatic phases: the deadline is looked at between phases too.
    let automatic = try Self.session(swapped: true)
    let between = try automatic.run(deadline: .now() + .seconds(3600))
    guard case .found = between.ending else {
      Issue.record("a far deadline stopped it: \(between.ending)")
      return
    }
  }

  @Test func thePartResultReadsBackAndHoldsNoWord() throws {
    let session = try Self.session(
      [12: "?"], damage: RecoveryDamage(), shard: (3, 3), sharded: true)
    let result = try session.run()
    let part = try #require(result.part)
    #expect(part.index == 3)
    #expect(part.count == 3)
    #expect(part.found)
    #expect(part.complete)
    #expect(part.changes == [.init(position: 12, word: "yellow", was: "?")])
    let bytes = part.jsonBytes()
    let read = try ShardResult(json: bytes)
    #expect(
      read.found == part.found && read.changes == part.changes && read.matched == part.matched)
    #expect(read.candidates == part.candidates && read.searched == part.searched)
    #expect(read.checksumValid == part.checksumValid && read.checked == part.checked)
    #expect(read.search == part.search && read.searchCandidates == part.searchCandidates)
    let text = String(decoding: bytes, as: UTF8.self)
    for word in Self.truth.dropLast() { #expect(!text.contains(word)) }
  }

  /// A passphrase given with the phrase (no damage options) may be mistyped: the phrase as
  /// written with one typo of it is the phase after the phrase as written.
  @Test func aMistypedPassphraseIsTheSecondPhase() throws {
    let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: F.legalWinner))
    let profile = try FreedomProfile(mnemonic: mnemonic, passphrase: SecureBytes(utf8: "TREZOR"))
    let session = try Self.session(
      targets: [.address(profile.swarm.address, of: .swarm)],
      passphrases: PassphraseSet(passphrase: SecureBytes(utf8: "TREZR")))
    #expect(session.triesOtherPassphrases)
    #expect(session.phases[1].passphraseTypos == 1)
    #expect(session.phases[1].kind == session.phases[0].kind)
    #expect(session.phases.dropFirst(2).allSatisfy { $0.passphraseTypos == 0 })
    let result = try session.run()
    guard case .found(let found, _) = result.ending else {
      Issue.record("not found: \(result.ending)")
      return
    }
    #expect(result.phase.number == 2)
    #expect(text(found.passphrase) == "TREZOR")
    #expect(found.passphraseOrigin != .given && found.passphraseOrigin != .edits([]))
    // Without a passphrase given there is none to mistype.
    #expect(!(try Self.session()).triesOtherPassphrases)
  }
}

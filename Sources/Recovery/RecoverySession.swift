import CryptoPrimitives
import Dispatch
import Synchronization
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The damage a search allows, as given: every combination of up to these.
package struct RecoveryDamage: Sendable, Equatable {
  /// Words left out, anywhere.
  package var missingWords: Int
  /// Written words that are too many, anywhere.
  package var extraWords: Int
  /// Whether two adjacent words may be exchanged (once).
  package var allowsSwap: Bool
  /// Up to this many words anywhere may be wrong.
  package var typos: Int
  /// The 1-based positions known to hold their word when only the order is lost; nil: the
  /// order is as written. The order-lost model replaces the others (they stay zero).
  package var orderLostKeeping: [Int]?

  package init(
    missingWords: Int = 0, extraWords: Int = 0, allowsSwap: Bool = false, typos: Int = 0,
    orderLostKeeping: [Int]? = nil
  ) {
    self.missingWords = missingWords
    self.extraWords = extraWords
    self.allowsSwap = allowsSwap
    self.typos = typos
    self.orderLostKeeping = orderLostKeeping
  }
}

/// Where a search keeps its checkpoint: read once before the search, written as it goes.
package protocol RecoveryCheckpointStore {
  /// The checkpoint kept, or nil when there is none yet.
  func load() throws -> RecoveryProgress?
  /// Keeps `progress`, replacing the one kept before.
  func save(_ progress: RecoveryProgress) throws
}

/// One recovery from start to end: plans the phases (the likely kinds of damage in turn, or the
/// one search given), runs them with a checkpoint and a deadline, and reports what happens as
/// typed events, for a caller that only words them. The mechanism; what a candidate may be is
/// the damage and typo models' (`RecoverySearch`, `RecoveryPhase`, `PassphraseSet`).
package final class RecoverySession: Sendable {
  /// One search of the session.
  package struct Phase: Sendable {
    /// 1-based, of `RecoverySession.phases.count`.
    package let number: Int
    /// The kind of damage of an automatic phase; nil for the one search given.
    package let kind: RecoveryPhase?
    /// Typos of the remembered passphrase this phase tries (0: the passphrases given).
    package var passphraseTypos = 0
    package let recovery: PhraseRecovery
  }

  /// What a search is about to do, said before it starts.
  package struct Announcement: Sendable {
    package let phase: Phase
    /// The candidates of this run (its shard), every phrase with every passphrase.
    package let candidates: UInt64
    /// The checksum-valid candidates among them: counted exactly when few enough, else expected.
    package let checksumValid: Double
    package let checksumValidIsExact: Bool
    /// The seconds the rest of the search takes at the measured rate; nil without targets.
    package let estimatedSeconds: Double?
    /// Checksum-valid candidates a second at the measured rate; nil without targets.
    package let rate: Double?
    /// The checkpoint the search resumes from.
    package let resumed: RecoveryProgress?
  }

  /// What happens, in order.
  package enum Event: Sendable {
    /// What a candidate costs here, measured once before the first search (targets only).
    case measured(work: TargetMatcher.Stats, fewest: TargetMatcher.Stats)
    /// The checkpoint is of phase `phase` (above 1): the phases before it were searched to
    /// their end.
    case resuming(phase: Int, of: Int)
    /// The checkpoint records this search's match: it was derived again and checked; nothing
    /// is searched.
    case foundEarlier
    /// An automatic phase begins (before its candidates are counted).
    case phaseStarted(Phase)
    /// A search starts.
    case searching(Announcement)
    /// How far the search got, about every `progressInterval` seconds.
    case progress(RecoveryProgress, Announcement)
    /// A phase was searched to its end without a match; the next one follows.
    case phaseExhausted(Phase)
    /// The next phase is the last and widest: the likelier ones found nothing.
    case lastPhaseNext
    /// The checkpoint could not be written (said once a session, with the store's reason); the
    /// search goes on and tries again at the next save.
    case checkpointNotSaved(reason: String)
  }

  /// Why a session stopped before its end.
  package enum Stop: Sendable, Equatable {
    /// The caller asked it to (Ctrl-C, SIGTERM).
    case interrupted
    /// Stopped while the checksum-valid candidates were counted, before the search began.
    case interruptedWhileCounting
    /// The deadline passed during a search.
    case deadline
    /// The deadline passed between phases: phase `phase` was not begun.
    case deadlineBeforePhase(Int)

    /// Whether no search was under way (between phases).
    package var isBetweenPhases: Bool {
      if case .deadlineBeforePhase = self { true } else { false }
    }
  }

  /// How a session ended.
  package enum Ending: Sendable {
    /// A candidate matched the targets (`earlier`: the checkpoint recorded it).
    case found(RecoveredPhrase, earlier: Bool)
    /// Every candidate of every phase was searched; none matched.
    case exhausted
    /// Without targets: the candidates were counted; the checksum-valid ones when at most
    /// the number asked (nil: more).
    case counted([RecoveredPhrase]?)
    /// Stopped; a checkpoint (if kept) lets the next run continue.
    case stopped(Stop)
  }

  /// The end of a session: how it ended, the phase it ended in and how far that phase got.
  package struct Result: Sendable {
    package let ending: Ending
    package let phase: Phase
    /// Nil when stopped before the phase's search began.
    package let progress: RecoveryProgress?
    /// Why the last save of the checkpoint failed; nil when it was written (or none is kept).
    /// The result stands: the checkpoint only lets a later run continue.
    package var checkpointFailure: String?

    /// The part result a cluster collects (`ShardCollection`): what this run did, no word of
    /// the phrase as written and no passphrase. Nil without targets (nothing to collect).
    package var part: ShardResult? {
      let recovery = phase.recovery
      guard !recovery.targets.isEmpty else { return nil }
      var found: RecoveredPhrase?
      var earlier = false
      var complete = false
      switch ending {
      case .found(let phrase, let wasEarlier):
        (found, earlier, complete) = (phrase, wasEarlier, true)
      case .exhausted, .counted: complete = true
      case .stopped: break
      }
      return ShardResult(
        recovery: recovery, progress: progress, found: found, foundEarlier: earlier,
        complete: complete)
    }
  }

  package let phases: [Phase]
  /// Whether a phase tries passphrases other than the one given (a match then says which).
  package var triesOtherPassphrases: Bool {
    phases.contains { $0.recovery.passphrases.count > 1 }
  }
  /// Whether the phases are the automatic ones (no damage given, targets, one whole search).
  package let isAutomatic: Bool
  package let targets: [RecoveryTarget]
  /// Whether a failed save was said (`Event.checkpointNotSaved`): once a session.
  private let saveFailureSaid = Atomic<Bool>(false)

  /// The session of `phrase`: with `damage` nil and targets given, the automatic phases (the
  /// likely kinds of damage in turn, cheapest first), unless the search is cut into shards (the
  /// shards of a search must be one search); else the one search `damage` (or none) allows.
  /// A passphrase given is mistyped as `typos` models it.
  package init(
    phrase: DamagedPhrase, damage: RecoveryDamage?, targets: [RecoveryTarget],
    passphrases: PassphraseSet, configuration: PhraseRecovery.Configuration, sharded: Bool,
    typos: TypoModel = TypoModel()
  ) throws(RecoveryError) {
    self.targets = targets
    isAutomatic = damage == nil && !targets.isEmpty && !sharded
    func recovery(_ search: RecoverySearch) throws(RecoveryError) -> PhraseRecovery {
      try PhraseRecovery(
        search: search, targets: targets, passphrases: passphrases, configuration: configuration)
    }
    if isAutomatic {
      let plan = RecoveryPhase.plan(for: phrase)
      // No phase fits the word count: the error a search of it gives.
      guard !plan.isEmpty else { throw Self.wordCountError(of: phrase) }
      var phases: [(RecoveryPhase, RecoverySearch, PassphraseSet?)] = plan.map { ($0, $1, nil) }
      // A passphrase given is as likely mistyped as a word: the phrase as written with one
      // typo of it comes right after the phrase as written.
      if let given = passphrases.given, given.count > 0,
        let asWritten = phases.firstIndex(where: { $0.1.isAsWritten })
      {
        let typos = try PassphraseSet(remembered: given, edits: 1, typos: typos)
        phases.insert((phases[asWritten].0, phases[asWritten].1, typos), at: asWritten + 1)
      }
      var planned: [Phase] = []
      for (index, (kind, search, typos)) in phases.enumerated() {
        var phase = Phase(
          number: index + 1, kind: kind,
          recovery: try PhraseRecovery(
            search: search, targets: targets, passphrases: typos ?? passphrases,
            configuration: configuration))
        phase.passphraseTypos = typos == nil ? 0 : 1
        planned.append(phase)
      }
      self.phases = planned
    } else {
      let damage = damage ?? RecoveryDamage()
      let search: RecoverySearch
      if let kept = damage.orderLostKeeping {
        search = try RecoverySearch(phrase: phrase, orderLostKeeping: kept)
      } else {
        search = try RecoverySearch(
          phrase: phrase, missingWords: damage.missingWords, extraWords: damage.extraWords,
          allowsSwap: damage.allowsSwap, typos: damage.typos)
      }
      phases = [Phase(number: 1, kind: nil, recovery: try recovery(search))]
    }
  }

  private static func wordCountError(of phrase: DamagedPhrase) -> RecoveryError {
    do {
      _ = try RecoverySearch(phrase: phrase)
    } catch {
      return error
    }
    return .invalidWordCount(remembered: phrase.words.count, missing: 0)
  }

  /// The name of the checkpoint a run keeps by itself: hex digits of a hash of every phase's
  /// public search hash and the part run, so the same search (and only it) finds it again.
  package var checkpointName: String {
    var bytes = Array("freedom-keys phrase session 1\0".utf8)
    for phase in phases { bytes += phase.recovery.searchHash }
    for number in [configuration.shardIndex, configuration.shardCount] {
      withUnsafeBytes(of: UInt64(number).littleEndian) { bytes += $0 }
    }
    return "recover-" + Hex.encode(SHA256.hash(bytes))
  }

  /// How every phase is run (threads, shard, chunk size): the same for all of them.
  package var configuration: PhraseRecovery.Configuration { phases[0].recovery.configuration }

  // MARK: - Running

  /// Runs the phases from the checkpoint's (or the first) to a match, the end of the last, a
  /// stop or `deadline`. `shouldStop` is asked about every 0.2 s; `onEvent` is called on the
  /// calling thread. Without targets the one search counts the checksum-valid candidates and
  /// keeps up to `collect` of them. Throws `RecoveryCheckpointError` for a checkpoint that
  /// does not fit, and what `checkpoint` throws.
  package func run(
    checkpoint: (any RecoveryCheckpointStore)? = nil, deadline: DispatchTime? = nil,
    progressInterval: Double = 30, collect: Int = 0, shouldStop: () -> Bool = { false },
    onEvent: (Event) -> Void = { _ in }
  ) throws -> Result {
    // A checkpoint is of one phase; the phases before it were searched to their end.
    var first = 0
    var resumed: RecoveryProgress?
    if let checkpoint, let progress = try checkpoint.load() {
      guard let index = phases.firstIndex(where: { $0.recovery.searchHash == progress.searchHash })
      else { throw mismatch(progress) }
      try phases[index].recovery.validate(progress)
      (first, resumed) = (index, progress)
    }
    if let resumed, resumed.match != nil {
      let phase = phases[first]
      let outcome = try phase.recovery.run(resumingFrom: resumed)
      if first > 0 { onEvent(.resuming(phase: first + 1, of: phases.count)) }
      onEvent(.foundEarlier)
      return Result(
        ending: outcome.found.map { .found($0, earlier: true) } ?? .exhausted, phase: phase,
        progress: outcome.progress)
    }

    // Measured once: every phase has the same targets and passphrases, so the same cost.
    var secondsPerCandidate: Double?
    if !targets.isEmpty {
      let (seconds, work, fewest) = phases[0].recovery.measureCandidates()
      secondsPerCandidate = seconds
      onEvent(.measured(work: work, fewest: fewest))
    }
    if first > 0 { onEvent(.resuming(phase: first + 1, of: phases.count)) }

    for index in first..<phases.count {
      let phase = phases[index]
      let result = try search(
        phase, resumed: index == first ? resumed : nil, checkpoint: checkpoint,
        deadline: deadline, progressInterval: progressInterval, collect: collect,
        secondsPerCandidate: secondsPerCandidate, shouldStop: shouldStop, onEvent: onEvent)
      guard case .exhausted = result.ending, index + 1 < phases.count else { return result }
      onEvent(.phaseExhausted(phase))
      if let deadline, DispatchTime.now() >= deadline {
        return Result(
          ending: .stopped(.deadlineBeforePhase(index + 2)), phase: phase,
          progress: result.progress, checkpointFailure: result.checkpointFailure)
      }
      if index + 2 == phases.count { onEvent(.lastPhaseNext) }
    }
    // Not reached: the loop returns in its last phase.
    preconditionFailure("a session has at least one phase")
  }

  /// Why a checkpoint whose hash fits no phase does not: another part, other options or
  /// targets, or other words or passphrases (the checkpoint's public parts tell which).
  private func mismatch(_ progress: RecoveryProgress) -> RecoveryCheckpointError {
    let configuration = self.configuration
    if let shard = progress.shard,
      shard.index != configuration.shardIndex || shard.count != configuration.shardCount
    {
      return .otherPart(
        index: shard.index, count: shard.count, runIndex: configuration.shardIndex,
        runCount: configuration.shardCount)
    }
    if let shape = progress.shape {
      return phases.contains(where: { $0.recovery.shapeHash == shape })
        ? .otherWordsOrPassphrases : .otherOptions
    }
    return .otherSearch
  }

  /// Runs one phase's search to its end, a match, a stop or the deadline.
  private func search(
    _ phase: Phase, resumed: RecoveryProgress?, checkpoint: (any RecoveryCheckpointStore)?,
    deadline: DispatchTime?, progressInterval: Double, collect: Int,
    secondsPerCandidate: Double?, shouldStop: () -> Bool, onEvent: (Event) -> Void
  ) throws -> Result {
    let recovery = phase.recovery
    if isAutomatic { onEvent(.phaseStarted(phase)) }
    guard let (valid, exact) = checksumValidCount(recovery, shouldStop: shouldStop) else {
      return Result(ending: .stopped(.interruptedWhileCounting), phase: phase, progress: resumed)
    }
    let candidates = UInt64(recovery.range.count)
    var estimate: Double?
    var rate: Double?
    if let perCandidate = secondsPerCandidate {
      let parallel = Double(
        min(recovery.configuration.threads, ProcessInfo.processInfo.activeProcessorCount))
      var seconds = valid * perCandidate / parallel
      if let resumed, candidates > 0 {
        seconds *= max(0, 1 - Double(resumed.candidates) / Double(candidates))
      }
      (estimate, rate) = (seconds, perCandidate > 0 ? parallel / perCandidate : nil)
    }
    let announcement = Announcement(
      phase: phase, candidates: candidates, checksumValid: valid, checksumValidIsExact: exact,
      estimatedSeconds: estimate, rate: rate, resumed: resumed)
    onEvent(.searching(announcement))

    var lastCheckpoint = DispatchTime.now().uptimeNanoseconds
    var lastEvent = lastCheckpoint
    var saveFailure: String?
    var stoppedByCaller = false
    let outcome = try recovery.run(
      resumingFrom: resumed, collect: collect, tick: min(0.2, progressInterval)
    ) { progress in
      let now = DispatchTime.now().uptimeNanoseconds
      if let checkpoint, now - lastCheckpoint > 5_000_000_000 {
        lastCheckpoint = now
        // A checkpoint that cannot be written now is tried again at the next save; the search
        // goes on, since its answer matters more than where it got to.
        saveFailure = self.save(progress, to: checkpoint, onEvent: onEvent)
      }
      if Double(now - lastEvent) / 1e9 >= progressInterval {
        lastEvent = now
        onEvent(.progress(progress, announcement))
      }
      if shouldStop() {
        stoppedByCaller = true
        return false
      }
      return deadline.map { now < $0.uptimeNanoseconds } ?? true
    }
    if let checkpoint { saveFailure = save(outcome.progress, to: checkpoint, onEvent: onEvent) }
    let ending: Ending
    if !outcome.isComplete {
      ending = .stopped(stoppedByCaller || shouldStop() ? .interrupted : .deadline)
    } else if recovery.targets.isEmpty {
      ending = .counted(
        outcome.candidates.count == outcome.progress.checksumValid
          ? outcome.candidates : nil)
    } else {
      ending = outcome.found.map { .found($0, earlier: false) } ?? .exhausted
    }
    var result = Result(ending: ending, phase: phase, progress: outcome.progress)
    result.checkpointFailure = saveFailure
    return result
  }

  /// Saves `progress`, returning why it could not be; the first failure of the session is
  /// said as an event, the later ones only returned.
  private func save(
    _ progress: RecoveryProgress, to checkpoint: any RecoveryCheckpointStore,
    onEvent: (Event) -> Void
  ) -> String? {
    do {
      try checkpoint.save(progress)
      return nil
    } catch {
      let reason = String(describing: error)
      if !saveFailureSaid.exchange(true, ordering: .relaxed) {
        onEvent(.checkpointNotSaved(reason: reason))
      }
      return reason
    }
  }

  /// The checksum-valid count before starting: exact for up to 2^22 phrases, else expected;
  /// nil when stopped while counting. Without targets the search itself counts, so this is
  /// only expected.
  private func checksumValidCount(_ recovery: PhraseRecovery, shouldStop: () -> Bool)
    -> (Double, exact: Bool)?
  {
    let passphrases = recovery.passphrases.count
    let shards = recovery.configuration.shardCount
    let expected =
      recovery.search.expectedChecksumValidCount * Double(passphrases) / Double(shards)
    guard !recovery.targets.isEmpty else { return (expected, false) }
    // With several passphrases a shard's range cuts across them: counted exactly when whole.
    guard UInt64(recovery.range.count) / UInt64(passphrases) <= 1 << 22,
      passphrases == 1 || shards == 1,
      let counting = try? PhraseRecovery(
        search: recovery.search, targets: [],
        configuration: .init(
          threads: recovery.configuration.threads, shardIndex: recovery.configuration.shardIndex,
          shardCount: shards))
    else { return (expected, false) }
    var stopped = false
    guard
      let outcome = try? counting.run(
        collect: 0,
        onTick: { _ in
          stopped = stopped || shouldStop()
          return !stopped
        }), outcome.isComplete, !stopped
    else { return nil }
    return (Double(outcome.progress.checksumValid) * Double(passphrases), true)
  }
}

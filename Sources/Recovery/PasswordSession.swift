import CryptoPrimitives
import Dispatch

/// Where a password search keeps its checkpoint: read once before the search, written as it
/// goes.
package protocol PasswordCheckpointStore {
  /// The checkpoint kept, or nil when there is none yet.
  func load() throws -> PasswordCheckpoint?
  /// Keeps `checkpoint`, replacing the one kept before.
  func save(_ checkpoint: PasswordCheckpoint) throws
}

/// One password search from start to end: the phases (with only the password as remembered,
/// its levels of typos in turn, likeliest first; else the one search), the part of each this
/// run takes, a checkpoint and a deadline, and what happens as typed events for a caller that
/// only words them.
package final class PasswordSession {
  /// One phase: a level of the remembered password's typos (or every password), and the part
  /// of it this run searches.
  package struct Phase: Sendable {
    /// 1 for the first.
    package let number: Int
    /// The level searched; nil when the one search has no levels.
    package let level: PasswordSet.Level?
    /// The passwords of the phase this run tries.
    package let share: Range<Int>
  }

  /// The part of the search a run takes: its share of each phase.
  package struct Part: Sendable {
    /// 1-based, of `count`.
    package let index: Int
    package let count: Int
    /// The search's public hash (`PasswordSearch.searchHash`).
    package let search: [UInt8]
    package let ranges: [Range<Int>]

    /// The passwords of the part.
    package var candidates: Int { ranges.reduce(0) { $0 + $1.count } }

    /// The part's passwords below `doneBelow`: those a checkpoint records as tried.
    package func searched(below doneBelow: Int) -> Int {
      ranges.reduce(0) { $0 + min(max(doneBelow - $1.lowerBound, 0), $1.count) }
    }
  }

  package enum Event {
    /// A checkpoint records the password found: it was opened again, nothing searched.
    case foundEarlier
    /// A checkpoint records this many of the run's passwords as tried.
    case resuming(tried: Int)
    case phaseStarted(Phase)
    /// How far the phase got, of the `of` passwords this run tries of it.
    case progress(PasswordSearch.Progress, of: Int)
    /// The phase found nothing; the next one follows.
    case phaseExhausted(Phase)
    /// The checkpoint could not be written (said once a run, with the store's reason); the
    /// search goes on and tries again at the next save.
    case checkpointNotSaved(reason: String)
  }

  /// A checkpoint that cannot be used: of another search, of another part of it, or not one
  /// (what the store's `load` threw).
  package struct CheckpointMismatch: Error {
    /// `.otherSearch`, `.otherPart`, or why the checkpoint could not be read.
    package let reason: PasswordRecoveryError
  }

  /// How the session ended.
  package struct Result {
    package let outcome: PasswordSearch.Outcome
    /// The passwords tried by this run, phases before included.
    package let searched: UInt64
    /// Every password below it was tried (as a checkpoint says).
    package let doneBelow: Int
    /// The deadline stopped it.
    package let expired: Bool
    /// The match is the one a checkpoint recorded.
    package let earlier: Bool
    /// Why the last save of the checkpoint failed; nil when it was written (or none is kept).
    /// The result stands: the checkpoint only lets a later run continue.
    package var checkpointFailure: String?
  }

  package let search: PasswordSearch
  package let phases: [Phase]
  /// The part this run takes; nil when the search is not split.
  package let part: Part?
  /// The search's public hash, when a part or a checkpoint needs it.
  private let hash: [UInt8]?

  /// With `automatic`, the remembered password's levels are the phases; `part` of `parts`
  /// takes its share of each. `hashed`: a checkpoint is kept, so the search's hash is needed.
  package init(
    _ search: PasswordSearch, automatic: Bool, part index: Int = 1, of count: Int = 1,
    sharded: Bool = false, hashed: Bool = false
  ) throws(PasswordRecoveryError) {
    self.search = search
    let levels: [(PasswordSet.Level?, Range<Int>)] =
      automatic
      ? search.passwords.levels.map { ($0.level, $0.passwords) }
      : [(nil, 0..<search.passwords.count)]
    let phases = levels.enumerated().map { number, level in
      Phase(
        number: number + 1, level: level.0,
        share: SearchSplit.range(of: level.1, part: index, of: count))
    }
    let hash = sharded || hashed ? try search.searchHash() : nil
    part =
      sharded
      ? hash.map { Part(index: index, count: count, search: $0, ranges: phases.map(\.share)) } : nil
    (self.phases, self.hash) = (phases, hash)
  }

  /// The name of the checkpoint a run keeps by itself (hex digits of a hash of the search's
  /// public hash and the part run: the same search, and only it, finds it again); nil when the
  /// session was made without its hash.
  package var checkpointName: String? {
    guard let hash else { return nil }
    var bytes = Array("freedom-keys password session 1\0".utf8) + hash
    for number in [part?.index ?? 1, part?.count ?? 1] {
      withUnsafeBytes(of: UInt64(number).littleEndian) { bytes += $0 }
    }
    return "password-" + Hex.encode(SHA256.hash(bytes))
  }

  /// Runs the phases from where `checkpoint` left off to a match, the end of the last, a stop
  /// or `deadline`. `shouldStop` is asked about every 0.2 s; `onEvent` is called on the
  /// calling thread, progress every `progressInterval` seconds. Throws
  /// `CheckpointMismatch` for a checkpoint of another search or part (or that `checkpoint`
  /// cannot read as one: its `PasswordRecoveryError`), what the search throws
  /// (`PasswordRecoveryError`) and what `checkpoint` throws.
  package func run(
    checkpoint: (any PasswordCheckpointStore)? = nil, deadline: DispatchTime? = nil,
    progressInterval: Double = 30, shouldStop: () -> Bool = { false },
    onEvent: (Event) -> Void = { _ in }
  ) throws -> Result {
    let (index, count) = (part?.index ?? 1, part?.count ?? 1)
    // A checkpoint that cannot be written is tried again at the next save; the search goes
    // on, since its answer matters more than where it got to. The first failure is said.
    var (saveFailure, failureSaid): (String?, Bool) = (nil, false)
    func save(_ doneBelow: Int, found: Int? = nil) {
      guard let checkpoint else { return }
      do {
        try checkpoint.save(
          PasswordCheckpoint(
            search: hash ?? [], doneBelow: doneBelow, found: found, shard: (index, count)))
        saveFailure = nil
      } catch {
        saveFailure = String(describing: error)
        if !failureSaid { onEvent(.checkpointNotSaved(reason: saveFailure ?? "")) }
        failureSaid = true
      }
    }
    var doneBelow = 0
    let saved: PasswordCheckpoint?
    do {
      saved = try checkpoint?.load()
    } catch let error as PasswordRecoveryError {
      throw CheckpointMismatch(reason: error)
    }
    if let saved {
      guard saved.search == hash ?? [] else { throw CheckpointMismatch(reason: .otherSearch) }
      guard saved.shard == (index, count) else {
        throw CheckpointMismatch(
          reason: .otherPart(index: saved.shard.index, count: saved.shard.count))
      }
      if let found = saved.found {
        onEvent(.foundEarlier)
        return Result(
          outcome: try search.reopen(found), searched: 0, doneBelow: saved.doneBelow,
          expired: false, earlier: true)
      }
      // A checkpoint past the search's end was changed or is of another search: believed, it
      // would say passwords were tried that never were.
      guard saved.doneBelow <= search.candidateCount else {
        throw CheckpointMismatch(
          reason: .checkpointPastEnd(doneBelow: saved.doneBelow, count: search.candidateCount))
      }
      doneBelow = saved.doneBelow
      onEvent(.resuming(tried: part?.searched(below: doneBelow) ?? doneBelow))
    }
    var searched: UInt64 = 0
    var expired: Bool { deadline.map { DispatchTime.now() >= $0 } ?? false }
    for phase in phases {
      if phase.level != nil { onEvent(.phaseStarted(phase)) }
      // What a checkpoint records as tried is not tried again.
      let share = phase.share
      let range = min(max(share.lowerBound, doneBelow), share.upperBound)..<share.upperBound
      var (shown, lastSaved) = (0.0, 0.0)
      let outcome = try search.run(range: range) { progress in
        if progress.seconds - shown >= progressInterval {
          shown = progress.seconds
          onEvent(.progress(progress, of: range.count))
        }
        if checkpoint != nil, progress.seconds - lastSaved >= 5 {
          lastSaved = progress.seconds
          save(max(doneBelow, progress.doneBelow))
        }
        return !shouldStop() && !expired
      }
      // An empty share leaves its start, which may be below what was tried.
      doneBelow = max(doneBelow, outcome.progress.doneBelow)
      save(doneBelow, found: outcome.found?.index)
      searched += outcome.progress.searched
      if outcome.found == nil, outcome.isComplete, phase.number < phases.count {
        onEvent(.phaseExhausted(phase))
        continue
      }
      return Result(
        outcome: outcome, searched: searched, doneBelow: doneBelow, expired: expired,
        earlier: false, checkpointFailure: saveFailure)
    }
    // Not reached: the loop returns in its last phase.
    preconditionFailure("a password session has at least one phase")
  }

  /// The part's result for merging with the others' (no password in it); nil when the search
  /// is not split.
  package func partResult(_ result: Result) -> ShardResult? {
    guard let part else { return nil }
    let outcome = result.outcome
    let tried =
      outcome.isComplete && outcome.found == nil
      ? part.candidates : part.searched(below: result.doneBelow)
    return ShardResult(
      password: search.target, search: part.search, part: part.index, of: part.count,
      candidates: UInt64(part.candidates), searchCandidates: UInt64(search.candidateCount),
      searched: UInt64(tried), opened: outcome.found?.opened, foundEarlier: result.earlier,
      complete: outcome.isComplete, seconds: outcome.progress.seconds)
  }
}

extension PasswordSet.Level: CustomStringConvertible {
  /// How a phase of this level is announced: "one likely typo".
  package var description: String {
    switch self {
    case .remembered: "the password as remembered"
    case .likelyTypos(1): "one likely typo"
    case .likelyTypos(let count): count == 2 ? "two likely typos" : "\(count) likely typos"
    case .oneEdit: "one edit"
    }
  }
}

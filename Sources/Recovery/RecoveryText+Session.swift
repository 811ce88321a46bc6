import CryptoPrimitives
import VaultKeys

/// How a phrase search's events and ends read, in words that name no tool and no option: the
/// caller adds how to continue, what widens the search and what it wrote.
extension RecoveryText {
  // MARK: - Events

  /// How `event` reads, `phases` the session's count and `checkpoint` the file a checkpoint is
  /// kept in. The engine line (`.measured`) ends with its newline; `.progress` is the progress
  /// line; `.lastPhaseNext` is the start of a sentence the caller ends with what else than the
  /// words could explain no match.
  package static func line(
    _ event: RecoverySession.Event, phases: Int, checkpoint: String,
    backend: PBKDF2Backend = .cpu
  ) -> String {
    switch event {
    case .measured(let work, let fewest):
      engineLine(work: work, fewest: fewest, backend: backend)
    case .resuming(let phase, let of):
      "resuming at phase \(phase) of \(of): \(checkpoint) shows the phases before it searched "
        + "to their end"
    case .foundEarlier:
      "found earlier: \(checkpoint) records this search's match, derived again from the phrase "
        + "and checked against the targets; nothing was searched"
    case .phaseStarted(let phase):
      "phase \(phase.number) of \(phases): \(label(phase))"
    case .searching(let announcement):
      self.announcement(announcement)
    case .progress(let done, let announcement):
      progress(done, announcement)
    case .phaseExhausted(let phase):
      "phase \(phase.number) of \(phases) (\(label(phase))): no match in "
        + "\(grouped(UInt64(phase.recovery.range.count))) candidates"
    case .lastPhaseNext:
      // The last phase is the widest by far: what else could explain the likelier phases'
      // finding nothing comes before it.
      "the likelier phases found nothing; if the phrase is nearly right, the targets may be "
        + "what differs"
    case .checkpointNotSaved(let reason): checkpointNotSaved(reason)
    }
  }

  /// A save that failed during a search, said once: the search goes on.
  package static func checkpointNotSaved(_ reason: String) -> String {
    "\(reason); the search goes on, tries again every 5 s and delivers a match all the same"
  }

  // MARK: - The end

  /// The stop that needs no more words: "interrupted while counting, before the search
  /// started".
  package static let interruptedWhileCounting =
    "interrupted while counting, before the search started"

  /// How far a stopped session got: "41.2% (1,728 of 4,194 candidates)", with " of phase 2 of
  /// 5 (one word mistyped)" for an automatic phase.
  package static func searched(_ result: RecoverySession.Result, phases: Int) -> String {
    let phase = result.phase
    let done = done(
      result.progress?.candidates ?? 0, of: UInt64(phase.recovery.range.count))
    guard phase.kind != nil else { return done }
    return done + " of phase \(phase.number) of \(phases) (\(label(phase)))"
  }

  /// Why a session that searched everything found nothing: "no candidate matched the targets:
  /// all 5 phases searched, the last of all 4,194 candidates (262 checksum-valid) were
  /// searched"; for a part, "no candidate of shard 2/3 matched the targets: …".
  package static func exhausted(
    _ result: RecoverySession.Result, automatic: Bool, phases: Int
  ) -> String {
    let candidates = UInt64(result.phase.recovery.range.count)
    let progress = result.progress
    let searched =
      progress?.candidates == candidates
      ? "all \(grouped(candidates)) candidates"
      : "\(grouped(progress?.candidates ?? 0)) of \(grouped(candidates)) candidates"
    let valid = "(\(grouped(progress?.checksumValid ?? 0)) checksum-valid) were searched"
    let configuration = result.phase.recovery.configuration
    if configuration.shardCount > 1 {
      return
        "no candidate of shard \(configuration.shardIndex)/\(configuration.shardCount) matched "
        + "the targets: \(searched) \(valid)"
    }
    let all = automatic ? "all \(phases) phases searched, the last of " : ""
    return "no candidate matched the targets: \(all)\(searched) \(valid)"
  }

  /// A count without targets: "4,096 candidates, 256 pass the checksum".
  package static func counted(candidates: Int, checksumValid valid: UInt64) -> String {
    let noun = candidates == 1 ? "candidate" : "candidates"
    let verb = valid == 1 ? "passes" : "pass"
    return "\(grouped(UInt64(candidates))) \(noun), \(grouped(valid)) \(verb) the checksum"
  }

  /// A count without targets as JSON: the candidates, those that pass the checksum, how many
  /// of them were `written` (when they were) and the seconds it took.
  package static func countedJSON(
    candidates: Int, progress: RecoveryProgress?, written: Bool
  ) -> JSONValue {
    let valid = progress?.checksumValid ?? 0
    var object: JSONObject = [
      "candidates": .number(UInt64(candidates)), "checksumValid": .number(valid),
    ]
    if written { object.append("written", .number(valid)) }
    object.append("seconds", .tenths(progress?.seconds ?? 0))
    return .object(object)
  }
}

import CryptoPrimitives
import VaultKeys

/// How a password search's start, events and end read, in words that name no tool and no
/// option (never the password): the caller adds how to continue, what widens the search and
/// what it wrote.
extension RecoveryText {
  /// The engine, then what is searched: "engine: …\nsearching 371 passwords of
  /// identity-vault.json (PBKDF2-HMAC-SHA256, 900000 iterations) on 2 threads\n".
  package static func announcement(_ session: PasswordSession, file: String) -> String {
    let search = session.search
    let count = UInt64(search.candidateCount)
    let engine =
      search.target.batchSize == 1
      ? "scrypt (libsodium), one password a thread"
      : engineName(search.backend, cpu: PBKDF2SHA256Batch.engine)
    let what =
      session.part.map {
        "\(grouped(UInt64($0.candidates))) of \(grouped(count)) passwords (shard \($0.index)/"
          + "\($0.count))"
      } ?? Self.count(search.candidateCount, "password")
    // A token list's passwords are numbered, not compared: one may come twice.
    let repeats = search.passwords.mayRepeat ? " (duplicates possible)" : ""
    return
      "engine: \(engine)\n\(memoryLimit(search) ?? "")searching \(what)\(repeats) against \(file) "
      + "(\(search.target.kdfDescription)) on \(Self.count(search.threads, "thread"))\n"
  }

  /// "scrypt needs 1,921 MiB a try: using 1 thread of 2 (2,048 MiB for every thread
  /// together)\n" where memory left fewer threads than asked for; nil otherwise.
  package static func memoryLimit(_ search: PasswordSearch) -> String? {
    guard search.threads < search.requestedThreads, let perTry = search.target.memoryPerTry,
      let budget = search.memoryBudget
    else { return nil }
    return
      "scrypt needs \(grouped(mebibytes(perTry, roundedUp: true))) MiB a try: using "
      + "\(search.threads) \(search.threads == 1 ? "thread" : "threads") of "
      + "\(search.requestedThreads) (\(grouped(mebibytes(budget))) MiB for every thread "
      + "together)\n"
  }

  /// `bytes` in MiB, rounded down or up.
  package static func mebibytes(_ bytes: UInt64, roundedUp: Bool = false) -> UInt64 {
    roundedUp ? bytes / (1 << 20) + (bytes % (1 << 20) == 0 ? 0 : 1) : bytes >> 20
  }

  /// How `event` reads, `phases` the session's count and `checkpoint` the file a checkpoint is
  /// kept in; `.progress` is the progress line.
  package static func line(
    _ event: PasswordSession.Event, phases: Int, checkpoint: String
  ) -> String {
    func label(_ phase: PasswordSession.Phase) -> String { phase.level?.description ?? "" }
    return switch event {
    case .foundEarlier:
      "found earlier: \(checkpoint) records which password opened the file; it was opened "
        + "again, nothing was searched"
    case .resuming(let tried):
      "resuming from \(checkpoint): the first \(grouped(UInt64(tried))) passwords were tried"
    case .phaseStarted(let phase):
      "phase \(phase.number) of \(phases): \(label(phase)) "
        + "(\(count(phase.share.count, "password")))"
    case .progress(let done, let total):
      progress(done, of: total)
    case .phaseExhausted(let phase):
      "phase \(phase.number) of \(phases) (\(label(phase))): no match in "
        + count(phase.share.count, "password")
    case .checkpointNotSaved(let reason): checkpointNotSaved(reason)
    }
  }

  /// "41.2% (1,728 of 4,194 passwords) · 21/s · ETA 2 min".
  private static func progress(_ done: PasswordSearch.Progress, of total: Int) -> String {
    let rate = done.seconds > 0 ? Double(done.searched) / done.seconds : 0
    return progress(
      done: done.searched, of: UInt64(total), "passwords",
      rate: rate < 100 ? "\((rate * 10).rounded() / 10)" : grouped(UInt64(rate)),
      rateValue: rate, left: Double(UInt64(total) - min(UInt64(total), done.searched)))
  }

  /// How far a search that stopped got: "1,000 of 4,194 passwords tried".
  package static func tried(_ result: PasswordSession.Result, of session: PasswordSession)
    -> String
  {
    "\(grouped(result.searched)) of \(grouped(UInt64(session.search.candidateCount))) "
      + "passwords tried"
  }

  /// Why a search that tried every password found none: "no password opened FILE: all 371
  /// candidates tried"; for a part, "no password of shard 2/3 opened FILE: all 124 of its
  /// passwords tried".
  package static func exhausted(_ session: PasswordSession, file: String) -> String {
    if let part = session.part {
      return
        "no password of shard \(part.index)/\(part.count) opened \(file): all "
        + "\(grouped(UInt64(part.candidates))) of its passwords tried"
    }
    let count = session.search.candidateCount
    return
      "no password opened \(file): "
      + (count == 1 ? "the one candidate" : "all \(grouped(UInt64(count))) candidates")
      + " tried"
  }

  /// What opened, as JSON: the file, what it opened and how the password was found (never the
  /// password), the candidates, how many were tried and the seconds it took.
  package static func json(
    _ result: PasswordSession.Result, of session: PasswordSession, file: String
  ) -> JSONObject? {
    guard let found = result.outcome.found else { return nil }
    var object: JSONObject = ["found": .bool(true), "file": .string(file)]
    json(session.search.passwords.origin(found.index), found.opened, into: &object)
    object.append("candidates", .number(UInt64(session.search.candidateCount)))
    object.append("searched", .number(result.searched))
    object.append("seconds", .tenths(result.outcome.progress.seconds))
    return object
  }
}

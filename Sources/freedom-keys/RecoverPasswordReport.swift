import CommandLineKit
import CryptoPrimitives
import PhraseRecovery
import VaultKeys

/// How `recover password` words a search: what it searches and its progress on stderr, what
/// opened on stdout (never the password), or the one line that says why not; for a part with
/// `--json`, the part's result.
final class RecoverPasswordReport {
  let command: RecoverPasswordCommand
  /// The file searched, as messages name it.
  let file: String
  let session: PasswordSession
  let progress: ProgressLine

  init(
    _ command: RecoverPasswordCommand, file: String, session: PasswordSession, onTerminal: Bool
  ) {
    (self.command, self.file, self.session) = (command, file, session)
    progress = ProgressLine(onTerminal: onTerminal)
  }

  var onTerminal: Bool { progress.onTerminal }
  private var count: UInt64 { UInt64(session.search.candidateCount) }

  /// The engine, then what is searched: "searching 371 passwords of identity-vault.json
  /// (PBKDF2-HMAC-SHA256, 900000 iterations) on 2 threads".
  func announce() {
    let search = session.search
    let engine =
      search.target.batchSize == 1
      ? "scrypt (libsodium), one password a thread"
      : RecoveryText.engineName(PBKDF2SHA256Batch.engine)
    let what =
      session.part.map {
        "\(RecoveryText.grouped(UInt64($0.candidates))) of \(RecoveryText.grouped(count)) "
          + "passwords (shard \($0.index)/\($0.count))"
      } ?? RecoveryText.count(search.candidateCount, "password")
    Output.standardError(
      "engine: \(engine)\nsearching \(what) against \(file) (\(search.target.kdfDescription)) "
        + "on \(RecoveryText.count(search.threads, "thread"))\n")
  }

  func say(_ event: PasswordSession.Event) {
    let phases = session.phases.count
    switch event {
    case .foundEarlier:
      progress.say(
        "found earlier: \(command.resumePath ?? "") records which password opened the file; it "
          + "was opened again, nothing was searched")
    case .resuming(let tried):
      progress.say(
        "resuming from \(command.resumePath ?? ""): the first "
          + "\(RecoveryText.grouped(UInt64(tried))) passwords were tried")
    case .phaseStarted(let phase):
      progress.say(
        "phase \(phase.number) of \(phases): \(Self.label(phase)) "
          + "(\(RecoveryText.count(phase.share.count, "password")))")
    case .progress(let done, let total):
      let rate = done.seconds > 0 ? Double(done.searched) / done.seconds : 0
      progress.show(
        RecoveryText.progress(
          done: done.searched, of: UInt64(total), "passwords",
          rate: rate < 100 ? "\((rate * 10).rounded() / 10)" : RecoveryText.grouped(UInt64(rate)),
          rateValue: rate, left: Double(UInt64(total) - min(UInt64(total), done.searched))))
    case .phaseExhausted(let phase):
      progress.say(
        "phase \(phase.number) of \(phases) (\(Self.label(phase))): no match in "
          + RecoveryText.count(phase.share.count, "password"))
    }
  }

  private static func label(_ phase: PasswordSession.Phase) -> String {
    phase.level?.description ?? ""
  }

  // MARK: - The end

  /// Writes and prints what opened, or throws the line that says why nothing did.
  func finish(_ result: PasswordSession.Result) throws {
    progress.clear()
    // A part's result, even of a stopped run, says how far it got, for `recover collect`.
    if command.printsJSON, let part = session.partResult(result) {
      Output.standardOutput(String(decoding: part.jsonBytes(), as: UTF8.self))
    }
    let outcome = result.outcome
    guard let found = outcome.found else {
      let tried =
        "\(RecoveryText.grouped(result.searched)) of \(RecoveryText.grouped(count)) passwords tried"
      guard outcome.isComplete else {
        let stopped =
          result.expired ? "stopped after --max-hours \(command.maxHoursText)" : "interrupted"
        throw CLIError.interrupted(
          "\(stopped) after \(tried): \(RecoverReport.resumeHint(command.resumePath))")
      }
      if let part = session.part {
        // Another part may hold the match: only the merged results can say.
        throw CLIError.notFound(
          "no password of shard \(part.index)/\(part.count) opened \(file): all "
            + "\(RecoveryText.grouped(UInt64(part.candidates))) of its passwords tried; "
            + RecoverReport.mergeHint)
      }
      throw CLIError.notFound(
        "no password opened \(file): "
          + (count == 1 ? "the one candidate" : "all \(RecoveryText.grouped(count)) candidates")
          + " tried; widen the search (a higher --password-typos, --password-candidates FILE) or "
          + "check the file")
    }
    let outputPath = command.outputPath
    if let outputPath {
      try RecoverFiles.write(session.search.passwords.password(found.index), to: outputPath)
    }
    let origin = session.search.passwords.origin(found.index)
    if session.part != nil, command.printsJSON { return }
    if command.printsJSON {
      var object: JSONObject = ["found": .bool(true), "file": .string(file)]
      RecoveryText.json(origin, found.opened, into: &object)
      object.append("candidates", .number(count))
      object.append("searched", .number(result.searched))
      object.append("seconds", .tenths(outcome.progress.seconds))
      if let outputPath { object.append("out", .string(outputPath)) }
      return Output.standardOutput(JSONValue.object(object).rendered() + "\n")
    }
    var lines = RecoveryText.opened(origin, found.opened, file: file)
    if let outputPath {
      let next =
        if case .vault = found.opened {
          "freedom-keys derive --vault-file \(file) --vault-password-file"
        } else { "freedom-keys keystore inspect \(file) --password-file" }
      lines += ["wrote the password to \(outputPath) (mode 0600)", "next: \(next) \(outputPath)"]
    } else {
      lines.append("give --out FILE to write the password to a new file")
    }
    Output.standardOutput(lines.joined(separator: "\n") + "\n")
  }
}

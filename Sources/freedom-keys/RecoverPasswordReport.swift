import CommandLineKit
import CryptoPrimitives
import Recovery
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
  /// `--resume`'s file, or the one the search keeps by itself.
  let checkpoint: SearchCheckpoint

  init(
    _ command: RecoverPasswordCommand, file: String, session: PasswordSession,
    checkpoint: SearchCheckpoint
  ) {
    (self.command, self.file, self.session, self.checkpoint) = (command, file, session, checkpoint)
    progress = ProgressLine()
  }

  /// The engine, then what is searched: "searching 371 passwords of identity-vault.json
  /// (PBKDF2-HMAC-SHA256, 900000 iterations) on 2 threads".
  func announce() { Output.standardError(RecoveryText.announcement(session, file: file)) }

  func say(_ event: PasswordSession.Event) {
    let line = RecoveryText.line(
      event, phases: session.phases.count, checkpoint: checkpoint.path)
    switch event {
    case .progress: progress.show(line)
    case .checkpointNotSaved:
      progress.clear()
      Output.warning(line)
    default: progress.say(line)
    }
  }

  // MARK: - The end

  /// Writes and prints what opened, or throws the line that says why nothing did; a
  /// checkpoint that could not be written is said after the answer, never instead of it.
  func finish(_ result: PasswordSession.Result) throws {
    progress.clear()
    // A part's result, even of a stopped run, says how far it got, for `recover collect`.
    if command.searchRun.printsJSON, let part = session.partResult(result) {
      Output.standardOutput(String(decoding: part.jsonBytes(), as: UTF8.self))
    }
    let outcome = result.outcome
    guard let found = outcome.found else {
      guard outcome.isComplete else {
        let stopped =
          result.expired
          ? command.searchRun.stoppedAtLimit : "interrupted"
        throw CLIError.interrupted(
          "\(stopped) after \(RecoveryText.tried(result, of: session)): "
            + checkpoint.resumeHint(failure: result.checkpointFailure))
      }
      checkpoint.searchEnded()
      checkpoint.reportFailure(result.checkpointFailure)
      let reason = RecoveryText.exhausted(session, file: file)
      // Another part may hold the match: only the merged results can say.
      if session.part != nil {
        throw CLIError.partWithoutMatch(reason + "; " + RecoverReport.mergeHint)
      }
      throw CLIError.notFound(
        reason + "; widen the search (a higher --password-typos, --password-candidates FILE) or "
          + "check the file")
    }
    // The answer first, by the one rule: where asked, else beside it, else on stdout.
    var delivered = RecoverFiles.Delivery()
    if let outputPath = command.outputPath {
      try delivered.write(
        try session.search.passwords.password(found.index), "the password", to: outputPath)
    }
    say(found, result, written: command.outputPath.map { _ in delivered })
    // Kept when the answer is only on stdout: a run again finds it earlier.
    if delivered.failures.isEmpty { checkpoint.searchEnded() }
    checkpoint.reportFailure(result.checkpointFailure)
    try delivered.finish()
  }

  /// What opened and where the password was written (or how to write it).
  private func say(
    _ found: (index: Int, opened: PasswordTarget.Opened), _ result: PasswordSession.Result,
    written: RecoverFiles.Delivery?
  ) {
    let path = written?.paths.first
    if session.part != nil, command.searchRun.printsJSON { return }
    if command.searchRun.printsJSON, var object = RecoveryText.json(result, of: session, file: file)
    {
      if let path { object.append("out", .string(path)) }
      return Output.standardOutput(JSONValue.object(object).rendered() + "\n")
    }
    let origin = session.search.passwords.origin(found.index)
    var lines = RecoveryText.opened(origin, found.opened, file: file)
    if let written {
      lines += written.lines
      let vaultOption =
        command.target.option == RecoverPasswordCommand.metamaskVault
        ? "metamask-vault" : "vault-file"
      let next =
        if case .vault = found.opened {
          "freedom-keys derive --\(vaultOption) \(file) --vault-password-file"
        } else { "freedom-keys keystore inspect \(file) --password-file" }
      if let path { lines.append("next: \(next) \(path)") }
    } else {
      lines.append("give --out FILE to write the password to a new file")
    }
    Output.standardOutput(lines.joined(separator: "\n") + "\n")
  }
}

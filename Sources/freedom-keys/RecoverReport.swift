import CommandLineKit
import CryptoPrimitives
import Recovery
import VaultKeys

/// How `recover` words a session: its events on stderr as they come, its end on stdout (or as
/// one error line), in the words and with the options of this tool.
final class RecoverReport {
  let command: RecoverCommand
  let progress: ProgressLine
  /// `--resume`'s file, or the one the search keeps by itself.
  let checkpoint: SearchCheckpoint

  init(_ command: RecoverCommand, checkpoint: SearchCheckpoint) {
    (self.command, self.checkpoint) = (command, checkpoint)
    progress = ProgressLine()
  }
  private func say(_ line: String) { progress.say(line) }

  // MARK: - Events

  func say(_ event: RecoverySession.Event, session: RecoverySession) {
    let line = RecoveryText.line(
      event, phases: session.phases.count, checkpoint: checkpoint.path,
      backend: session.configuration.backend)
    switch event {
    case .measured: Output.standardError(line)
    case .checkpointNotSaved:
      progress.clear()
      Output.warning(line)
    case .progress: progress.show(line)
    case .lastPhaseNext:
      // Before the widest phase: what else than the words could explain no match so far.
      guard let otherExplanations = command.otherExplanations else { return }
      say(line + ": " + otherExplanations)
    default: say(line)
    }
  }

  // MARK: - The end

  /// The end of a part's "no match": only the merged results can say.
  static let mergeHint =
    "this shard holds no match: merge every shard's --json result with 'freedom-keys recover "
    + "collect DIR'"

  /// The error line of a session that stopped.
  func stopped(_ stop: RecoverySession.Stop, _ result: RecoverySession.Result, phases: Int)
    -> CLIError
  {
    let resumeHint = checkpoint.resumeHint(failure: result.checkpointFailure)
    let searched = RecoveryText.searched(result, phases: phases)
    return switch stop {
    case .interruptedWhileCounting: .interrupted(RecoveryText.interruptedWhileCounting)
    case .deadlineBeforePhase(let next):
      .interrupted(
        "\(command.searchRun.stoppedAtLimit) before phase \(next) of \(phases): "
          + resumeHint)
    case .deadline:
      .interrupted(
        "\(command.searchRun.stoppedAtLimit), having searched \(searched): "
          + resumeHint)
    case .interrupted: .interrupted("interrupted after searching \(searched): \(resumeHint)")
    }
  }

  /// The error line of a search that found nothing.
  func exhausted(_ result: RecoverySession.Result, automatic: Bool, phases: Int) -> CLIError {
    let reason = RecoveryText.exhausted(result, automatic: automatic, phases: phases)
    // Another part may hold the match: only the merged results can say.
    if result.phase.recovery.configuration.shardCount > 1 {
      return .partWithoutMatch(reason + "; " + Self.mergeHint)
    }
    // Every phrase may be right and the target elsewhere, or the seed another passphrase's.
    let accounts =
      command.addressByAccounts
      ? " (an address may be of an account beyond the \(command.accountCount) tried: "
        + "--accounts N or --path TEMPLATE)" : ""
    let passphrase =
      command.passphraseMayExplain
      ? "; a BIP-39 passphrase could explain it: give --passphrase-file (or "
        + "--passphrase-candidates FILE)" : ""
    // The order-lost search is widened by keeping fewer words in place, or by another model.
    let widen: String
    if let order = result.phase.recovery.search.order {
      widen =
        order.allOrdersCount == nil
        ? "not every order could be counted: give --keep-positions for the words sure to be "
          + "in place, so that every order of the others is searched,"
        : order.keptPositions.isEmpty
          ? "a word may be wrong as well as moved: search without --order-lost,"
          : "keep fewer positions in place (--keep-positions),"
    } else {
      widen = "widen the search (--typos, --swaps, --missing, --extra, more ? words)"
    }
    return .notFound(reason + "; " + widen + " or check the targets" + accounts + passphrase)
  }

  /// Writes and prints what the session found, or throws the line that says why not; a
  /// checkpoint that could not be written is said after the answer, never instead of it.
  func finish(_ result: RecoverySession.Result, session: RecoverySession) throws {
    let (printsJSON, outputPath) = (command.searchRun.printsJSON, command.outputPath)
    // A shard's result, even of a stopped run, says how far it got, for `recover collect`.
    let part =
      printsJSON ? result.part.map { String(decoding: $0.jsonBytes(), as: UTF8.self) } : nil
    switch result.ending {
    case .stopped(let stop):
      // Between phases no search was under way: nothing to collect.
      if let part, !stop.isBetweenPhases { Output.standardOutput(part) }
      throw stopped(stop, result, phases: session.phases.count)
    case .counted(let candidates):
      checkpoint.searchEnded()
      checkpoint.reportFailure(result.checkpointFailure)
      try reportCount(candidates, result.progress, candidates: result.phase.recovery.range.count)
      return
    case .found(let found, let earlier):
      // The answer first, by the one rule: where asked, else beside it, else on stdout.
      var delivered = RecoverFiles.Delivery()
      if let outputPath {
        try delivered.write(found.phraseLine, "the corrected phrase", to: outputPath)
        if let line = found.passphraseLine {
          try delivered.write(line, "the passphrase", to: outputPath + ".passphrase")
        }
      }
      if let part {
        Output.standardOutput(part)
      } else if !printsJSON {
        Output.standardOutput(
          (earlier ? "found earlier\n" : "")
            + Self.describe(found, written: outputPath.map { _ in delivered.lines }))
      }
      // Kept when the answer is only on stdout: a run again finds it earlier.
      if delivered.failures.isEmpty { checkpoint.searchEnded() }
      checkpoint.reportFailure(result.checkpointFailure)
      try delivered.finish()
    case .exhausted:
      checkpoint.searchEnded()
      checkpoint.reportFailure(result.checkpointFailure)
      if let part { Output.standardOutput(part) }
      throw exhausted(
        result, automatic: session.isAutomatic, phases: session.phases.count)
    }
  }

  /// Without targets: the count, and the candidates with --out when there are at most 100.
  private func reportCount(
    _ found: [RecoveredPhrase]?, _ progress: RecoveryProgress?, candidates: Int
  ) throws {
    let (printsJSON, outputPath) = (command.searchRun.printsJSON, command.outputPath)
    let valid = progress?.checksumValid ?? 0
    if let outputPath {
      guard valid <= 100, let found else {
        throw CLIError.failure(
          "\(RecoveryText.grouped(valid)) candidates pass the checksum; --out writes at most "
            + "100 of them: give a target (--address, --bee-dir, …) to find the right one")
      }
      try RecoverFiles.write(RecoveredPhrase.lines(found), to: outputPath)
    }
    if printsJSON {
      let json = RecoveryText.countedJSON(
        candidates: candidates, progress: progress, written: outputPath != nil)
      Output.standardOutput(json.rendered() + "\n")
    } else {
      var text = RecoveryText.counted(candidates: candidates, checksumValid: valid) + "\n"
      if let outputPath { text += "wrote them to \(outputPath) (mode 0600)\n" }
      Output.standardOutput(text)
    }
  }

  /// What was corrected and where it was written (`written`: the lines that say so), or how
  /// to write it.
  static func describe(_ found: RecoveredPhrase, written: [String]?) -> String {
    var lines = RecoveryText.corrections(found)
    if let written {
      lines += written
    } else {
      lines.append("give --out FILE to write the whole corrected phrase to a new file")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

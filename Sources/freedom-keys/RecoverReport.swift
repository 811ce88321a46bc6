import CommandLineKit
import CryptoPrimitives
import PhraseRecovery
import VaultKeys

/// How `recover` words a session: its events on stderr as they come, its end on stdout (or as
/// one error line), in the words and with the options of this tool.
final class RecoverReport {
  let command: RecoverCommand
  /// Whether stderr is a terminal: one progress line redrawn, instead of lines appended.
  let onTerminal: Bool
  private var progressDrawn = false

  init(_ command: RecoverCommand, onTerminal: Bool) {
    self.command = command
    self.onTerminal = onTerminal
  }

  /// One line on stderr, after clearing a progress line drawn on the terminal.
  private func say(_ line: String) {
    clearProgress()
    Output.standardError(line + "\n")
  }

  func clearProgress() {
    if progressDrawn { Output.standardError("\r\u{1B}[K") }
    progressDrawn = false
  }

  // MARK: - Events

  func say(_ event: RecoverySession.Event, session: RecoverySession) {
    let count = session.phases.count
    switch event {
    case .measured(let work, let fewest):
      Output.standardError(Self.engineLine(work: work, fewest: fewest))
    case .resuming(let phase, let of):
      say(
        "resuming at phase \(phase) of \(of): \(command.resumePath ?? "") shows the phases before "
          + "it searched to their end")
    case .foundEarlier:
      say(
        "found earlier: \(command.resumePath ?? "") records this search's match, derived again "
          + "from the phrase and checked against the targets; nothing was searched")
    case .phaseStarted(let phase):
      say("phase \(phase.number) of \(count): \(Self.label(phase))")
    case .searching(let announcement):
      say(announce(announcement))
    case .progress(let progress, let announcement):
      let line = Self.progressLine(progress, announcement)
      if onTerminal {
        Output.standardError("\r\u{1B}[K" + line)
        progressDrawn = true
      } else {
        Output.standardError("progress: " + line + "\n")
      }
    case .phaseExhausted(let phase):
      say(
        "phase \(phase.number) of \(count) (\(Self.label(phase))): no match in "
          + "\(Self.grouped(UInt64(phase.recovery.range.count))) candidates")
    case .lastPhaseNext:
      // The last phase is the widest by far: say, before it, what else could explain the
      // likelier phases' finding nothing.
      guard let otherExplanations = command.otherExplanations else { return }
      say(
        "the likelier phases found nothing; if the phrase is nearly right, the targets may be "
          + "what differs: \(otherExplanations)")
    }
  }

  /// "searching 4,194,304 candidates (262,144 pass the checksum) …; about 90 s on 2 threads".
  private func announce(_ announcement: RecoverySession.Announcement) -> String {
    let recovery = announcement.phase.recovery
    let search = recovery.search
    let words = "\(search.wordCount) \(search.phrase.language.rawValue) words"
    guard !recovery.targets.isEmpty else {
      let candidates = announcement.candidates
      return
        "no target given: counting candidates only (\(Self.grouped(candidates)) "
        + "\(candidates == 1 ? "candidate" : "candidates") of \(words))"
    }
    var line = "searching \(Self.grouped(announcement.candidates)) candidates of \(words)"
    if recovery.passphrases.count > 1 {
      line +=
        " (\(Self.grouped(search.candidateCount)) phrases × "
        + "\(Self.grouped(UInt64(recovery.passphrases.count))) passphrases)"
    }
    let configuration = recovery.configuration
    if configuration.shardCount > 1 {
      line += " (shard \(configuration.shardIndex)/\(configuration.shardCount))"
    }
    line +=
      ", \(announcement.checksumValidIsExact ? "" : "about ")"
      + "\(Self.grouped(UInt64(announcement.checksumValid.rounded()))) pass the checksum"
    if let seconds = announcement.estimatedSeconds, let rate = announcement.rate {
      let threads = configuration.threads
      line +=
        "; about \(Self.duration(seconds)) on \(threads) \(threads == 1 ? "thread" : "threads")"
        + " at \(Self.grouped(UInt64(rate.rounded())))/s"
    }
    if let resumed = announcement.resumed {
      line +=
        "; resuming, \(Self.percent(resumed.candidates, of: announcement.candidates)) done "
        + "(\(Self.grouped(resumed.candidates)) of \(Self.grouped(announcement.candidates)) "
        + "candidates)"
    }
    return line
  }

  static func label(_ phase: RecoverySession.Phase) -> String {
    let words = phase.kind?.description ?? ""
    return phase.passphraseTypos > 0 ? words + ", the passphrase with one typo" : words
  }

  /// A batch engine as recover's first line names it: "SIMD lanes AVX-512", "multi-buffer
  /// AVX2 (libIPSec_MB 1.3.0)", "single-stream (why)".
  static func engineName(_ engine: PBKDF2SHA512Batch.Engine) -> String {
    if engine == .singleStream {
      return
        "\(engine) (\(PBKDF2SHA512Batch.multiBufferUnavailableReason ?? "FREEDOM_KEYS_MULTIBUFFER=off"))"
    }
    if engine.usesMultiBufferLibrary, let version = PBKDF2SHA512Batch.multiBufferLibraryVersion {
      return "\(engine) (libIPSec_MB \(version))"
    }
    return "\(engine)"
  }

  /// The first line of a search: the seed engine and, per candidate, the point
  /// multiplications the targets cost against the fewest they need.
  /// "engine: SIMD lanes AVX-512; per candidate 20 secp256k1 public keys
  /// (the fewest these targets need: 20), 24 HMAC-SHA512, 0 Ed25519 keys".
  static func engineLine(work: TargetMatcher.Stats, fewest: TargetMatcher.Stats) -> String {
    let line = "engine: " + engineName(PBKDF2SHA512Batch.engine)
    let seeds = max(1, work.seeds)
    func each(_ count: Int) -> String {
      count % seeds == 0 ? "\(count / seeds)" : String(Double(count) / Double(seeds))
    }
    return line
      + "; per candidate \(each(work.publicKeys)) secp256k1 public keys (the fewest these targets "
      + "need: \(fewest.publicKeys)), \(each(work.hmacs)) HMAC-SHA512, \(each(work.ed25519Keys)) "
      + "Ed25519 keys\n"
  }

  private static func progressLine(
    _ progress: RecoveryProgress, _ announcement: RecoverySession.Announcement
  ) -> String {
    let candidates = announcement.candidates
    let rate = progress.seconds > 0 ? Double(progress.checked) / progress.seconds : 0
    let remaining = max(0, announcement.checksumValid - Double(progress.checksumValid))
    let eta = rate > 0 ? "ETA \(duration(remaining / rate))" : "ETA …"
    return
      "\(percent(progress.candidates, of: candidates)) (\(grouped(progress.candidates)) of "
      + "\(grouped(candidates)) candidates) · \(grouped(UInt64(rate)))/s · \(eta)"
  }

  // MARK: - The end

  /// How to continue a search that stopped.
  var resumeHint: String {
    command.resumePath.map { "run the same command again to continue from \($0)" }
      ?? "give --resume FILE to keep a checkpoint and continue later"
  }

  /// The error line of a session that stopped.
  func stopped(_ stop: RecoverySession.Stop, _ result: RecoverySession.Result, phases: Int)
    -> CLIError
  {
    let phase = result.phase
    let candidates = UInt64(phase.recovery.range.count)
    let searched = result.progress?.candidates ?? 0
    let done =
      "\(Self.percent(searched, of: candidates)) (\(Self.grouped(searched)) of "
      + "\(Self.grouped(candidates)) candidates)"
    let during =
      phase.kind == nil ? "" : " of phase \(phase.number) of \(phases) (\(Self.label(phase)))"
    return switch stop {
    case .interruptedWhileCounting:
      .interrupted("interrupted while counting, before the search started")
    case .deadlineBeforePhase(let next):
      .interrupted(
        "stopped after --max-hours \(command.maxHoursText) before phase \(next) of \(phases): "
          + resumeHint)
    case .deadline:
      .interrupted(
        "stopped after --max-hours \(command.maxHoursText), having searched \(done)\(during): "
          + resumeHint)
    case .interrupted:
      .interrupted("interrupted after searching \(done)\(during): \(resumeHint)")
    }
  }

  /// The error line of a search that found nothing.
  func exhausted(_ result: RecoverySession.Result, automatic: Bool, phases: Int) -> CLIError {
    let candidates = UInt64(result.phase.recovery.range.count)
    let progress = result.progress
    let searched =
      progress?.candidates == candidates
      ? "all \(Self.grouped(candidates)) candidates"
      : "\(Self.grouped(progress?.candidates ?? 0)) of \(Self.grouped(candidates)) candidates"
    let valid = "(\(Self.grouped(progress?.checksumValid ?? 0)) checksum-valid) were searched"
    let configuration = result.phase.recovery.configuration
    if configuration.shardCount > 1 {
      // Another part may hold the match: only the merged results can say.
      return .notFound(
        "no candidate of shard \(configuration.shardIndex)/\(configuration.shardCount) matched "
          + "the targets: \(searched) \(valid); this shard holds no match: merge every shard's "
          + "--json result with 'freedom-keys recover collect DIR'")
    }
    let all = automatic ? "all \(phases) phases searched, the last of " : ""
    // Every phrase may be right and the target elsewhere, or the seed another passphrase's.
    let accounts =
      command.addressByAccounts
      ? " (an address may be of an account beyond the \(command.accountCount) tried: "
        + "--accounts N or --path TEMPLATE)" : ""
    let passphrase =
      command.passphraseMayExplain
      ? "; a BIP-39 passphrase could explain it: give --passphrase-file (or "
        + "--passphrase-candidates FILE)" : ""
    return .notFound(
      "no candidate matched the targets: \(all)\(searched) \(valid); widen the search (--typos, "
        + "--swaps, --missing, --extra, more ? words) or check the targets" + accounts
        + passphrase)
  }

  /// Writes and prints what the session found, or throws the line that says why not.
  func finish(_ result: RecoverySession.Result, session: RecoverySession) throws {
    let (printsJSON, outputPath) = (command.printsJSON, command.outputPath)
    // A shard's result, even of a stopped run, says how far it got, for `recover collect`.
    let part = printsJSON ? result.part : nil
    switch result.ending {
    case .stopped(let stop):
      // Between phases no search was under way: nothing to collect.
      if let part, !stop.isBetweenPhases {
        Output.standardOutput(String(decoding: part.jsonBytes(), as: UTF8.self))
      }
      throw stopped(stop, result, phases: session.phases.count)
    case .counted(let candidates):
      try reportCount(candidates, result.progress, candidates: result.phase.recovery.range.count)
      return
    case .found(let found, let earlier):
      if let outputPath {
        try RecoverFiles.write(found.mnemonic.phrase() + SecureBytes([0x0A]), to: outputPath)
        if found.passphraseOrigin != .given {
          try RecoverFiles.write(
            found.passphrase + SecureBytes([0x0A]), to: outputPath + ".passphrase")
        }
      }
      if let part {
        Output.standardOutput(String(decoding: part.jsonBytes(), as: UTF8.self))
      } else if !printsJSON {
        Output.standardOutput(
          (earlier ? "found earlier\n" : "")
            + Self.describe(found, outputPath: outputPath))
      }
    case .exhausted:
      if let part { Output.standardOutput(String(decoding: part.jsonBytes(), as: UTF8.self)) }
      throw exhausted(
        result, automatic: session.isAutomatic, phases: session.phases.count)
    }
  }

  /// Without targets: the count, and the candidates with --out when there are at most 100.
  private func reportCount(
    _ found: [RecoveredPhrase]?, _ progress: RecoveryProgress?, candidates: Int
  ) throws {
    let (printsJSON, outputPath) = (command.printsJSON, command.outputPath)
    let valid = progress?.checksumValid ?? 0
    if let outputPath {
      guard valid <= 100, let found else {
        throw CLIError.failure(
          "\(Self.grouped(valid)) candidates pass the checksum; --out writes at most "
            + "100 of them: give a target (--address, --bee-dir, …) to find the right one")
      }
      let lines = found.reduce(SecureBytes(count: 0) { _ in }) {
        $0 + $1.mnemonic.phrase() + SecureBytes([0x0A])
      }
      try RecoverFiles.write(lines, to: outputPath)
    }
    if printsJSON {
      var object: JSONObject = [
        "candidates": .number(UInt64(candidates)), "checksumValid": .number(valid),
      ]
      if outputPath != nil { object.append("written", .number(valid)) }
      object.append("seconds", .tenths(progress?.seconds ?? 0))
      Output.standardOutput(JSONValue.object(object).rendered() + "\n")
    } else {
      let noun = candidates == 1 ? "candidate" : "candidates"
      let verb = valid == 1 ? "passes" : "pass"
      var text =
        "\(Self.grouped(UInt64(candidates))) \(noun), \(Self.grouped(valid)) "
        + "\(verb) the checksum\n"
      if let outputPath { text += "wrote them to \(outputPath) (mode 0600)\n" }
      Output.standardOutput(text)
    }
  }

  /// "word 3 is 'thank' (was '?')", "words 9 and 10 were swapped", "matched swarm.address".
  static func describe(_ found: RecoveredPhrase, outputPath: String?) -> String {
    var lines: [String] = []
    var changes = found.changes
    if let (first, second) = found.swappedPositions {
      let pair = changes.filter { $0.position == first || $0.position == second }
      // A plain exchange of two remembered words reads as one line.
      let list = Wordlist.named(found.mnemonic.language)
      func same(_ written: String?, _ word: String) -> Bool {
        written.flatMap(list.index(of:)).map { $0 == list.index(of: word) } ?? false
      }
      if pair.count == 2, same(pair[0].was, pair[1].word), same(pair[1].was, pair[0].word) {
        lines.append("words \(first) and \(second) were swapped")
        changes.removeAll { $0.position == first || $0.position == second }
      }
    }
    for change in changes {
      let was = change.was.map { "'\($0)'" } ?? "missing"
      lines.append("word \(change.position) is '\(change.word)' (was \(was))")
    }
    if lines.isEmpty, found.extraPositions.isEmpty {
      lines.append("the phrase was right as remembered")
    }
    for position in found.extraPositions {
      lines.append("word \(position) as written was extra (left out)")
    }
    switch found.passphraseOrigin {
    case .given: break
    case .line(let line): lines.append("the passphrase is passphrase candidate line \(line)")
    case .edits(let edits) where edits.isEmpty:
      lines.append("the passphrase is the one remembered")
    case .edits(let edits):
      lines.append("the passphrase is the one remembered with " + describe(edits))
    }
    lines.append("matched \(found.matched ?? "")")
    if let outputPath {
      lines.append("wrote the corrected phrase to \(outputPath) (mode 0600)")
      if found.passphraseOrigin != .given {
        lines.append("wrote the passphrase to \(outputPath).passphrase (mode 0600)")
      }
    } else {
      lines.append("give --out FILE to write the whole corrected phrase to a new file")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// "character 3 replaced, a character inserted before character 5".
  static func describe(_ edits: [PassphraseEdit]) -> String {
    edits.map(\.description).joined(separator: ", ")
  }

  // MARK: - Numbers

  /// 4194304 → "4,194,304".
  static func grouped(_ value: UInt64) -> String {
    var digits = Array(String(value))
    var index = digits.count - 3
    while index > 0 {
      digits.insert(",", at: index)
      index -= 3
    }
    return String(digits)
  }

  /// "41.2%".
  static func percent(_ part: UInt64, of whole: UInt64) -> String {
    guard whole > 0 else { return "100%" }
    let tenths = UInt64((Double(part) / Double(whole) * 1000).rounded(.down))
    return "\(tenths / 10).\(tenths % 10)%"
  }

  /// "45 s", "12 min", "3.5 h", "2.1 days", "40 years".
  static func duration(_ seconds: Double) -> String {
    switch seconds {
    case ..<120: "\(Int(seconds.rounded(.up))) s"
    case ..<7200: "\(Int((seconds / 60).rounded())) min"
    case ..<172_800: "\((seconds / 360).rounded() / 10) h"
    case ..<(2 * 31_557_600): "\((seconds / 8640).rounded() / 10) days"
    default: "\(grouped(UInt64(min(seconds / 31_557_600, 1e18)))) years"
    }
  }
}

import CommandLineKit
import CryptoPrimitives
import PhraseRecovery
import VaultKeys

/// The part of a password search one run takes (`--shard`): its share of each phase.
struct PasswordPart {
  let shard: RecoverShard
  /// The search's public hash (`PasswordSearch.searchHash`).
  let search: [UInt8]
  let ranges: [Range<Int>]

  init(_ shard: RecoverShard, search: [UInt8], ranges: [Range<Int>]) {
    (self.shard, self.search, self.ranges) = (shard, search, ranges)
  }

  /// The passwords of the part.
  var candidates: Int { ranges.reduce(0) { $0 + $1.count } }

  /// The part's passwords below `doneBelow`: those a checkpoint records as tried.
  func searched(below doneBelow: Int) -> Int {
    ranges.reduce(0) { $0 + min(max(doneBelow - $1.lowerBound, 0), $1.count) }
  }
}

/// How `recover password` words a search: what it searches and its progress on stderr, what
/// opened on stdout (never the password), or the one line that says why not; for a part with
/// `--json`, the part's result.
final class RecoverPasswordReport {
  let command: RecoverPasswordCommand
  /// The file searched, as messages name it.
  let file: String
  let search: PasswordSearch
  /// The part this run searches, when `--shard` was given.
  let part: PasswordPart?
  /// Whether stderr is a terminal: one progress line redrawn, instead of lines appended.
  let onTerminal: Bool
  private var progressDrawn = false

  init(
    _ command: RecoverPasswordCommand, file: String, search: PasswordSearch, part: PasswordPart?,
    onTerminal: Bool
  ) {
    self.command = command
    self.file = file
    self.search = search
    self.part = part
    self.onTerminal = onTerminal
  }

  private var count: UInt64 { UInt64(search.candidateCount) }

  /// The engine, then what is searched: "searching 371 passwords of identity-vault.json
  /// (PBKDF2-HMAC-SHA256, 900000 iterations) on 2 threads".
  func announce() {
    var engine = "engine: "
    if search.target.batchSize == 1 {
      engine += "scrypt (libsodium), one password a thread"
    } else {
      engine += RecoverReport.engineName(PBKDF2SHA256Batch.engine)
    }
    let noun = count == 1 ? "password" : "passwords"
    let what =
      part.map {
        "\(RecoverReport.grouped(UInt64($0.candidates))) of \(RecoverReport.grouped(count)) "
          + "passwords (shard \($0.shard.index)/\($0.shard.count))"
      } ?? "\(RecoverReport.grouped(count)) \(noun)"
    Output.standardError(
      engine + "\nsearching \(what) against \(file) "
        + "(\(search.target.kdfDescription)) on \(search.threads) "
        + (search.threads == 1 ? "thread\n" : "threads\n")
    )
  }

  /// "phase 2 of 3: one likely typo (328 passwords)".
  func phase(_ number: Int, of phases: Int, _ label: String, count: Int) {
    say("phase \(number) of \(phases): \(label) (\(Self.passwords(count)))")
  }

  /// "phase 2 of 3 (one likely typo): no match in 328 passwords".
  func phaseExhausted(_ number: Int, of phases: Int, _ label: String, count: Int) {
    say("phase \(number) of \(phases) (\(label)): no match in \(Self.passwords(count))")
  }

  func say(_ line: String) {
    clearProgress()
    Output.standardError(line + "\n")
  }

  /// "1 password", "1,024 passwords".
  private static func passwords(_ count: Int) -> String {
    "\(RecoverReport.grouped(UInt64(count))) password\(count == 1 ? "" : "s")"
  }

  /// "41.2% (1,728 of 4,194 passwords) · 21/s · ETA 2 min", of the `total` being searched.
  func show(_ progress: PasswordSearch.Progress, of total: Int) {
    let count = UInt64(total)
    let rate = progress.seconds > 0 ? Double(progress.searched) / progress.seconds : 0
    let left = Double(count - min(count, progress.searched))
    let eta = rate > 0 ? "ETA \(RecoverReport.duration(left / rate))" : "ETA …"
    let line =
      "\(RecoverReport.percent(progress.searched, of: count)) "
      + "(\(RecoverReport.grouped(progress.searched)) of \(RecoverReport.grouped(count)) "
      + "passwords) · \(String(format1: rate))/s · \(eta)"
    if onTerminal {
      Output.standardError("\r\u{1B}[K" + line)
      progressDrawn = true
    } else {
      Output.standardError("progress: " + line + "\n")
    }
  }

  func clearProgress() {
    if progressDrawn { Output.standardError("\r\u{1B}[K") }
    progressDrawn = false
  }

  // MARK: - The end

  /// Writes and prints what opened, or throws the line that says why nothing did.
  /// `searched`: the passwords tried by this run, phases before included; `doneBelow`: every
  /// password below it was tried (as a checkpoint says); `expired`: whether --max-hours stopped
  /// it; `earlier`: the match is the one a checkpoint recorded.
  func finish(
    _ outcome: PasswordSearch.Outcome, searched: UInt64, doneBelow: Int, expired: Bool = false,
    earlier: Bool = false
  ) throws {
    // A part's result, even of a stopped run, says how far it got, for `recover collect`.
    if let part, command.printsJSON {
      let tried =
        outcome.isComplete && outcome.found == nil
        ? part.candidates : part.searched(below: doneBelow)
      let result = ShardResult(
        password: search.target, search: part.search, part: part.shard.index,
        of: part.shard.count, candidates: UInt64(part.candidates), searchCandidates: count,
        searched: UInt64(tried), opened: outcome.found?.opened, foundEarlier: earlier,
        complete: outcome.isComplete, seconds: outcome.progress.seconds)
      Output.standardOutput(String(decoding: result.jsonBytes(), as: UTF8.self))
    }
    guard let found = outcome.found else {
      let tried =
        "\(RecoverReport.grouped(searched)) of \(RecoverReport.grouped(count)) passwords tried"
      guard outcome.isComplete else {
        let stopped =
          expired ? "stopped after --max-hours \(command.maxHoursText)" : "interrupted"
        let next =
          command.resumePath.map { "run the same command again to continue from \($0)" }
          ?? "give --resume FILE to keep a checkpoint and continue later"
        throw CLIError.interrupted("\(stopped) after \(tried): \(next)")
      }
      if let part {
        // Another part may hold the match: only the merged results can say.
        let (index, parts) = (part.shard.index, part.shard.count)
        throw CLIError.notFound(
          "no password of shard \(index)/\(parts) opened \(file): all "
            + "\(RecoverReport.grouped(UInt64(part.candidates))) of its passwords tried; this "
            + "shard holds no match: merge every shard's --json result with 'freedom-keys "
            + "recover collect DIR'")
      }
      throw CLIError.notFound(
        "no password opened \(file): "
          + (count == 1 ? "the one candidate" : "all \(RecoverReport.grouped(count)) candidates")
          + " tried; "
          + "widen the search (a higher --password-typos, --password-candidates FILE) or "
          + "check the file")
    }
    if let outputPath = command.outputPath {
      try RecoverFiles.write(search.passwords.password(found.index), to: outputPath)
    }
    let origin = search.passwords.origin(found.index)
    if part != nil, command.printsJSON {
      return
    } else if command.printsJSON {
      var object: JSONObject = ["found": .bool(true), "file": .string(file)]
      switch found.opened {
      case .vault(let words):
        object.append("opened", .string("vault"))
        if let words { object.append("words", .number(UInt64(words))) }
      case .keystore(let address):
        object.append("opened", .string("keystore"))
        object.append("address", .string(address.checksummed))
      }
      switch origin {
      case .remembered: object.append("password", .object(["origin": .string("remembered")]))
      case .typos(let edits):
        object.append(
          "password",
          .object([
            "origin": .string("typos"), "typos": .array(edits.map { .string($0.description) }),
          ]))
      case .tokens(let choices):
        let tokens: [JSONValue] = choices.map {
          .object(["line": .number(UInt64($0.line)), "token": .number(UInt64($0.token))])
        }
        object.append("password", .object(["origin": .string("tokens"), "tokens": .array(tokens)]))
      case .line(let line):
        object.append(
          "password", .object(["origin": .string("candidates"), "line": .number(UInt64(line))]))
      }
      object.append("candidates", .number(count))
      object.append("searched", .number(searched))
      object.append("seconds", .tenths(outcome.progress.seconds))
      if let outputPath = command.outputPath { object.append("out", .string(outputPath)) }
      Output.standardOutput(JSONValue.object(object).rendered() + "\n")
    } else {
      Output.standardOutput(describe(origin, found.opened))
    }
  }

  /// "the password is the one remembered with caps lock", what opened and what to run next.
  private func describe(_ origin: PasswordSet.Origin, _ opened: PasswordTarget.Opened) -> String {
    var lines: [String] = []
    switch origin {
    case .remembered: lines.append("the password is the one remembered")
    case .typos(let edits):
      lines.append("the password is the one remembered with " + RecoverReport.describe(edits))
    case .tokens(let choices):
      lines.append(
        "the password is made of tokens "
          + choices.map { "line \($0.line) token \($0.token)" }.joined(separator: ", then ")
          + " of the token list")
    case .line(let line): lines.append("the password is password candidate line \(line)")
    }
    let next: String
    switch opened {
    case .vault(let words):
      let holding = words.map { ", which holds a \($0)-word mnemonic" } ?? ""
      lines.append("it opens the vault \(file)\(holding)")
      next = "freedom-keys derive --vault-file \(file) --vault-password-file"
    case .keystore(let address):
      lines.append("it opens the keystore \(file), the key of \(address.checksummed)")
      next = "freedom-keys keystore inspect \(file) --password-file"
    }
    if let outputPath = command.outputPath {
      lines.append("wrote the password to \(outputPath) (mode 0600)")
      lines.append("next: \(next) \(outputPath)")
    } else {
      lines.append("give --out FILE to write the password to a new file")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension String {
  /// `value` with one decimal below 100 ("3.4"), whole above ("1,021").
  fileprivate init(format1 value: Double) {
    self = value < 100 ? "\((value * 10).rounded() / 10)" : RecoverReport.grouped(UInt64(value))
  }
}

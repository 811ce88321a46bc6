import CryptoPrimitives
import VaultKeys

/// How a search and what it found read, in words that name no tool and no option: a caller
/// adds its own (how to continue, what widens the search, where a result was written).
package enum RecoveryText {
  // MARK: - Numbers

  /// 4194304 → "4,194,304".
  package static func grouped(_ value: UInt64) -> String {
    var digits = Array(String(value))
    var index = digits.count - 3
    while index > 0 {
      digits.insert(",", at: index)
      index -= 3
    }
    return String(digits)
  }

  /// "41.2%".
  package static func percent(_ part: UInt64, of whole: UInt64) -> String {
    guard whole > 0 else { return "100%" }
    let tenths = UInt64((Double(part) / Double(whole) * 1000).rounded(.down))
    return "\(tenths / 10).\(tenths % 10)%"
  }

  /// "45 s", "12 min", "3.5 h", "2.1 days", "40 years".
  package static func duration(_ seconds: Double) -> String {
    switch seconds {
    case ..<120: "\(Int(seconds.rounded(.up))) s"
    case ..<7200: "\(Int((seconds / 60).rounded())) min"
    case ..<172_800: "\((seconds / 360).rounded() / 10) h"
    case ..<(2 * 31_557_600): "\((seconds / 8640).rounded() / 10) days"
    default: "\(grouped(UInt64(min(seconds / 31_557_600, 1e18)))) years"
    }
  }

  /// "1 password", "1,024 passwords".
  package static func count(_ value: Int, _ noun: String) -> String {
    "\(grouped(UInt64(value))) \(noun)\(value == 1 ? "" : "s")"
  }

  /// "41.2% (1,728 of 4,194 candidates) · 21/s · ETA 2 min": `done` of `whole`, `left` still to
  /// try at `rate` a second.
  package static func progress(
    done: UInt64, of whole: UInt64, _ noun: String, rate: String, rateValue: Double, left: Double
  ) -> String {
    let eta = rateValue > 0 ? "ETA \(duration(left / rateValue))" : "ETA …"
    return
      "\(percent(done, of: whole)) (\(grouped(done)) of \(grouped(whole)) \(noun)) · "
      + "\(rate)/s · \(eta)"
  }

  // MARK: - Engines

  /// A batch engine as a search's first line names it: "SIMD lanes AVX-512", "multi-buffer
  /// AVX2 (libIPSec_MB 1.3.0)", "single-stream (why)".
  package static func engineName(_ engine: PBKDF2SHA512Batch.Engine) -> String {
    if engine == .singleStream {
      return
        "\(engine) (\(PBKDF2SHA512Batch.multiBufferUnavailableReason ?? "FREEDOM_KEYS_MULTIBUFFER=off"))"
    }
    if engine.usesMultiBufferLibrary, let version = PBKDF2SHA512Batch.multiBufferLibraryVersion {
      return "\(engine) (libIPSec_MB \(version))"
    }
    return "\(engine)"
  }

  /// The engine a search's batches run on: the OpenCL device ("OpenCL device 1: NVIDIA …
  /// (NVIDIA CUDA, GPU, 128 compute units)"), else the CPU engine `cpu` as `engineName` names it.
  package static func engineName(_ backend: PBKDF2Backend, cpu: PBKDF2SHA512Batch.Engine)
    -> String
  {
    backend.device.map(\.description) ?? engineName(cpu)
  }

  /// The first line of a phrase search: the seed engine and, per candidate, the point
  /// multiplications the targets cost against the fewest they need.
  /// "engine: SIMD lanes AVX-512; per candidate 20 secp256k1 public keys
  /// (the fewest these targets need: 20), 24 HMAC-SHA512, 0 Ed25519 keys".
  package static func engineLine(
    work: TargetMatcher.Stats, fewest: TargetMatcher.Stats, backend: PBKDF2Backend = .cpu
  ) -> String {
    let line = "engine: " + engineName(backend, cpu: PBKDF2SHA512Batch.engine)
    let seeds = max(1, work.seeds)
    func each(_ count: Int) -> String {
      count % seeds == 0 ? "\(count / seeds)" : String(Double(count) / Double(seeds))
    }
    return line
      + "; per candidate \(each(work.publicKeys)) secp256k1 public keys (the fewest these targets "
      + "need: \(fewest.publicKeys)), \(each(work.hmacs)) HMAC-SHA512, \(each(work.ed25519Keys)) "
      + "Ed25519 keys\n"
  }

  // MARK: - A phrase search

  /// A phase as announced: "one word mistyped", with ", the passphrase with one typo".
  package static func label(_ phase: RecoverySession.Phase) -> String {
    let words = phase.kind?.description ?? ""
    return phase.passphraseTypos > 0 ? words + ", the passphrase with one typo" : words
  }

  /// "searching 4,194,304 candidates of 12 english words, 262,144 pass the checksum; about
  /// 90 s on 2 threads at 2,900/s".
  package static func announcement(_ announcement: RecoverySession.Announcement) -> String {
    let recovery = announcement.phase.recovery
    let search = recovery.search
    let words =
      "\(search.wordCount) \(search.phrase.language.rawValue) words"
      + (search.order.map { " " + orders($0) } ?? "")
    guard !recovery.targets.isEmpty else {
      let candidates = announcement.candidates
      return
        "no target given: counting candidates only (\(grouped(candidates)) "
        + "\(candidates == 1 ? "candidate" : "candidates") of \(words))"
    }
    var line = "searching \(grouped(announcement.candidates)) candidates of \(words)"
    if recovery.passphrases.count > 1 {
      line +=
        " (\(grouped(search.candidateCount)) phrases × "
        + "\(grouped(UInt64(recovery.passphrases.count))) passphrases"
        + (recovery.passphrases.mayRepeat ? ", duplicates possible)" : ")")
    }
    let configuration = recovery.configuration
    if configuration.shardCount > 1 {
      line += " (shard \(configuration.shardIndex)/\(configuration.shardCount))"
    }
    line +=
      ", \(announcement.checksumValidIsExact ? "" : "about ")"
      + "\(grouped(UInt64(announcement.checksumValid.rounded()))) pass the checksum"
    if let seconds = announcement.estimatedSeconds, let rate = announcement.rate {
      let threads = configuration.threads
      line +=
        "; about \(duration(seconds)) on \(threads) \(threads == 1 ? "thread" : "threads")"
        + " at \(grouped(UInt64(rate.rounded())))/s"
    }
    if let resumed = announcement.resumed {
      line +=
        "; resuming, \(percent(resumed.candidates, of: announcement.candidates)) done "
        + "(\(grouped(resumed.candidates)) of \(grouped(announcement.candidates)) candidates)"
    }
    return line
  }

  /// What an order-lost search tries: "in any order (14,739 likely orders first, then all
  /// 479,001,600 orders of the 12 free positions)", with ", 7 kept in place" and ", each with
  /// the ? word's 2048 choices"; "(293,698 likely orders only: every order of 24 positions is
  /// more than can be counted, keep some in place)".
  package static func orders(_ order: PhraseOrder) -> String {
    let free = order.wordCount - order.keptPositions.count
    let kept = order.keptPositions.isEmpty ? "" : ", \(order.keptPositions.count) kept in place"
    let likely = "\(grouped(order.structuredCount)) likely orders"
    let all =
      order.allOrdersCount.map {
        "\(likely) first, then all \(grouped($0)) orders of the \(free) free positions"
      }
      ?? "\(likely) only: every order of \(free) positions is more than can be counted, keep "
      + "some in place"
    let unknown =
      order.unknownChoices > 1 ? ", each with the ? word's \(order.unknownChoices) choices" : ""
    return "in any order (\(all)\(kept)\(unknown))"
  }

  /// "41.2% (1,728,000 of 4,194,304 candidates) · 2,900/s · ETA 12 min".
  package static func progress(
    _ progress: RecoveryProgress, _ announcement: RecoverySession.Announcement
  ) -> String {
    let rate = progress.seconds > 0 ? Double(progress.checked) / progress.seconds : 0
    return Self.progress(
      done: progress.candidates, of: announcement.candidates, "candidates",
      rate: grouped(UInt64(rate)), rateValue: rate,
      left: max(0, announcement.checksumValid - Double(progress.checksumValid)))
  }

  /// "41.2% (1,728,000 of 4,194,304 candidates)": how far a phase got.
  package static func done(_ searched: UInt64, of candidates: UInt64) -> String {
    "\(percent(searched, of: candidates)) (\(grouped(searched)) of \(grouped(candidates)) "
      + "candidates)"
  }

  /// What was corrected, one line each: "word 3 is 'thank' (was '?')", "words 9 and 10 were
  /// swapped", how the passphrase was found, "matched swarm.address".
  package static func corrections(_ found: RecoveredPhrase) -> [String] {
    var lines: [String] = []
    var changes = found.changes
    if let from = found.writtenPositions, from != Array(1...from.count) {
      lines.append(
        "the words in order are the written words "
          + from.map(String.init).joined(separator: " "))
    }
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
    case .tokens(let choices):
      lines.append("the passphrase is made of \(tokens(choices)) of the passphrase token list")
    case .edits(let edits) where edits.isEmpty:
      lines.append("the passphrase is the one remembered")
    case .edits(let edits):
      lines.append("the passphrase is the one remembered with " + describe(edits))
    }
    lines.append("matched \(found.matched ?? "")")
    return lines
  }

  /// "tokens line 1 token 2, then line 3 token 1".
  static func tokens(_ choices: [PasswordTokens.Choice]) -> String {
    "tokens " + choices.map { "line \($0.line) token \($0.token)" }.joined(separator: ", then ")
  }

  /// "character 3 replaced, a character inserted before character 5".
  package static func describe(_ edits: [PassphraseEdit]) -> String {
    edits.map(\.description).joined(separator: ", ")
  }

  // MARK: - A password search

  /// "the password is the one remembered with caps lock" and what it opens: "it opens the
  /// keystore FILE, the key of 0x…".
  package static func opened(
    _ origin: PasswordSet.Origin, _ opened: PasswordTarget.Opened, file: String
  ) -> [String] {
    var lines: [String] = []
    switch origin {
    case .remembered: lines.append("the password is the one remembered")
    case .typos(let edits):
      lines.append("the password is the one remembered with " + describe(edits))
    case .tokens(let choices):
      lines.append("the password is made of \(tokens(choices)) of the token list")
    case .line(let line): lines.append("the password is password candidate line \(line)")
    }
    switch opened {
    case .vault(let words):
      let holding = words.map { ", which holds a \($0)-word mnemonic" } ?? ""
      lines.append("it opens the vault \(file)\(holding)")
    case .keystore(let address):
      lines.append("it opens the keystore \(file), the key of \(address.checksummed)")
    }
    return lines
  }

  /// How a password was found and what it opened, as JSON fields added to `object` (never the
  /// password).
  package static func json(
    _ origin: PasswordSet.Origin, _ opened: PasswordTarget.Opened, into object: inout JSONObject
  ) {
    switch opened {
    case .vault(let words):
      object.append("opened", .string("vault"))
      if let words { object.append("words", .number(UInt64(words))) }
    case .keystore(let address):
      object.append("opened", .string("keystore"))
      object.append("address", .string(address.checksummed))
    }
    let password: JSONObject =
      switch origin {
      case .remembered: ["origin": .string("remembered")]
      case .typos(let edits):
        ["origin": .string("typos"), "typos": .array(edits.map { .string($0.description) })]
      case .tokens(let choices):
        [
          "origin": .string("tokens"),
          "tokens": .array(
            choices.map {
              .object(["line": .number(UInt64($0.line)), "token": .number(UInt64($0.token))])
            }),
        ]
      case .line(let line): ["origin": .string("candidates"), "line": .number(UInt64(line))]
      }
    object.append("password", .object(password))
  }
}

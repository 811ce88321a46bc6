import CryptoPrimitives
import Dispatch
import FoundationEssentials
import FreedomNodes
import Glibc
import NodeFiles
import PhraseRecovery
import Synchronization
import VaultKeys

/// Set by the SIGINT handler; read by the search loop, which then stops cleanly. A lock-free
/// atomic, so the handler only stores to it.
private let interruptFlag = Atomic<Bool>(false)
private var interruptRequested: Bool { interruptFlag.load(ordering: .relaxed) }

/// `freedom-keys recover`: finds the missing, illegible, misspelt or swapped words of a phrase
/// by deriving each candidate's identities and comparing them with what the user still has.
struct RecoverCommand: ParsableCommand {
  static let missing = Option.value("missing", "n", help: "N words were left out, anywhere.")
  static let swaps = Option.flag("swaps", help: "Two adjacent words may be exchanged (once).")
  static let typos = Option.value("typos", "k", help: "Up to K words anywhere may be wrong.")
  static let extra = Option.value("extra", "n", help: "N written words are too many, anywhere.")
  static let damageFile = Option.value(
    "damage-file", "path", help: "Or read the phrase one position a line.")
  static let passphraseCandidates = Option.value(
    "passphrase-candidates", "path", help: "Try each line of <path> as the passphrase.")
  static let passphraseTypos = Option.value(
    "passphrase-typos", "k", help: "The passphrase file's may have K edits (1-3).")
  static let maxHours = Option.value(
    "max-hours", "h", help: "Stop (resumably) after H hours.")
  static let address = Option.value(
    "address", "0x…", help: "Target: a wallet, Swarm or publisher key.")
  static let accounts = Option.value(
    "accounts", "n", help: "--address tries accounts 0…N-1 (3).")
  static let path = Option.value(
    "path", "template", help: "Try the target at these paths ({A-B}: range).")
  static let peerID = Option.value(
    "peer-id", "id", help: "Target: the IPFS PeerID (12D3… or k51…).")
  static let did = Option.value("did", "did", help: "Target: the Radicle DID or node id (z6Mk…).")
  static let overlay = Option.value("overlay", "hex", help: "Target: the Swarm overlay address.")
  static let networkID = Option.value(
    "network-id", "n", help: "The overlay's network (default 1, mainnet).")
  static let overlayNonce = Option.value(
    "overlay-nonce", "hex", help: "The overlay's 32-byte nonce (default zero).")
  static let beeDir = Option.value(
    "bee-dir", "dir", help: "Target: bee's <dir>/keys/swarm.key address.")
  static let antdDir = Option.value(
    "antd-dir", "dir", help: "Target: antd's <dir>/keys/swarm.key address.")
  static let kuboRepo = Option.value(
    "kubo-repo", "dir", help: "Target: kubo's <dir>/config PeerID.")
  static let radicleHome = Option.value(
    "radicle-home", "dir", help: "Target: <dir>/keys/radicle.pub.")
  static let antDir = Option.value("ant-dir", "dir", help: "Target: Ant's <dir>/identity.json.")
  static let freedomDir = SharedOptions.freedomDir(
    help: "Target: desktop's vault-meta.json addresses.")
  static let threads = Option.value("threads", "n", help: "Worker threads (default: every core).")
  static let shard = Option.value(
    "shard", "k/n", help: "Search the K-th of N parts (slurm, k8s/N).")
  static let resume = Option.value(
    "resume", "path", help: "Keep a checkpoint in <path>, resume from it.")
  static let out = Option.value(
    "out", "path", help: "Write the found phrase to a new file (0600).")
  static let progressInterval = Option.value(
    "progress-interval", "s", help: "Seconds between progress lines (default 30).")
  static let json = Option.flag("json", help: "Print the result as JSON.")

  static let directoryOptions = [beeDir, antdDir, kuboRepo, radicleHome, antDir, freedomDir]

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "recover",
      abstract: "Find the unreadable, missing, misspelt or swapped words.",
      discussion: """
        The mnemonic file holds the phrase as remembered. Per word: a wordlist word;
        ? for a word that cannot be read; ab* for a word known by its beginning; *et
        or w*t, * any letters; wet|west for alternatives; a word in no wordlist is
        taken as misspelt and replaced by the words within two letters of it
        (English four-letter abbreviations count). --damage-file holds the same, one
        position a line. --missing, --extra, --swaps and --typos widen the search;
        the word count must end at 12-24. With none of them (and a target, no
        --shard) recover tries in turn the phrase as written, a swap, one wrong word,
        ... (automatic phases), saying each before it starts; --typos 0 searches the
        phrase as written only. --passphrase-candidates FILE tries each line as the
        BIP-39 passphrase; --passphrase-typos K the passphrase file's within K edits.
        --max-hours H stops the run after H hours, as Ctrl-C does.
        Each candidate that passes the checksum is checked against the targets (at
        least one, else the checksum-valid candidates are only counted, and written
        with --out when there are at most 100). --address tries the user wallet, the
        Swarm wallet and, for i below --accounts N (3), Freedom's wallet
        m/44'/60'/i'/0/0, MetaMask's account m/44'/60'/0'/0/i and publisher key i;
        --path TEMPLATE tries exactly the paths it names instead, {A-B} a range:
        "m/44'/60'/0'/0/{0-19}" (at most 1000 paths); with --peer-id or --did it names
        Ed25519 paths, hardened steps only. Directory targets read only public
        data, no password: bee and antd keys/swarm.key's address, kubo's config
        Identity.PeerID, Radicle's keys/radicle.pub, Ant's identity.json (its key's
        address) and desktop Freedom's vault-meta.json (or identity/vault-meta.json).
        Prints which words changed and which target matched, never the phrase;
        --out writes the whole corrected phrase to a new file (mode 0600). Before
        starting it says how many candidates there are and how long they take at
        the rate measured here; progress follows on stderr, every second on a
        terminal, else a line every 30 s (--progress-interval). --out is checked
        before the search: its directory must exist and be writable, the file must
        not. Ctrl-C (or SIGTERM) stops; with --resume the next run continues (the
        checkpoint holds progress, a hash of the search and, once found, which
        words changed, never the phrase); rerun after a match, it says "found
        earlier" and can write --out without searching. --shard K/N
        searches the K-th of N disjoint parts, one per machine or job; --shard slurm
        takes K and N from an sbatch array task (--array=1-N), --shard k8s/N from a
        Kubernetes Indexed Job. 'recover collect DIR' merges the shards' --json
        results (interrupted, --json still prints one, "complete": false). Exit status:
        0 found (or counted), 4 searched everything without a match, 1 errors,
        2 usage errors, 130 interrupted.
        """,
      options: [
        MnemonicOptions.mnemonicFile, damageFile, MnemonicOptions.passphraseFile,
        passphraseCandidates, passphraseTypos, MnemonicOptions.language, missing, extra, swaps,
        typos, maxHours, address, accounts, path, peerID, did, overlay, networkID,
        overlayNonce,
      ] + directoryOptions + [threads, shard, resume, out, progressInterval, json],
      subcommands: [RecoverCollectCommand.self],
      usage: "[<options>]",
      runsWithoutSubcommand: true)
  }

  let input: MnemonicOptions
  /// `--damage-file`: the phrase one position a line, instead of `--mnemonic-file`.
  let damagePath: String?
  let candidatesPath: String?
  let passphraseTypoCount: Int?
  /// Whether a damage model was given; without one, the automatic phases run.
  let givesDamage: Bool
  /// Whether `--shard` was given (even 1/1): then exactly the search given, no phases.
  let shardGiven: Bool
  let maxHours: Double?
  let maxHoursText: String
  let extraWords: Int
  let missingWords: Int
  let allowsSwap: Bool
  let typoCount: Int
  let accountCount: Int
  /// Whether an --address is looked for at --accounts' paths (not at --path's).
  let addressByAccounts: Bool
  let givenTargets: [RecoveryTarget]
  let directories: [(option: Option, path: String)]
  let threadCount: Int
  let shardIndex: Int
  let shardCount: Int
  let resumePath: String?
  let outputPath: String?
  /// Seconds between progress lines; nil: 1 on a terminal, else 30.
  let progressSeconds: Double?
  let printsJSON: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    damagePath = arguments.value(Self.damageFile)
    input = try MnemonicOptions(arguments, phraseReadElsewhere: damagePath != nil)
    candidatesPath = arguments.value(Self.passphraseCandidates)
    passphraseTypoCount = try arguments.integer(Self.passphraseTypos, in: 1...3)
    if damagePath != nil, arguments.value(MnemonicOptions.mnemonicFile) != nil {
      throw arguments.usage(
        "--damage-file and --mnemonic-file cannot be combined: each holds the phrase")
    }
    if damagePath != nil, arguments.value(MnemonicOptions.vaultFile) != nil {
      throw arguments.usage("--damage-file and --vault-file cannot be combined")
    }
    if candidatesPath != nil, input.passphrasePath != nil {
      throw arguments.usage(
        "--passphrase-candidates and --passphrase-file cannot be combined: put the remembered "
          + "passphrase on a line of the candidates file")
    }
    if passphraseTypoCount != nil, input.passphrasePath == nil {
      throw arguments.usage(
        "--passphrase-typos <k> needs --passphrase-file PATH: the passphrase as remembered")
    }
    let standardInput = [damagePath, candidatesPath, input.passphrasePath, input.mnemonicPath]
      .filter { $0 == "-" }
    if standardInput.count > 1 {
      throw arguments.usage("only one of the files given can be standard input ('-')")
    }
    if damagePath == "" || candidatesPath == "" {
      throw arguments.usage("--damage-file and --passphrase-candidates need a path")
    }
    givesDamage =
      [Self.missing, Self.extra, Self.typos].contains { arguments.value($0) != nil }
      || arguments.flag(Self.swaps)
    if let text = arguments.value(Self.maxHours) {
      guard let hours = Double(text), hours.isFinite, hours > 0, hours <= 1_000_000 else {
        throw arguments.usage(
          "--max-hours <h> must be a number of hours above 0, as in --max-hours 1.5")
      }
      maxHours = hours
      // Digits and a point only, so the message repeats the number as it was written.
      maxHoursText =
        text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } ? text : "\(hours)"
    } else {
      maxHours = nil
      maxHoursText = ""
    }
    extraWords = try arguments.integer(Self.extra, in: 0...12) ?? 0
    missingWords = try arguments.integer(Self.missing, in: 0...12) ?? 0
    allowsSwap = arguments.flag(Self.swaps)
    typoCount = try arguments.integer(Self.typos, in: 0...24) ?? 0
    accountCount = try arguments.integer(Self.accounts, in: 1...1000) ?? 3
    if arguments.value(Self.accounts) != nil, arguments.value(Self.address) == nil {
      throw arguments.usage("--accounts <n> only applies with --address")
    }
    var paths: [DerivationPath]?
    if let text = arguments.value(Self.path) {
      // The target says the curve: an address is secp256k1, a PeerID or DID Ed25519.
      guard [Self.address, Self.peerID, Self.did].filter({ arguments.value($0) != nil }).count == 1
      else {
        throw arguments.usage(
          "--path <template> applies to one target: give it with one of --address, --peer-id "
            + "or --did")
      }
      guard arguments.value(Self.accounts) == nil else {
        throw arguments.usage(
          "--path <template> names the paths itself: give --accounts <n> or --path, not both")
      }
      do {
        paths = try DerivationPathTemplate(text).paths
      } catch {
        throw arguments.usage("--path: \(error)")
      }
    }

    addressByAccounts = arguments.value(Self.address) != nil && paths == nil
    var targets: [RecoveryTarget] = []
    if let text = arguments.value(Self.address) {
      do {
        let address = try EthereumAddress(text)
        targets.append(
          paths.map { .address(address, paths: $0) } ?? .address(address, accounts: accountCount))
      } catch {
        throw arguments.usage("--address: \(error)")
      }
    }
    if let text = arguments.value(Self.peerID) {
      let peerID: Libp2pPeerID
      do {
        peerID = try Libp2pPeerID(text)
      } catch {
        throw arguments.usage("--peer-id: \(error)")
      }
      targets.append(
        try paths.map { paths throws(CLIError) in
          try Self.ed25519(arguments) { () throws(KeyDerivationError) in
            try .peerID(peerID, paths: paths)
          }
        } ?? .peerID(peerID))
    }
    if let text = arguments.value(Self.did) {
      let identity: RadicleIdentity
      do {
        identity = try RadicleIdentity(text)
      } catch {
        throw arguments.usage("--did: \(error)")
      }
      targets.append(
        try paths.map { paths throws(CLIError) in
          try Self.ed25519(arguments) { () throws(KeyDerivationError) in
            try .radicle(identity, paths: paths)
          }
        } ?? .radicle(identity))
    }
    let networkID = try arguments.integer(Self.networkID, in: 0...UInt64.max)
    let nonceText = arguments.value(Self.overlayNonce)
    if let text = arguments.value(Self.overlay) {
      guard let bytes = Hex.decode(text), bytes.count == SwarmOverlay.byteCount else {
        throw arguments.usage("--overlay <hex> must be 64 hex digits (32 bytes)")
      }
      var nonce = [UInt8](repeating: 0, count: SwarmOverlay.nonceByteCount)
      if let nonceText {
        guard let decoded = Hex.decode(nonceText), decoded.count == SwarmOverlay.nonceByteCount
        else { throw arguments.usage("--overlay-nonce <hex> must be 64 hex digits (32 bytes)") }
        nonce = decoded
      }
      targets.append(
        .overlay(bytes, networkID: networkID ?? SwarmOverlay.mainnet, nonce: nonce))
    } else if networkID != nil || nonceText != nil {
      throw arguments.usage("--network-id and --overlay-nonce only apply with --overlay <hex>")
    }
    givenTargets = targets
    directories = Self.directoryOptions.compactMap { option in
      arguments.value(option).map { (option, $0) }
    }
    if directories.contains(where: { $0.path.isEmpty }) {
      throw arguments.usage("a directory given is empty")
    }

    threadCount =
      try arguments.integer(Self.threads, in: 1...1024)
      ?? ProcessInfo.processInfo.activeProcessorCount
    let shard =
      try arguments.value(Self.shard).map { text throws(CLIError) in
        try RecoverShard.parse(
          text, environment: ProcessInfo.processInfo.environment, arguments: arguments)
      } ?? .whole
    (shardIndex, shardCount) = (shard.index, shard.count)
    shardGiven = arguments.value(Self.shard) != nil
    resumePath = arguments.value(Self.resume)
    outputPath = arguments.value(Self.out)
    if resumePath == "" || outputPath == "" {
      throw arguments.usage("--resume and --out need a path")
    }
    if let text = arguments.value(Self.progressInterval) {
      guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
        throw arguments.usage(
          "--progress-interval <s> must be a number of seconds above 0 and at most 86400, "
            + "as in --progress-interval 30")
      }
      progressSeconds = seconds
    } else {
      progressSeconds = nil
    }
    printsJSON = arguments.flag(Self.json)
    if candidatesPath != nil || passphraseTypoCount != nil, givenTargets.isEmpty,
      directories.isEmpty
    {
      throw arguments.usage(
        "--passphrase-candidates and --passphrase-typos need a target (--address, --bee-dir, …): "
          + "without one only the words are counted")
    }
  }

  /// A PeerID or DID target at `--path`'s paths, which SLIP-0010 allows with hardened steps only.
  private static func ed25519(
    _ arguments: ParsedArguments, _ target: () throws(KeyDerivationError) -> RecoveryTarget
  ) throws(CLIError) -> RecoveryTarget {
    do {
      return try target()
    } catch {
      guard case .nonHardenedEd25519(let position, _) = error else {
        throw arguments.usage("--path: \(error)")
      }
      throw arguments.usage(
        "--path: a PeerID or DID key (Ed25519, SLIP-0010) is derived through hardened steps "
          + "only, and step \(position) is not: mark every step with ', as in m/44'/73405'/{0-4}'/0'/0'"
      )
    }
  }

  /// Whether several passphrases are tried (the matching one is written beside --out).
  var searchesPassphrases: Bool { candidatesPath != nil || passphraseTypoCount != nil }

  /// Whether the seed could be another passphrase's: none was given or searched.
  var passphraseMayExplain: Bool { input.passphrasePath == nil && !searchesPassphrases }

  /// What else than the words could explain no match: an address of a later account, a BIP-39
  /// passphrase; nil when the search covers both.
  var otherExplanations: String? {
    var reasons: [String] = []
    if addressByAccounts {
      reasons.append(
        "an address of an account beyond the \(accountCount) tried (--accounts N or --path "
          + "TEMPLATE)")
    }
    if passphraseMayExplain {
      reasons.append("a BIP-39 passphrase (--passphrase-file or --passphrase-candidates FILE)")
    }
    return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
  }

  /// The passphrases to try: the candidates file's lines, the remembered passphrase's edits,
  /// or the one passphrase (empty without --passphrase-file).
  private func readPassphrases() throws -> PassphraseSet {
    if let candidatesPath {
      let file = try SecretInput.read(
        SecretSource(role: "passphrase candidates", path: candidatesPath),
        limit: Self.candidatesByteLimit)
      return try PassphraseSet(candidates: file)
    }
    let passphrase = try input.readPassphrase()
    if let passphraseTypoCount {
      return try PassphraseSet(remembered: passphrase, edits: passphraseTypoCount)
    }
    return PassphraseSet(passphrase: passphrase)
  }

  /// A candidates file larger than this is refused before it is read.
  static let candidatesByteLimit = 64 << 20

  // MARK: - Running

  func run() throws {
    // Public data first, so a wrong directory fails before the phrase is asked for.
    var targets = givenTargets
    for (option, path) in directories {
      targets += try Self.targets(from: path, option: option)
    }
    if let outputPath {
      try Self.checkOutput(outputPath)
      if searchesPassphrases { try Self.checkOutput(outputPath + ".passphrase") }
    }
    let damaged: DamagedPhrase
    if let damagePath {
      let file = try SecretInput.read(SecretSource(role: "damage", path: damagePath))
      damaged = try DamagedPhrase(damageFile: file, language: input.language)
    } else {
      damaged = try DamagedPhrase(phrase: try input.readPhrase(), language: input.language)
    }
    let passphrases = try readPassphrases()
    let configuration = PhraseRecovery.Configuration(
      threads: threadCount, shardIndex: shardIndex, shardCount: shardCount)
    // With no damage model, the likely kinds of damage in turn (never split into shards: every
    // shard of a search must be the same search).
    let automatic = !givesDamage && !targets.isEmpty && !shardGiven
    let phases: [(label: String, recovery: PhraseRecovery)]
    if automatic {
      let plan = RecoveryPhase.plan(for: damaged)
      guard !plan.isEmpty else {
        // No phase fits the word count: the same error a search of it gives.
        _ = try RecoverySearch(phrase: damaged)
        return
      }
      phases = try plan.map { phase, search throws in
        (
          Self.describe(phase),
          try PhraseRecovery(
            search: search, targets: targets, passphrases: passphrases,
            configuration: configuration)
        )
      }
    } else {
      let search = try RecoverySearch(
        phrase: damaged, missingWords: missingWords, extraWords: extraWords,
        allowsSwap: allowsSwap, typos: typoCount)
      phases = [
        (
          "",
          try PhraseRecovery(
            search: search, targets: targets, passphrases: passphrases,
            configuration: configuration)
        )
      ]
    }
    // A checkpoint is of one phase; the phases before it were searched to their end.
    var first = 0
    var resumed: RecoveryProgress?
    if let resumePath, let progress = try Self.readCheckpoint(resumePath) {
      guard let phase = phases.firstIndex(where: { $0.recovery.searchHash == progress.searchHash })
      else {
        throw Self.checkpointFailure(resumePath, .otherSearch)
      }
      do {
        try phases[phase].recovery.validate(progress)
      } catch {
        throw Self.checkpointFailure(resumePath, error)
      }
      (first, resumed) = (phase, progress)
    }
    if let resumePath, let resumed, resumed.match != nil {
      // The search found its match before: derive it again, check it, and say so.
      let recovery = phases[first].recovery
      let outcome: PhraseRecovery.Outcome
      do {
        outcome = try recovery.run(resumingFrom: resumed)
      } catch {
        throw Self.checkpointFailure(resumePath, error)
      }
      resumingNote(first: first, of: phases.count)
      Output.standardError(
        "found earlier: \(resumePath) records this search's match, derived again from the "
          + "phrase and checked against the targets; nothing was searched\n")
      try report(outcome, recovery: recovery, candidates: UInt64(recovery.range.count))
      return
    }

    // The first line names the seed engine and what a candidate costs (targets only: a
    // search without one counts the checksum-valid phrases and derives nothing).
    // Measured once: every phase has the same targets and passphrases, so the same cost.
    var secondsPerCandidate: Double?
    if let recovery = phases.first?.recovery, !recovery.targets.isEmpty {
      let (seconds, work, fewest) = recovery.measureCandidates()
      secondsPerCandidate = seconds
      Output.standardError(Self.engineLine(work: work, fewest: fewest))
    }
    resumingNote(first: first, of: phases.count)

    // Initialised here, not first in the handler (a lazy global's initialiser is not
    // async-signal-safe).
    _ = interruptRequested
    // SIGTERM too: a batch system preempting or requeuing a task sends it first.
    signal(SIGINT) { _ in interruptFlag.store(true, ordering: .relaxed) }
    signal(SIGTERM) { _ in interruptFlag.store(true, ordering: .relaxed) }
    defer {
      signal(SIGINT, SIG_DFL)
      signal(SIGTERM, SIG_DFL)
    }
    // A parent may have blocked SIGINT (the mask is inherited); the threads started below
    // inherit this thread's mask, so unblocking it here lets Ctrl-C reach the handler.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    sigaddset(&interrupt, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    let deadline = maxHours.map { DispatchTime.now().uptimeNanoseconds + UInt64($0 * 3.6e12) }
    for index in first..<phases.count {
      let (label, recovery) = phases[index]
      let phase = automatic ? (index + 1, phases.count, label) : nil
      let outcome = try search(
        recovery, resumed: index == first ? resumed : nil, phase: phase, deadline: deadline,
        secondsPerCandidate: secondsPerCandidate)
      if outcome.found == nil, outcome.isComplete, index + 1 < phases.count {
        // Exhausted: the next phase, if there is time for it.
        Output.standardError(
          "phase \(index + 1) of \(phases.count) (\(label)): no match in "
            + "\(Self.grouped(UInt64(recovery.range.count))) candidates\n")
        if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline {
          throw CLIError.interrupted(
            "stopped after --max-hours \(maxHoursText) before phase \(index + 2) of "
              + "\(phases.count): " + resumeHint)
        }
        if index + 2 == phases.count, let otherExplanations {
          // The last phase is the widest by far: say, before it, what else could explain the
          // likelier phases' finding nothing.
          Output.standardError(
            "the likelier phases found nothing; if the phrase is nearly right, the targets may "
              + "be what differs: \(otherExplanations)\n")
        }
        continue
      }
      try report(
        outcome, recovery: recovery, candidates: UInt64(recovery.range.count), phase: phase,
        deadline: deadline)
      return
    }
  }

  /// Says that a checkpoint of phase `first + 1` skips the phases before it.
  private func resumingNote(first: Int, of count: Int) {
    guard first > 0, let resumePath else { return }
    Output.standardError(
      "resuming at phase \(first + 1) of \(count): \(resumePath) shows the phases before it "
        + "searched to their end\n")
  }

  /// Runs one search (one phase) to its end, a match, Ctrl-C or the deadline.
  private func search(
    _ recovery: PhraseRecovery, resumed: RecoveryProgress?, phase: (Int, Int, String)?,
    deadline: UInt64?, secondsPerCandidate: Double?
  ) throws -> PhraseRecovery.Outcome {
    let candidates = UInt64(recovery.range.count)
    if let (index, count, label) = phase {
      Output.standardError("phase \(index) of \(count): \(label)\n")
    }
    let valid = try checksumValidCount(recovery)
    guard !interruptRequested else {
      if printsJSON, !recovery.targets.isEmpty {
        printJSON(
          found: nil, foundEarlier: false, complete: false, progress: resumed,
          recovery: recovery, candidates: candidates)
      }
      throw CLIError.interrupted("interrupted while counting, before the search started")
    }
    announce(
      recovery, candidates: candidates, valid: valid, resumed: resumed,
      secondsPerCandidate: secondsPerCandidate)
    // On a terminal one line is redrawn every second; elsewhere (nohup, a batch job's log) a
    // line is appended every 30 s, so the log shows the search is alive and how far it got.
    let onTerminal = isatty(STDERR_FILENO) == 1
    let interval = progressSeconds ?? (onTerminal ? 1 : 30)
    var lastCheckpoint = DispatchTime.now().uptimeNanoseconds
    var lastLine = lastCheckpoint
    let expected = valid.value
    let outcome: PhraseRecovery.Outcome
    do {
      outcome = try recovery.run(
        resumingFrom: resumed, collect: 100, tick: min(0.2, interval)
      ) { progress in
        let now = DispatchTime.now().uptimeNanoseconds
        if let resumePath, now - lastCheckpoint > 5_000_000_000 {
          lastCheckpoint = now
          try? Self.writeCheckpoint(progress, to: resumePath)
        }
        if Double(now - lastLine) / 1e9 >= interval {
          lastLine = now
          let line = Self.progressLine(progress, candidates: candidates, expected: expected)
          Output.standardError(onTerminal ? "\r\u{1B}[K" + line : "progress: " + line + "\n")
        }
        return !interruptRequested && deadline.map { now < $0 } ?? true
      }
    } catch {
      throw Self.checkpointFailure(resumePath ?? "", error)
    }
    if onTerminal { Output.standardError("\r\u{1B}[K") }
    if let resumePath {
      try Self.writeCheckpoint(outcome.progress, to: resumePath)
    }
    return outcome
  }

  /// The checksum-valid count before starting: exact for up to 2^22 candidates, else expected.
  private func checksumValidCount(_ recovery: PhraseRecovery) throws -> (value: Double, exact: Bool)
  {
    let passphrases = recovery.passphrases.count
    let expected =
      recovery.search.expectedChecksumValidCount * Double(passphrases) / Double(shardCount)
    guard !recovery.targets.isEmpty else { return (expected, false) }
    // With several passphrases a shard's range cuts across them: counted exactly when whole.
    guard UInt64(recovery.range.count) / UInt64(passphrases) <= 1 << 22,
      passphrases == 1 || shardCount == 1
    else {
      return (expected, false)
    }
    let counting = try PhraseRecovery(
      search: recovery.search, targets: [],
      configuration: .init(threads: threadCount, shardIndex: shardIndex, shardCount: shardCount))
    let outcome = try counting.run(collect: 0) { _ in !interruptRequested }
    return (Double(outcome.progress.checksumValid) * Double(passphrases), true)
  }

  /// "searching 4,194,304 candidates (262,144 pass the checksum) …; about 90 s on 2 threads".
  private func announce(
    _ recovery: PhraseRecovery, candidates: UInt64, valid: (value: Double, exact: Bool),
    resumed: RecoveryProgress?, secondsPerCandidate: Double?
  ) {
    let search = recovery.search
    var line =
      "searching \(Self.grouped(candidates)) candidates of \(search.wordCount) "
      + "\(search.phrase.language.rawValue) words"
    if recovery.passphrases.count > 1 {
      line +=
        " (\(Self.grouped(search.candidateCount)) phrases × "
        + "\(Self.grouped(UInt64(recovery.passphrases.count))) passphrases)"
    }
    if shardCount > 1 { line += " (shard \(shardIndex)/\(shardCount))" }
    line +=
      ", \(valid.exact ? "" : "about ")\(Self.grouped(UInt64(valid.value.rounded()))) pass the checksum"
    if let perCandidate = secondsPerCandidate {
      let parallel = Double(min(threadCount, ProcessInfo.processInfo.activeProcessorCount))
      var seconds = valid.value * perCandidate / parallel
      if let resumed, candidates > 0 {
        seconds *= max(0, 1 - Double(resumed.candidates) / Double(candidates))
      }
      line +=
        "; about \(Self.duration(seconds)) on \(threadCount) \(threadCount == 1 ? "thread" : "threads")"
        + " at \(Self.grouped(UInt64((parallel / perCandidate).rounded())))/s"
    }
    if let resumed {
      line +=
        "; resuming, \(Self.percent(resumed.candidates, of: candidates)) done "
        + "(\(Self.grouped(resumed.candidates)) of \(Self.grouped(candidates)) candidates)"
    }
    Output.standardError(line + "\n")
  }

  /// The first line of a search: the seed engine and, per candidate, the point
  /// multiplications the targets cost against the fewest they need.
  /// "engine: multi-buffer AVX-512 (libIPSec_MB 1.3.0); per candidate 20 secp256k1 public keys
  /// (the fewest these targets need: 20), 24 HMAC-SHA512, 0 Ed25519 keys".
  static func engineLine(work: TargetMatcher.Stats, fewest: TargetMatcher.Stats) -> String {
    let engine = PBKDF2SHA512Batch.engine
    var line = "engine: \(engine)"
    if engine == .singleStream {
      line +=
        " (\(PBKDF2SHA512Batch.multiBufferUnavailableReason ?? "FREEDOM_KEYS_MULTIBUFFER=off"))"
    } else if let version = PBKDF2SHA512Batch.multiBufferLibraryVersion {
      line += " (libIPSec_MB \(version))"
    }
    let seeds = max(1, work.seeds)
    func each(_ count: Int) -> String {
      count % seeds == 0 ? "\(count / seeds)" : String(Double(count) / Double(seeds))
    }
    return line
      + "; per candidate \(each(work.publicKeys)) secp256k1 public keys (the fewest these targets "
      + "need: \(fewest.publicKeys)), \(each(work.hmacs)) HMAC-SHA512, \(each(work.ed25519Keys)) "
      + "Ed25519 keys\n"
  }

  /// How to continue a search that stopped.
  private var resumeHint: String {
    resumePath.map { "run the same command again to continue from \($0)" }
      ?? "give --resume FILE to keep a checkpoint and continue later"
  }

  private func report(
    _ outcome: PhraseRecovery.Outcome, recovery: PhraseRecovery, candidates: UInt64,
    phase: (Int, Int, String)? = nil, deadline: UInt64? = nil
  ) throws {
    let progress = outcome.progress
    if !outcome.isComplete {
      // A shard's result file still says how far it got, for `recover collect`.
      if printsJSON, !recovery.targets.isEmpty {
        printJSON(
          found: nil, foundEarlier: false, complete: false, progress: progress,
          recovery: recovery, candidates: candidates)
      }
      let done =
        "\(Self.percent(progress.candidates, of: candidates)) (\(Self.grouped(progress.candidates)) "
        + "of \(Self.grouped(candidates)) candidates)"
      let during = phase.map { " of phase \($0.0) of \($0.1) (\($0.2))" } ?? ""
      if !interruptRequested, let deadline, DispatchTime.now().uptimeNanoseconds >= deadline {
        throw CLIError.interrupted(
          "stopped after --max-hours \(maxHoursText), having searched \(done)"
            + "\(during): \(resumeHint)")
      }
      throw CLIError.interrupted("interrupted after searching \(done)\(during): \(resumeHint)")
    }
    guard !recovery.targets.isEmpty else {
      try reportCount(outcome, candidates: candidates)
      return
    }
    if let found = outcome.found, let outputPath {
      try Self.writePhrase(found.mnemonic, to: outputPath)
      if searchesPassphrases {
        try Self.write(found.passphrase + SecureBytes([0x0A]), to: outputPath + ".passphrase")
      }
    }
    if printsJSON {
      printJSON(
        found: outcome.found, foundEarlier: outcome.foundEarlier, complete: true,
        progress: progress, recovery: recovery, candidates: candidates)
    } else if let found = outcome.found {
      Output.standardOutput(
        (outcome.foundEarlier ? "found earlier\n" : "")
          + Self.describe(found, outputPath: outputPath))
    }
    if outcome.found == nil {
      let searched =
        progress.candidates == candidates
        ? "all \(Self.grouped(candidates)) candidates"
        : "\(Self.grouped(progress.candidates)) of \(Self.grouped(candidates)) candidates"
      let phases = phase.map { "all \($0.1) phases searched, the last of " } ?? ""
      // Every phrase may be right and the target elsewhere, or the seed another passphrase's.
      let accounts =
        addressByAccounts
        ? " (an address may be of an account beyond the \(accountCount) tried: --accounts N or "
          + "--path TEMPLATE)" : ""
      let passphrase =
        passphraseMayExplain
        ? "; a BIP-39 passphrase could explain it: give --passphrase-file (or "
          + "--passphrase-candidates FILE)" : ""
      throw CLIError.notFound(
        "no candidate matched the targets: \(phases)\(searched) "
          + "(\(Self.grouped(progress.checksumValid)) checksum-valid) were searched; widen the "
          + "search (--typos, --swaps, --missing, --extra, more ? words) or check the targets"
          + accounts + passphrase)
    }
  }

  /// One shard's result: what `recover collect` reads. `candidates` is this shard's part,
  /// `searchCandidates` the whole search's, `search` a hash of the search that holds no word.
  private func printJSON(
    found: RecoveredPhrase?, foundEarlier: Bool, complete: Bool, progress: RecoveryProgress?,
    recovery: PhraseRecovery, candidates: UInt64
  ) {
    var object: JSONObject = ["found": .bool(found != nil)]
    if foundEarlier { object.append("foundEarlier", .bool(true)) }
    object.append(
      "changes",
      .array(
        (found?.changes ?? []).map { change in
          .object([
            "position": .number(UInt64(change.position)), "word": .string(change.word),
            "was": .string(change.was ?? ""),
          ])
        }))
    if let matched = found?.matched { object.append("matched", .string(matched)) }
    object.append("complete", .bool(complete))
    object.append("candidates", .number(candidates))
    object.append("searched", .number(progress?.candidates ?? 0))
    object.append("checksumValid", .number(progress?.checksumValid ?? 0))
    object.append("checked", .number(progress?.checked ?? 0))
    object.append("seconds", .tenths(progress?.seconds ?? 0))
    object.append(
      "shard",
      .object(["index": .number(UInt64(shardIndex)), "count": .number(UInt64(shardCount))]))
    object.append("searchCandidates", .number(recovery.candidateCount))
    object.append("search", .string(Hex.encode(recovery.publicSearchHash)))
    Output.standardOutput(JSONValue.object(object).rendered() + "\n")
  }

  /// Without targets: the count, and the candidates with --out when there are at most 100.
  private func reportCount(_ outcome: PhraseRecovery.Outcome, candidates: UInt64) throws {
    let valid = outcome.progress.checksumValid
    if let outputPath {
      guard valid <= 100, outcome.candidates.count == valid else {
        throw CLIError.failure(
          "\(Self.grouped(valid)) candidates pass the checksum; --out writes at most 100 of "
            + "them: give a target (--address, --bee-dir, …) to find the right one")
      }
      let lines = outcome.candidates.reduce(SecureBytes(count: 0) { _ in }) {
        $0 + $1.mnemonic.phrase() + SecureBytes([0x0A])
      }
      try Self.write(lines, to: outputPath)
    }
    if printsJSON {
      var object: JSONObject = [
        "candidates": .number(candidates), "checksumValid": .number(valid),
      ]
      if outputPath != nil { object.append("written", .number(valid)) }
      object.append("seconds", .tenths(outcome.progress.seconds))
      Output.standardOutput(JSONValue.object(object).rendered() + "\n")
    } else {
      var text =
        "\(Self.grouped(candidates)) candidates, \(Self.grouped(valid)) pass the checksum\n"
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
      lines.append("the passphrase is the one remembered with " + Self.describe(edits))
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

  private static func progressLine(
    _ progress: RecoveryProgress, candidates: UInt64, expected: Double
  )
    -> String
  {
    let rate = progress.seconds > 0 ? Double(progress.checked) / progress.seconds : 0
    let remaining = max(0, expected - Double(progress.checksumValid))
    let eta = rate > 0 ? "ETA \(duration(remaining / rate))" : "ETA …"
    return
      "\(percent(progress.candidates, of: candidates)) (\(grouped(progress.candidates)) of "
      + "\(grouped(candidates)) candidates) · \(grouped(UInt64(rate)))/s · \(eta)"
  }

  /// Refuses an --out path before the search, so that a phrase found is never lost to it: the
  /// file must not exist (not even as a dangling symbolic link), its directory must.
  static func checkOutput(_ path: String) throws {
    var status = stat()
    if lstat(path, &status) == 0 {
      if status.st_mode & S_IFMT == S_IFLNK {
        throw CLIError.failure(
          "\(path) is a symbolic link; refusing to write through it — choose another path")
      }
      throw CLIError.failure(
        "\(path) already exists; refusing to overwrite it — choose another path")
    }
    let directory =
      switch path.lastIndex(of: "/") {
      case nil: "."
      case path.startIndex: "/"
      case let slash?: String(path[..<slash])
      }
    guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw CLIError.failure(
        "\(directory) is not a directory, so --out cannot write \(path): create it first or "
          + "choose another path")
    }
    guard access(directory, W_OK | X_OK) == 0 else {
      throw CLIError.failure(
        "\(directory) is not writable, so --out cannot write \(path): choose another directory")
    }
  }

  // MARK: - Files

  /// The targets a node or Freedom directory names, from public data only.
  static func targets(from directory: String, option: Option) throws -> [RecoveryTarget] {
    try NodeText.run(.recover(option)) {
      switch option {
      case beeDir: try NodeSession.recoveryTargets(Bee(directory: directory))
      case antdDir: try NodeSession.recoveryTargets(Antd(directory: directory))
      case kuboRepo: try NodeSession.recoveryTargets(Kubo(repository: directory))
      case radicleHome: try NodeSession.recoveryTargets(Radicle(home: directory))
      case antDir: try NodeSession.recoveryTargets(Ant(directory: directory))
      default: try NodeSession.recoveryTargets(DesktopInstallation(userData: directory))
      }
    }
  }

  /// The checkpoint at `path` if there is one (which search it belongs to is checked after).
  private static func readCheckpoint(_ path: String) throws -> RecoveryProgress? {
    guard let bytes = try ExportFiles.read(path) else { return nil }
    do {
      return try RecoveryProgress(json: bytes.withUnsafeBytes { Array($0) })
    } catch {
      throw checkpointFailure(path, error)
    }
  }

  /// The one line for a checkpoint that cannot be used.
  private static func checkpointFailure(_ path: String, _ error: RecoveryCheckpointError)
    -> CLIError
  {
    switch error {
    case .otherSearch:
      .failure("\(path): \(error): give another --resume file, or the same options as before")
    case .malformed, .inconsistent, .matchFailsTargets:
      .failure(
        "\(path): \(error); it was changed or damaged: delete it (or give another --resume "
          + "file) to search from the start")
    }
  }

  private static func writeCheckpoint(_ progress: RecoveryProgress, to path: String) throws {
    do {
      try SecureFileWriter.write(progress.jsonBytes(), to: path, mode: 0o600, replace: .replace)
    } catch {
      throw CLIError.failure("cannot write the checkpoint \(path): \(error)")
    }
  }

  private static func writePhrase(_ mnemonic: Mnemonic, to path: String) throws {
    try write(mnemonic.phrase() + SecureBytes([0x0A]), to: path)
  }

  private static func write(_ bytes: SecureBytes, to path: String) throws {
    do {
      try SecureFileWriter.write(bytes, to: path, mode: 0o600, replace: .refuseExisting)
    } catch .alreadyExists(let path) {
      throw CLIError.failure(
        "\(path) already exists; refusing to overwrite it — choose another path")
    } catch {
      throw CLIError.failure("cannot write \(path): \(error)")
    }
  }

  /// "character 3 replaced, a character inserted before character 5".
  static func describe(_ edits: [PassphraseEdit]) -> String {
    edits.map(\.description).joined(separator: ", ")
  }

  /// "the phrase as written", "one wrong word", "one missing word and one wrong word".
  static func describe(_ phase: RecoveryPhase) -> String {
    phase.description
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

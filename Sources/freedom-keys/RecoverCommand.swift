import CommandLineKit
import CryptoPrimitives
import Dispatch
import FoundationEssentials
import FreedomNodes
import Recovery
import VaultKeys

/// `freedom-keys recover`: finds the missing, illegible, misspelt or swapped words of a phrase
/// by deriving each candidate's identities and comparing them with what the user still has.
struct RecoverCommand: Command {
  static let missing = Option.value("missing", "n", help: "N words were left out, anywhere.")
  static let swaps = Option.flag("swaps", help: "Two adjacent words may be exchanged (once).")
  static let typos = Option.value("typos", "k", help: "Up to K words anywhere may be wrong.")
  static let extra = Option.value("extra", "n", help: "N written words are too many, anywhere.")
  static let orderLost = Option.flag(
    "order-lost", help: "Every word is right, their order is not.")
  static let keepPositions = Option.value(
    "keep-positions", "list", help: "With --order-lost: words in place (1,5,9).")
  static let damageFile = Option.value(
    "damage-file", "path", help: "Or read the phrase one position a line.")
  static let passphraseCandidates = Option.value(
    "passphrase-candidates", "path", help: "Try each line of <path> as the passphrase.")
  static let passphraseTokens = Option.value(
    "passphrase-tokens", "path", help: "Try the passphrases <path>'s tokens make.")
  static let passphraseTypos = Option.value(
    "passphrase-typos", "k", help: "The passphrase file's may have K edits (1-3).")
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
  static let networkID = SharedOptions.networkID(
    help: "The overlay's network (default 1, mainnet).")
  static let overlayNonce = SharedOptions.overlayNonce(
    help: "The overlay's 32-byte nonce (default zero).")
  static let freedomDir = SharedOptions.freedomDir(
    help: "Target: desktop's vault-meta.json addresses.")
  static let out = SharedOptions.out(help: "Write the found phrase to a new file (0600).")

  /// The node directories recover reads targets from, Swarm keystores first (the registry's).
  static let nodeKinds =
    NodeDirectoryKind.all.filter(\.holdsSwarmKeystore)
    + NodeDirectoryKind.all.filter { !$0.holdsSwarmKeystore }
  static let directoryOptions =
    nodeKinds.map { SharedOptions.directory($0, help: "Target: \($0.target).") } + [freedomDir]

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "recover",
      abstract: "Find the unreadable, missing, misspelt or swapped words.",
      discussion: """
        The mnemonic file holds the phrase as remembered. Per word: a wordlist word;
        ? for a word that cannot be read; ab* for a word known by its beginning; *et
        or w*t, * any letters; wet|west for alternatives; a word in no wordlist is
        taken as misspelt and replaced by the words within two letters of it
        (English four-letter abbreviations count). --damage-file holds the same, one
        position a line. --order-lost searches the orders of the words as written
        (one ? allowed), the likely ones first (a grid read the other way, halves
        exchanged, a word moved, two exchanged, two of these), then every order;
        --keep-positions 1,5,9 keeps those words in place.
        --missing, --extra, --swaps and --typos widen the search;
        the word count must end at 12-24. With none of them (and a target, no
        --shard) recover tries in turn the phrase as written, a swap, one wrong word,
        ... (automatic phases), saying each before it starts; --typos 0 searches the
        phrase as written only. --passphrase-candidates FILE tries each line as the
        BIP-39 passphrase (a file over 64 MiB or 2^23 lines read line by line as
        the search takes it, repeats not dropped); --passphrase-tokens FILE the
        passphrases a token list makes (btcrecover's syntax, as recover password
        --tokens reads it; numbered, any number, duplicates possible);
        --passphrase-typos K the passphrase file's within K typos, the likely ones
        first (caps lock, a neighbouring key on --keyboard's layout…); too many to
        hold (over 2^23), they are numbered and made as the search takes them,
        duplicates possible.
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
        terminal, else a line every 30 s (--progress-interval). --out and --resume
        are checked before the search: their directory must exist and be writable,
        --out must not exist, --resume may (a checkpoint). A match is delivered
        whatever else fails: to --out, else (the file appeared meanwhile, the disk
        filled) to a new file beside it (FILE.1 ... FILE.9), else on stdout, and exit
        1 says where; a checkpoint that cannot be written is warned of once, and at
        the end after the answer (exit 0). Ctrl-C (or SIGTERM) stops; the next run
        continues from the checkpoint (progress, a hash of the search and, once
        found, which words changed, never the phrase): --resume FILE's, else the one
        every search keeps by itself in $XDG_STATE_HOME/freedom-keys (or
        ~/.local/state/freedom-keys; 0600, removed when the search ends), which
        the same command finds again; stopped, it prints the command that
        continues. Rerun after a match with --resume, it says "found earlier" and
        can write --out without searching. --shard K/N
        searches the K-th of N disjoint parts, one per machine or job; --shard slurm
        takes K and N from an sbatch array task (--array=1-N), --shard slurm/N takes
        K from the task's number (a task submitted again keeps its part), k8s/N from a
        Kubernetes Indexed Job. 'recover collect DIR' merges the shards' --json
        results (interrupted, --json still prints one, "complete": false). Exit status:
        0 found (or counted), 4 searched everything without a match, 1 errors (or a
        match delivered elsewhere than --out), 2 usage errors, 130 interrupted.
        """,
      options: [
        MnemonicOptions.mnemonicFile, damageFile, MnemonicOptions.passphraseFile,
        passphraseCandidates, passphraseTokens, passphraseTypos, SearchRunOptions.keyboard.option,
        MnemonicOptions.language, missing, extra,
        swaps,
        typos, orderLost, keepPositions, SearchRunOptions.maxHours.option, address, accounts, path,
        peerID, did, overlay,
        networkID.option,
        overlayNonce.option,
      ] + directoryOptions + [
        SearchRunOptions.threads, SearchRunOptions.shard, SearchRunOptions.resume, out,
        SearchRunOptions.progressInterval.option, SearchRunOptions.json,
      ] + SearchRunOptions.engineOptions,
      subcommands: [RecoverCollectCommand.self, RecoverPasswordCommand.self],
      usage: "[<options>]",
      runsWithoutSubcommand: true)
  }

  let input: MnemonicOptions
  /// `--damage-file`: the phrase one position a line, instead of `--mnemonic-file`.
  let damagePath: String?
  let candidatesPath: String?
  /// `--passphrase-tokens`: a token list (btcrecover's syntax) of passphrases.
  let passphraseTokensPath: String?
  let passphraseTypoCount: Int?
  /// `--keyboard`, `--shard`, `--threads`, `--max-hours`, `--progress-interval`, `--json`.
  let searchRun: SearchRunOptions
  /// Whether a damage model was given; without one, the automatic phases run.
  let givesDamage: Bool
  /// The damage options given (all zero without them).
  let damage: RecoveryDamage
  /// The command's name, for a usage error found once the phrase is read.
  let commandPath: String
  let accountCount: Int
  /// Whether an --address is looked for at --accounts' paths (not at --path's).
  let addressByAccounts: Bool
  let givenTargets: [RecoveryTarget]
  let directories: [(option: Option, path: String)]
  let resumePath: String?
  let outputPath: String?

  init(_ arguments: ParsedArguments) throws(CLIError) {
    damagePath = arguments.value(Self.damageFile)
    input = try MnemonicOptions(arguments, phraseReadElsewhere: damagePath != nil)
    candidatesPath = arguments.value(Self.passphraseCandidates)
    passphraseTokensPath = arguments.value(Self.passphraseTokens)
    passphraseTypoCount = try arguments.integer(Self.passphraseTypos, in: 1...3)
    searchRun = try SearchRunOptions(arguments)
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
    if passphraseTokensPath != nil, candidatesPath != nil || input.passphrasePath != nil {
      throw arguments.usage(
        "--passphrase-tokens cannot be combined with --passphrase-candidates or "
          + "--passphrase-file: put the remembered passphrase in the token list")
    }
    if passphraseTypoCount != nil, input.passphrasePath == nil {
      throw arguments.usage(
        "--passphrase-typos <k> needs --passphrase-file PATH: the passphrase as remembered")
    }
    let standardInput = [
      damagePath, candidatesPath, passphraseTokensPath, input.passphrasePath, input.mnemonicPath,
    ]
    .filter { $0 == "-" }
    if standardInput.count > 1 {
      throw arguments.usage("only one of the files given can be standard input ('-')")
    }
    if damagePath == "" || candidatesPath == "" || passphraseTokensPath == "" {
      throw arguments.usage(
        "--damage-file, --passphrase-candidates and --passphrase-tokens need a path")
    }
    let damageModels =
      [Self.missing, Self.extra, Self.typos].contains { arguments.value($0) != nil }
      || arguments.flag(Self.swaps)
    let orderLost = arguments.flag(Self.orderLost)
    if orderLost, damageModels {
      throw arguments.usage(
        "--order-lost cannot be combined with --missing, --extra, --swaps or --typos: it takes "
          + "every word as written; drop those or --order-lost")
    }
    let kept = try Self.keptPositions(arguments)
    if kept != nil, !orderLost {
      throw arguments.usage("--keep-positions <list> only applies with --order-lost")
    }
    givesDamage = damageModels || orderLost
    commandPath = arguments.commandPath
    damage = RecoveryDamage(
      missingWords: try arguments.integer(Self.missing, in: 0...12) ?? 0,
      extraWords: try arguments.integer(Self.extra, in: 0...12) ?? 0,
      allowsSwap: arguments.flag(Self.swaps),
      typos: try arguments.integer(Self.typos, in: 0...24) ?? 0,
      orderLostKeeping: orderLost ? kept ?? [] : nil)
    accountCount = try arguments.integer(Self.accounts, in: 1...1000) ?? 3
    if arguments.value(Self.accounts) != nil, arguments.value(Self.address) == nil {
      throw arguments.usage("--accounts <n> only applies with --address")
    }
    (givenTargets, addressByAccounts) = try Self.parseTargets(arguments, accounts: accountCount)
    directories = Self.directoryOptions.compactMap { option in
      arguments.value(option).map { (option, $0) }
    }
    if directories.contains(where: { $0.path.isEmpty }) {
      throw arguments.usage("a directory given is empty")
    }

    resumePath = arguments.value(SearchRunOptions.resume)
    outputPath = arguments.value(Self.out)
    if resumePath == "" || outputPath == "" {
      throw arguments.usage("--resume and --out need a path")
    }
    if searchesPassphrases, givenTargets.isEmpty, directories.isEmpty {
      throw arguments.usage(
        "--passphrase-candidates, --passphrase-tokens and --passphrase-typos need a target "
          + "(--address, --bee-dir, …): without one only the words are counted")
    }
  }

  /// `--keep-positions 1,5,9`: whole numbers from 1 separated by commas, each once (that they
  /// are positions of the phrase is checked once it is read).
  static func keptPositions(_ arguments: ParsedArguments) throws(CLIError) -> [Int]? {
    guard let text = arguments.value(keepPositions) else { return nil }
    let items = text.split(separator: ",", omittingEmptySubsequences: false)
    let positions = items.compactMap { item in
      Int(item.trimmingPrefix(" ")).flatMap { (1...24).contains($0) ? $0 : nil }
    }
    guard positions.count == items.count, !text.isEmpty else {
      throw arguments.usage(
        "\(keepPositions.synopsis) takes positions 1-24 separated by commas, as in 1,5,9")
    }
    guard Set(positions).count == positions.count else {
      throw arguments.usage(
        "\(keepPositions.synopsis) names a position twice: name each position once")
    }
    return positions
  }

  /// Whether several passphrases are tried (the matching one is written beside --out).
  var searchesPassphrases: Bool {
    candidatesPath != nil || passphraseTokensPath != nil || passphraseTypoCount != nil
  }

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
      switch try CandidatesInput.read(role: "passphrase candidates", path: candidatesPath) {
      case .held(let file): return try PassphraseSet(candidates: file)
      case .lines(let lines): return PassphraseSet(candidates: lines)
      }
    }
    if let passphraseTokensPath {
      let file = try SecretInput.read(
        SecretSource(role: "passphrase tokens", path: passphraseTokensPath),
        limit: Self.candidatesByteLimit)
      let tokens: PasswordTokens
      do {
        tokens = try PasswordTokens(file: file)
      } catch {
        throw CLIError.failure(error.cliDescription)
      }
      return PassphraseSet(tokens: tokens)
    }
    let passphrase = try input.readPassphrase()
    if let passphraseTypoCount {
      return try PassphraseSet(
        remembered: passphrase, edits: passphraseTypoCount, typos: searchRun.typoModel,
        streamsTypos: true)
    }
    return PassphraseSet(passphrase: passphrase)
  }

  /// A token list larger than this is refused before it is read.
  static let candidatesByteLimit = 64 << 20

  // MARK: - Running

  func run() throws {
    // Public data first, so a wrong directory fails before the phrase is asked for.
    var targets = givenTargets
    for (option, path) in directories {
      targets += try Self.targets(from: path, option: option)
    }
    // The engine before the phrase: an OpenCL device that is not there is refused first.
    let backend = try searchRun.backend()
    if let outputPath {
      try RecoverFiles.checkOutput(outputPath)
      if searchesPassphrases { try RecoverFiles.checkOutput(outputPath + ".passphrase") }
    }
    // A checkpoint that cannot be written is refused now, not after the search.
    _ = try SearchCheckpoint.prepare(resumePath: resumePath, name: nil)
    let damaged: DamagedPhrase
    if let damagePath {
      let file = try SecretInput.read(SecretSource(role: "damage", path: damagePath))
      damaged = try DamagedPhrase(damageFile: file, language: input.language)
    } else {
      damaged = try DamagedPhrase(phrase: try input.readPhrase(), language: input.language)
    }
    let passphrases = try readPassphrases()
    let session: RecoverySession
    do {
      session = try RecoverySession(
        phrase: damaged, damage: givesDamage ? damage : nil, targets: targets,
        passphrases: passphrases,
        configuration: .init(
          threads: searchRun.threads, shardIndex: searchRun.shard.index,
          shardCount: searchRun.shard.count, backend: backend),
        sharded: searchRun.shardGiven, typos: searchRun.typoModel)
    } catch .keptPositionOutOfRange(let position, let words) {
      // A usage error, found only once the phrase's word count is known.
      throw CLIError.usage(
        RecoveryError.keptPositionOutOfRange(position: position, words: words).cliDescription,
        commandPath: commandPath)
    }
    if let outputPath, session.triesOtherPassphrases, !searchesPassphrases {
      try RecoverFiles.checkOutput(outputPath + ".passphrase")
    }

    let checkpoint = try SearchCheckpoint.prepare(
      resumePath: resumePath, name: session.checkpointName)
    let report = RecoverReport(self, checkpoint: checkpoint)
    let result: RecoverySession.Result
    do {
      result = try SearchInterrupt.catching {
        try session.run(
          checkpoint: checkpoint.file,
          deadline: searchRun.deadline(),
          progressInterval: searchRun.progressInterval(on: report.progress),
          collect: 100,
          shouldStop: { SearchInterrupt.requested },
          onEvent: { report.say($0, session: session) })
      }
    } catch let error as RecoveryCheckpointError {
      throw RecoverFiles.checkpointFailure(checkpoint.path, error)
    }
    report.progress.clear()
    try report.finish(result, session: session)
  }

  /// The targets a node or Freedom directory names, from public data only.
  static func targets(from directory: String, option: Option) throws -> [RecoveryTarget] {
    try NodeText.run(.recover, targetOption: option) {
      if let kind = NodeDirectoryKind.named(option.name) {
        return try kind.recoveryTargets(directory)
      }
      return try NodeSession.recoveryTargets(DesktopInstallation(userData: directory))
    }
  }
}

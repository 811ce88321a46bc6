import CommandLineKit
import CryptoPrimitives
import FoundationEssentials
import FreedomNodes
import Recovery
import VaultKeys

/// `freedom-keys recover password`: opens desktop Freedom's vault or a web3 v3 keystore from
/// the password as remembered (and its likely typos) or a list of candidates.
struct RecoverPasswordCommand: Command {
  static let vault = Option.value(
    "vault", "path", help: "Target: desktop's identity-vault.json.")
  static let metamaskVault = MnemonicOptions.metamaskVault(help: "Target: MetaMask's vault.")
  static let keystore = Option.value(
    "keystore", "path", help: "Target: a web3 v3 keystore (scrypt or pbkdf2).")
  static let freedomDir = SharedOptions.freedomDir(help: "Target: the installation's vault.")
  static let beeDir = SharedOptions.directory(Bee.kind, help: "Target: bee's <dir>/keys/swarm.key.")
  static let antdDir = SharedOptions.directory(
    Antd.kind, help: "Target: antd's <dir>/keys/swarm.key.")
  static let passwordFile = SharedOptions.passwordFile(
    help: "The password as remembered, tried first.")
  static let passwordTypos = Option.value(
    "password-typos", "k", help: "And its likely typos, up to K (0-8).")
  static let passwordCandidates = Option.value(
    "password-candidates", "path", help: "Try each line of <path> as the password.")
  static let tokens = Option.value(
    "tokens", "path", help: "Try the passwords <path>'s tokens make.")
  static let out = SharedOptions.out(help: "Write the password found to a new file (0600).")

  static let targetOptions = [vault, metamaskVault, keystore, freedomDir, beeDir, antdDir]

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "password",
      abstract: "Find the password of a vault or keystore.",
      discussion: """
        One target: --vault (desktop Freedom's identity/identity-vault.json: PBKDF2-
        HMAC-SHA256, 900,000 iterations, AES-256-GCM), --metamask-vault (MetaMask's
        vault, the same cipher at 600,000 iterations, 10,000 in vaults without
        keyMetadata: the vault string as MetaMask gives it, or state JSON holding
        KeyringController.vault), --freedom-dir (that file of an
        installation; --profile as for verify), --keystore (a web3 v3 keystore, scrypt
        or pbkdf2, checked by its Keccak-256 MAC as geth, bee and antd check it), or
        --bee-dir / --antd-dir (their keys/swarm.key). A candidate is right when the
        file opens with it. The candidates: the password in --password-file as
        remembered (one trailing newline dropped), then with --password-typos K every
        password within K likely typos of it, cheapest first (caps lock, shift on a
        key, a key dropped, doubled or replaced by its neighbour on --keyboard's
        layout, two keys exchanged, a digit or symbol added), then the passwords of
        --tokens (btcrecover's token list: a line holds alternatives, a password
        takes at most one token of each line, in any order; a line beginning with
        "+ " is required; ^abc comes first, abc$ last, ^3^abc third, ^2,4^abc second
        to fourth; wildcards %d, %4d, %1,3d, %a, %A, %n, %s, %[!?#] and the others of
        docs/recover.md; # begins a comment line: numbered and made as the search
        takes them, any number up to 2^63, duplicates possible), then each line of
        --password-candidates (a file over 64 MiB or 2^23 lines read line by line
        as the search takes it: any size, duplicates possible). Typos too many to
        hold (over 2^23) are numbered the same way: counted exactly, made as the
        search takes them, duplicates possible. With --password-file alone, the
        password as remembered, one likely typo, one edit (any character deleted,
        inserted or replaced, or two exchanged) and two likely typos are searched
        in turn (phases, each announced). Each candidate is tried as its UTF-8
        bytes, never normalised, and each once (but for --tokens', numbered typos'
        and a file's read line by line); counted before the search. The password
        is never printed: stdout says which candidate opened the file (the one
        remembered with caps lock; candidate line 4), and --out writes it to a new
        file (mode 0600, checked before the search, as --resume's directory is).
        The password found is delivered whatever else fails: to --out, else to a new
        file beside it (FILE.1 ... FILE.9), else on stdout, exit 1 saying where; a
        checkpoint that cannot be written is warned of once, and at the end after
        the answer. Secrets never come from the command line: --password is
        refused. Progress is on stderr. Ctrl-C stops; --max-hours H stops after H
        hours; the next run continues where it stopped, from --resume FILE or else
        from the checkpoint every search keeps by itself in
        $XDG_STATE_HOME/freedom-keys (as for recover; the command that continues is
        printed). A checkpoint names the password found by its number only, and one
        that says more passwords were tried than the search has is refused.
        --shard K/N (slurm[/N], k8s/N, as for recover) tries the K-th share
        of each phase, one part per machine or job; with --json it prints the
        part's result (no password) for 'recover collect DIR'. Exit status: 0
        found, 4 every candidate (of the part) tried without a match, 1 errors, 2
        usage errors, 130 interrupted.
        """,
      options: targetOptions + [
        ExportFreedomCommand.profile, passwordFile, passwordTypos, tokens, passwordCandidates,
        SearchRunOptions.keyboard.option, SearchRunOptions.maxHours.option,
        SearchRunOptions.resume, SearchRunOptions.threads, SearchRunOptions.shard, out,
        SearchRunOptions.progressInterval.option, SearchRunOptions.json,
      ] + SearchRunOptions.engineOptions)
  }

  /// The file whose password is looked for, as given.
  let target: (option: Option, path: String)
  let profileName: String?
  let passwordPath: String?
  let typoCount: Int
  /// Only the password as remembered: its levels of typos are searched in turn (phases).
  let automatic: Bool
  let candidatesPath: String?
  let tokensPath: String?
  /// `--keyboard`, `--shard`, `--threads`, `--max-hours`, `--progress-interval`, `--json`.
  let searchRun: SearchRunOptions
  /// `--resume`: the checkpoint file.
  let resumePath: String?
  let outputPath: String?

  init(_ arguments: ParsedArguments) throws(CLIError) {
    let targets = Self.targetOptions.compactMap { option in
      arguments.value(option).map { (option: option, path: $0) }
    }
    guard targets.count == 1, let target = targets.first else {
      throw arguments.usage(
        "give one file to open: --vault, --metamask-vault, --keystore, --freedom-dir, "
          + "--bee-dir or --antd-dir")
    }
    guard !target.path.isEmpty else { throw arguments.usage("\(target.option.synopsis) is empty") }
    self.target = target
    profileName = try arguments.nonEmpty(ExportFreedomCommand.profile)
    if profileName != nil, target.option != Self.freedomDir {
      throw arguments.usage("--profile <id> only applies with --freedom-dir <dir>")
    }
    passwordPath = try arguments.nonEmpty(Self.passwordFile)
    candidatesPath = try arguments.nonEmpty(Self.passwordCandidates)
    tokensPath = try arguments.nonEmpty(Self.tokens)
    guard passwordPath != nil || candidatesPath != nil || tokensPath != nil else {
      throw arguments.usage(
        "give the password as remembered (--password-file PATH), candidates "
          + "(--password-candidates PATH) or tokens (--tokens PATH)")
    }
    typoCount = try arguments.integer(Self.passwordTypos, in: 0...8) ?? 0
    automatic =
      passwordPath != nil && arguments.value(Self.passwordTypos) == nil
      && candidatesPath == nil && tokensPath == nil
    if arguments.value(Self.passwordTypos) != nil, passwordPath == nil {
      throw arguments.usage(
        "--password-typos <k> needs --password-file PATH: the password as remembered")
    }
    if [passwordPath, candidatesPath, tokensPath].filter({ $0 == "-" }).count > 1 {
      throw arguments.usage("only one of the files given can be standard input ('-')")
    }
    searchRun = try SearchRunOptions(arguments)
    outputPath = try arguments.nonEmpty(Self.out)
    resumePath = try arguments.nonEmpty(SearchRunOptions.resume)
  }

  func run() throws {
    // The file first (public data), so a wrong path fails before a secret is read.
    let (file, passwordTarget) = try readTarget()
    if let outputPath { try RecoverFiles.checkOutput(outputPath) }
    // A checkpoint that cannot be written is refused now, not after the search.
    _ = try SearchCheckpoint.prepare(resumePath: resumePath, name: nil)
    let backend = try searchRun.backend()
    let session = try PasswordSession(
      PasswordSearch(
        target: passwordTarget, passwords: try readPasswords(), threads: searchRun.threads,
        backend: backend),
      automatic: automatic, part: searchRun.shard.index, of: searchRun.shard.count,
      sharded: searchRun.shardGiven,
      // Every search keeps a checkpoint (named, or by itself under its hash).
      hashed: true)
    let checkpoint = try SearchCheckpoint.prepare(
      resumePath: resumePath, name: session.checkpointName)
    let report = RecoverPasswordReport(self, file: file, session: session, checkpoint: checkpoint)
    report.announce()
    let result: PasswordSession.Result
    do {
      result = try SearchInterrupt.catching {
        try session.run(
          checkpoint: checkpoint.file,
          deadline: searchRun.deadline(),
          progressInterval: searchRun.progressInterval(on: report.progress),
          shouldStop: { SearchInterrupt.requested }, onEvent: report.say)
      }
    } catch let mismatch as PasswordSession.CheckpointMismatch {
      throw checkpointRefusal(mismatch.reason, path: checkpoint.path)
    } catch {
      report.progress.clear()
      throw error
    }
    try report.finish(result)
  }

  /// The file to open, as messages name it, and its check; read before any secret.
  private func readTarget() throws -> (file: String, target: PasswordTarget) {
    let (option, path) = target
    switch option {
    case Self.vault:
      let json = try SecretInput.read(
        SecretSource(role: "vault", path: path), limit: DesktopVault.maxByteCount,
        warnsIfShared: false)
      return (path, try PasswordTarget(vault: json, file: path))
    case Self.metamaskVault:
      let json = try SecretInput.read(
        SecretSource(role: "MetaMask vault", path: path), limit: MetaMaskVault.maxByteCount,
        warnsIfShared: false)
      return (path, try PasswordTarget(metamaskVault: json, file: path))
    case Self.keystore:
      guard let bytes = try UserFiles.read(path) else {
        throw CLIError.failure("\(path) does not exist: \(option.synopsis) needs a keystore")
      }
      return (path, try PasswordTarget(keystore: bytes, file: path))
    case Self.freedomDir:
      return try NodeText.run(.recover, targetOption: option) {
        let installation =
          try profileName.map { try DesktopInstallation(appRoot: path, profile: $0) }
          ?? DesktopInstallation(userData: path)
        return try NodeSession.passwordTarget(installation, events: NodeText.show)
      }
    default:
      do {
        return try NodeText.run(.recover, targetOption: option) {
          try NodeSession.passwordTarget(
            swarmKeystoreIn: path, antd: option == Self.antdDir, events: NodeText.show)
        }
      } catch PasswordTargetError.noKeystore(let file) {
        throw CLIError.failure("\(file) does not exist: \(option.synopsis) needs it to open")
      }
    }
  }

  /// The remembered password (one trailing line ending dropped) and its typos, the passwords
  /// of the token list, then the candidates file's lines.
  private func readPasswords() throws -> PasswordSet {
    let remembered = try passwordPath.map { path in
      SecretInput.droppingLineEnding(
        try SecretInput.read(SecretSource(role: "password", path: path)))
    }
    let candidates = try candidatesPath.map { path in
      try CandidatesInput.read(role: "password candidates", path: path)
    }
    let tokenFile = try tokensPath.map { path in
      try SecretInput.read(
        SecretSource(role: "password tokens", path: path),
        limit: RecoverCommand.candidatesByteLimit)
    }
    do {
      if automatic, let remembered {
        return try PasswordSet(automatic: remembered, model: searchRun.typoModel)
      }
      return try PasswordSet(
        remembered: remembered, typos: typoCount, model: searchRun.typoModel,
        tokens: try tokenFile.map { file throws(PasswordRecoveryError) in
          try PasswordTokens(file: file)
        },
        candidates: candidates.flatMap {
          if case .held(let file) = $0 { file } else { nil }
        },
        lines: candidates.flatMap {
          if case .lines(let lines) = $0 { lines } else { nil }
        }, streamsTypos: true)
    } catch {
      throw CLIError.failure(error.cliDescription)
    }
  }

  /// The one line for a `--resume` checkpoint that cannot be used (another search's or
  /// part's, or not one).
  func checkpointRefusal(_ error: PasswordRecoveryError, path: String) -> CLIError {
    let reason = error.cliDescription
    if case .checkpointPastEnd = error {
      return .failure(
        "\(path): \(reason): delete it (or give another --resume file) to search from the start")
    }
    let same = searchRun.shard.count > 1 ? "passwords and --shard" : "passwords"
    return .failure(
      "\(path): \(reason): give another --resume file, or the same file and \(same) as before")
  }
}

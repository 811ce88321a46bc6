import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys verify`: whether node directories still hold the identities of a mnemonic.
struct VerifyCommand: ParsableCommand {
  static let beeDir = SharedOptions.directory(.bee, help: "Check bee's <dir>/\(Bee.keystoreFile).")
  static let passwordFile = SharedOptions.passwordFile(
    help: "Decrypt the keystore with this password.")
  static let kuboRepo = SharedOptions.directory(
    .kubo, help: "Check Identity in kubo's <dir>/\(Kubo.configFile).")
  static let radicleHome = SharedOptions.directory(
    .radicle, help: "Check <dir>/\(Radicle.privateKeyFile) and its .pub.")
  static let antDir = SharedOptions.directory(.ant, help: "Check Ant's <dir>/\(Ant.identityFile).")
  static let antdDir = SharedOptions.directory(
    .antd, help: "Check antd's keystore, opened as antd opens it.")
  static let json = SharedOptions.json(help: "Print JSON instead of one line per node.")
  static let freedomDir = SharedOptions.freedomDir(
    help: "Check a whole desktop installation (userData).")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "verify",
      abstract: "Check that node directories hold the identities of a mnemonic.",
      discussion: """
        Give at least one directory. Each node gets one line: match, MISMATCH (with
        what was expected and found) or not present. Without --password-file only
        the address field of the keystore is compared, which anyone could have written:
        the result says it is unauthenticated. The password file is read as bee
        reads it (leading and trailing newlines removed). Each backup a directory
        holds (.freedom-keys.replaced/<name>) gets a 'backup' line (--json: "backups").
        Exit status: 0 when every node given matches, 3 when one differs or has no
        key, 1 on errors (wrong password, unreadable or corrupt file, no such
        directory). The mnemonic is read as by 'derive'. --json adds "ok" (true when
        the exit status is 0). When a key of another identity is found and no
        --passphrase-file was given, a hint on stderr says a BIP-39 passphrase could
        explain it (--json: "passphraseMayExplain": true); desktop derives without
        one, so --freedom-dir gives no such hint.
        --antd-dir opens antd's keystore with the password antd reads (\(Antd.configFile)'s
        password:, else the file its password-file: names) and holds it to antd's
        rule: version 3 and a Keccak-256 MAC (bee's old SHA3-256 files are refused);
        antd's own \(Antd.ownIdentityFile) is reported beside it.
        --freedom-dir checks a desktop Freedom userData on its own: the vault (opened
        with --vault-password-file, or the source of the mnemonic when none is given),
        \(DesktopVaultMeta.fileName)'s wallets, ant-data (with \(Antd.configFile)'s password), antd's
        own \(Antd.ownIdentityFile), a bee-data left from before the migration, Radicle's home and
        an old ipfs-data; what is not there is listed as absent and does not fail.
        With --profile <id>, <dir> is the app root and the profile is found in its
        profile registry; every profile, quick-unlock.dat, swarm-feeds.json's signers
        and desktop's other files are reported too. A directory with nothing of
        Freedom's (or of the node given) is exit 3: "nothing of … found here".
        """,
      options: MnemonicOptions.all + [
        beeDir, passwordFile, kuboRepo, radicleHome, antDir, antdDir, freedomDir,
        ExportFreedomCommand.profile, json,
      ])
  }

  let input: MnemonicOptions
  let beeDirectory: String?
  let passwordPath: String?
  let kuboRepository: String?
  let radicleDirectory: String?
  let antDirectory: String?
  let antdDirectory: String?
  /// With --freedom-dir: the password of the installation's vault.
  let vaultPasswordPath: String?
  let printsJSON: Bool
  /// `--freedom-dir`: a desktop installation, checked on its own (VerifyFreedomDir.swift).
  let freedomDirectory: String?
  /// `--profile` with --freedom-dir: a profile of the app root.
  let profileName: String?

  init(_ arguments: ParsedArguments) throws(CLIError) {
    freedomDirectory = arguments.value(Self.freedomDir)
    profileName = arguments.value(ExportFreedomCommand.profile)
    if profileName != nil, freedomDirectory == nil {
      throw arguments.usage("--profile <id> only applies with --freedom-dir <dir>")
    }
    if profileName == "" { throw arguments.usage("--profile <id> is empty") }
    vaultPasswordPath = arguments.value(MnemonicOptions.vaultPasswordFile)
    input = try MnemonicOptions(arguments, passwordAlsoWritesVault: freedomDirectory != nil)
    beeDirectory = arguments.value(Self.beeDir)
    passwordPath = arguments.value(Self.passwordFile)
    kuboRepository = arguments.value(Self.kuboRepo)
    radicleDirectory = arguments.value(Self.radicleHome)
    antDirectory = arguments.value(Self.antDir)
    antdDirectory = arguments.value(Self.antdDir)
    printsJSON = arguments.flag(Self.json)
    let directories = [
      beeDirectory, kuboRepository, radicleDirectory, antDirectory, antdDirectory,
    ]
    if let freedomDirectory {
      if freedomDirectory.isEmpty { throw arguments.usage("a directory given is empty") }
      if directories.contains(where: { $0 != nil }) || passwordPath != nil {
        throw arguments.usage("--freedom-dir checks a whole installation: give it alone")
      }
      return
    }
    guard directories.contains(where: { $0 != nil }) else {
      throw arguments.usage(
        "give at least one of --bee-dir, --kubo-repo, --radicle-home, --ant-dir, --antd-dir, "
          + "--freedom-dir")
    }
    if directories.contains("") { throw arguments.usage("a directory given is empty") }
    if passwordPath != nil, beeDirectory == nil {
      throw arguments.usage("--password-file <path> only applies with --bee-dir <dir>")
    }
    try KeystorePassword.checkStandardInput(
      passwordPath: passwordPath, input: input, arguments: arguments)
  }

  func run() throws {
    if let freedomDirectory {
      return try VerifyFreedomDir.run(
        freedomDirectory, input: input, vaultPasswordPath: vaultPasswordPath, json: printsJSON,
        profile: profileName)
    }
    let (_, seed) = try input.readSeed()
    let profile = try FreedomProfile(seed: seed)
    let password = try passwordPath.map { try KeystorePassword.read($0) }

    // Every check runs before anything is printed: an error leaves stdout empty. Each directory
    // is read under its lock, after any interrupted export in it was finished or undone, so what
    // is reported is what the node will read.
    var findings: [NodeFinding] = []
    // Directories where nothing of the node was found: a wrong path more often than a lost key.
    var nothingFound: [(check: String, directory: String)] = []
    // The backups each directory holds, listed after the nodes.
    var backups: [NodeFinding] = []
    try NodeText.run(.verify) {
      func check(_ node: some FreedomNode) throws {
        let all = try NodeSession.verify(node, against: profile, events: NodeText.show)
        backups += all.filter(VerifyText.isBackup)
        let found = all.filter { !VerifyText.isBackup($0) }
        if let first = found.first, found.allSatisfy({ $0.status == .absent }) {
          nothingFound.append((first.check, node.directory))
        }
        findings += found
      }
      if let beeDirectory { try check(Bee(directory: beeDirectory, password: password)) }
      if let kuboRepository { try check(Kubo(repository: kuboRepository)) }
      if let radicleDirectory { try check(Radicle(home: radicleDirectory)) }
      if let antDirectory { try check(Ant(directory: antDirectory)) }
      if let antdDirectory { try check(Antd(directory: antdDirectory)) }
    }

    let hint = VerifyText.passphraseMayExplain(
      findings, passphraseGiven: input.passphrasePath != nil)
    if printsJSON {
      var object: JSONObject = [:]
      for finding in findings { object.append(finding.check, .object(VerifyText.json(finding))) }
      if !backups.isEmpty {
        object.append("backups", .array(backups.map { .string($0.path) }))
      }
      object.append("ok", .bool(VerifyText.failed(findings, absentFails: true) == nil))
      if hint { object.append("passphraseMayExplain", .bool(true)) }
      Output.standardOutput(JSONValue.object(object).rendered() + "\n")
    } else {
      let rows = findings + backups
      let width = rows.map(\.check.count).max() ?? 0
      Output.standardOutput(
        rows.map {
          $0.check + String(repeating: " ", count: width - $0.check.count + 2)
            + VerifyText.line($0) + "\n"
        }.joined())
    }
    if let failure = VerifyText.failed(findings, absentFails: true) {
      if hint { Output.hint(VerifyText.passphraseHint) }
      guard !nothingFound.isEmpty else { throw failure }
      let empty = Set(nothingFound.map(\.check))
      let others = findings.filter { !empty.contains($0.check) }
      throw CLIError.mismatch(
        nothingFound.map { "nothing of \($0.check) found here: \($0.directory)" }
          .joined(separator: "; ")
          + (VerifyText.failed(others, absentFails: true).map { "; \($0)" } ?? ""))
    }
  }
}

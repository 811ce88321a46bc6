import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys verify`: whether node directories still hold the identities of a mnemonic.
struct VerifyCommand: Command {
  /// `--bee-dir`, `--kubo-repo`, …: one option per node kind of the registry.
  static let nodeDirectories = NodeDirectoryKind.all.map {
    SharedOptions.directory($0, help: "Check \($0.checks).")
  }
  static let passwordFile = SharedOptions.passwordFile(
    help: "Decrypt the keystore with this password.")
  static let json = SharedOptions.json(help: "Print JSON instead of one line per node.")
  static let freedomDir = SharedOptions.freedomDir(
    help: "Check a whole desktop installation (userData).")

  static var definition: CommandDefinition {
    CommandDefinition(
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
      options: MnemonicOptions.all + directoryOptions + [
        freedomDir, ExportFreedomCommand.profile, json,
      ])
  }

  /// The hint's line when a BIP-39 passphrase could explain the keys found.
  static let passphraseHint =
    "the keys found are of another identity; if this mnemonic was used with a BIP-39 "
    + "passphrase, give it with --\(MnemonicOptions.passphraseFile.name) PATH (- to type it)"

  /// The node directories in help order: `--password-file` after the kinds it decrypts.
  static var directoryOptions: [Option] {
    let last = NodeDirectoryKind.all.lastIndex(where: \.takesPassword) ?? -1
    return zip(NodeDirectoryKind.all.indices, nodeDirectories).flatMap { index, option in
      index == last ? [option, passwordFile] : [option]
    }
  }

  let input: MnemonicOptions
  /// The node directories given, in the registry's order.
  let directories: [(kind: NodeDirectoryKind, path: String)]
  let passwordPath: String?
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
    directories = zip(NodeDirectoryKind.all, Self.nodeDirectories).compactMap { kind, option in
      arguments.value(option).map { (kind, $0) }
    }
    passwordPath = arguments.value(Self.passwordFile)
    // The keystore password is a secret read like the mnemonic's, where a directory takes it.
    let decrypts = freedomDirectory == nil && directories.contains(where: \.kind.takesPassword)
    input = try MnemonicOptions(
      arguments, passwordAlsoWritesVault: freedomDirectory != nil,
      alsoReading: decrypts ? [(Self.passwordFile, passwordPath, "password")] : [])
    printsJSON = arguments.flag(Self.json)
    if let freedomDirectory {
      if freedomDirectory.isEmpty { throw arguments.usage("a directory given is empty") }
      if !directories.isEmpty || passwordPath != nil {
        throw arguments.usage("--freedom-dir checks a whole installation: give it alone")
      }
      return
    }
    guard !directories.isEmpty else {
      let names = (Self.nodeDirectories + [Self.freedomDir]).map { "--" + $0.name }
      throw arguments.usage("give at least one of " + names.joined(separator: ", "))
    }
    if directories.contains(where: \.path.isEmpty) {
      throw arguments.usage("a directory given is empty")
    }
    let decrypting = zip(NodeDirectoryKind.all, Self.nodeDirectories).filter { $0.0.takesPassword }
    if passwordPath != nil, !directories.contains(where: \.kind.takesPassword) {
      let names = decrypting.map(\.1.synopsis).joined(separator: " or ")
      throw arguments.usage("\(Self.passwordFile.synopsis) only applies with \(names)")
    }
  }

  func run() throws {
    if let freedomDirectory {
      return try VerifyFreedomDir.run(
        freedomDirectory, input: input, vaultPasswordPath: vaultPasswordPath, json: printsJSON,
        profile: profileName)
    }
    let profile = try input.readProfile()
    let password = try passwordPath.map { try KeystorePassword.read($0) }

    // Every check runs before anything is printed: an error leaves stdout empty.
    let verification = try NodeText.run(.verify) {
      try NodeVerification(
        directories, password: password, against: profile, events: NodeText.show)
    }
    let hint = verification.passphraseMayExplain(passphraseGiven: input.passphrasePath != nil)
    Output.standardOutput(
      printsJSON
        ? JSONValue.object(verification.json(passphraseMayExplain: hint)).rendered() + "\n"
        : NodeText.render(verification.lines))
    if let failure = verification.failure {
      if hint { Output.hint(Self.passphraseHint) }
      throw CLIError.mismatch(failure)
    }
  }
}

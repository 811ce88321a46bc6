import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// `freedom-keys export freedom`: restores a desktop Freedom installation from the mnemonic in
/// one transaction — antd's data, Radicle's home where desktop looks for it and, with a vault
/// password, the vault and its metadata as desktop writes them (`DesktopInstallation`).
struct ExportFreedomCommand: Command {
  static let freedomDir = SharedOptions.freedomDir(
    help: "Desktop's userData (Linux: ~/.config/Freedom).")
  static let vaultPassword = MnemonicOptions.vaultPasswordFile
  static let alias = SharedOptions.radicleAlias(help: "Radicle alias (default FreedomBrowser).")
  static let radicleHome = SharedOptions.directory(
    Radicle.kind, help: "Radicle's home, if not where desktop looks.")
  static let replaceVault = Option.flag(
    "replace-vault", help: "Replace another mnemonic's vault (kept aside).")
  static let create = Option.flag("create", help: "A new installation: <dir> may be new or empty.")
  static let profile = Option.value(
    "profile", "id", help: "The profile (id or name) of the app root <dir>.")

  static let vaultCipher = DesktopInstallation.vaultCipher
  static let minimumPassword = DesktopVault.minimumPasswordLength

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "freedom",
      abstract: "Restore a desktop Freedom installation (ant-data, Radicle, vault).",
      discussion: """
        Close Freedom first. Writes, in one transaction: ant-data as 'export antd'
        does (\(Antd.configFile)'s password kept); Radicle's keys and alias in the app
        root's R/<slot> (profile-registry.json, profile.json's slot; a profile's
        Profiles/<id> and R/<slot> change together, under the app root's lock), else
        <dir>/radicle-data, or --radicle-home (a home outside the app root is a second
        transaction); and with
        --vault-password-file (at least \(minimumPassword) characters, as desktop requires) the vault
        \(DesktopInstallation.vaultFile) (\(vaultCipher)) and
        \(DesktopInstallation.vaultMetaFile) as desktop's import writes them; written
        again for the same mnemonic (a new password after a forgotten one), the old
        vault-meta.json keeps every member that still holds (wallets, Ledger, phone
        and Safe accounts, names, activeWalletIndex), the old file kept aside. Without
        --vault-password-file the vault stays, so an installation whose vault-meta.json
        names another mnemonic's addresses is refused (the dry run too). Desktop
        derives from English mnemonics without a BIP-39 passphrase, so both are
        required here. The mnemonic comes from --mnemonic-file (or -), a --vault-file
        backup (then --vault-password-file opens it and protects the new vault) or the
        hidden prompt; --vault-password-file loses one trailing newline.
        <dir> must hold something of Freedom's (\(DesktopProfileRegistry.fileName),
        profile.json, identity/, ant-data/, R/ …) unless --create says a new
        installation is meant; a part of one (ant-data, R/<slot>) or another node's
        directory is refused. --profile <id> picks a profile of the app root <dir>
        (the default profile's userData is <dir>, others' <dir>/Profiles/<id>); with
        --create, a name the registry lacks is registered as desktop does (its
        record, profile.json, the next free slot) in the same transaction;
        <dir>/Profiles/<id> alone finds its app root. A vault that opens to another
        mnemonic, or that the password given does not open, is replaced only with
        --replace-vault (--force covers node keys); a replaced vault's
        \(DesktopInstallation.quickUnlockFile) no longer fits and is kept aside too.
        """ + "\n\n" + ExportOptions.discussion,
      options: [
        MnemonicOptions.mnemonicFile, MnemonicOptions.vaultFile, vaultPassword, freedomDir,
        alias,
        radicleHome, profile, create, replaceVault,
      ] + ExportOptions.options(force: "Replace another identity; keep its state aside."))
  }

  let input: MnemonicOptions
  let directory: String
  let vaultPasswordPath: String?
  let aliasName: String
  let radicleOverride: String?
  let export: ExportOptions
  let replacesVault: Bool
  let creates: Bool
  let profileName: String?

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments, passwordAlsoWritesVault: true)
    directory = try arguments.required(Self.freedomDir)
    vaultPasswordPath = try arguments.nonEmpty(Self.vaultPassword)
    aliasName = arguments.value(Self.alias) ?? DesktopUserData.defaultRadicleAlias
    if let problem = RadicleConfig.aliasProblem(aliasName) {
      throw arguments.usage("invalid --alias: \(problem)")
    }
    radicleOverride = try arguments.nonEmpty(Self.radicleHome)
    export = ExportOptions(arguments)
    replacesVault = arguments.flag(Self.replaceVault)
    creates = arguments.flag(Self.create)
    profileName = try arguments.nonEmpty(Self.profile)
  }

  func run() throws {
    let mnemonic = try input.readMnemonic()
    try NodeText.run(.export) { try DesktopInstallation.check(mnemonic: mnemonic) }
    let profile = try FreedomProfile(mnemonic: mnemonic)
    let vaultPassword = try vaultPasswordPath.map { path -> SecureBytes in
      let password = SecretInput.droppingLineEnding(
        try SecretInput.read(
          SecretSource(role: "vault password", path: path, isNew: export.passwordsAreNew)))
      try NodeText.run(.export) {
        try DesktopInstallation.check(vaultPassword: password, file: path)
      }
      return password
    }
    let installation = try NodeText.run(.export) {
      if let profileName {
        return try DesktopInstallation(
          appRoot: directory, profile: profileName, radicleHome: radicleOverride,
          createsInstallation: creates)
      }
      return try DesktopInstallation(
        userData: directory, radicleHome: radicleOverride, createsInstallation: creates)
    }
    let inputs = DesktopInstallation.ExportInputs(
      mnemonic: mnemonic, profile: profile, vaultPassword: vaultPassword, alias: aliasName)
    // Node state (--force) and a vault (--replace-vault) are each consented on their own.
    var flow = ExportFlow(export)
    flow.consent.replacesVault = replacesVault
    try flow.run(installation, inputs, target: directory) { outcome in
      NodeText.render(try installation.report(outcome, profile: profile, alias: aliasName))
    }
  }
}

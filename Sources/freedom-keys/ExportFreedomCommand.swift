import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// `freedom-keys export freedom`: restores a desktop Freedom installation from the mnemonic in
/// one transaction — antd's data, Radicle's home where desktop looks for it and, with a vault
/// password, the vault and its metadata as desktop writes them (`DesktopInstallation`).
struct ExportFreedomCommand: ParsableCommand {
  static let freedomDir = SharedOptions.freedomDir(
    help: "Desktop's userData (Linux: ~/.config/Freedom).")
  static let vaultPassword = MnemonicOptions.vaultPasswordFile
  static let alias = Option.value("alias", "name", help: "Radicle alias (default FreedomBrowser).")
  static let radicleHome = SharedOptions.directory(
    Radicle.kind, help: "Radicle's home, if not where desktop looks.")
  static let replaceVault = Option.flag(
    "replace-vault", help: "Replace another mnemonic's vault (kept aside).")
  static let create = Option.flag("create", help: "A new installation: <dir> may be new or empty.")
  static let profile = Option.value(
    "profile", "id", help: "The profile (id or name) of the app root <dir>.")

  /// The vault's key derivation and cipher, as help and report name them.
  static let vaultCipher =
    "PBKDF2-SHA256 \(ExportCommand.grouped(DesktopVault.desktopIterations)), AES-256-GCM"
  static let minimumPassword = DesktopVault.minimumPasswordLength

  static var configuration: CommandConfiguration {
    CommandConfiguration(
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
        \(DesktopInstallation.vaultMetaFile) exactly as desktop's import writes them. Desktop
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
  let commandPath: String
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
    commandPath = arguments.commandPath
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
        try SecretInput.read(SecretSource(role: "vault password", path: path)))
      do throws(NodeError) {
        try DesktopInstallation.check(vaultPassword: password)
      } catch {
        if case .invalidInput(.vaultPasswordNotText) = error {
          throw CLIError.failure("the vault password in \(path) is not UTF-8 text")
        }
        throw NodeText.cliError(error, .export)
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
    if export.dryRun {
      return try ExportText.dryRun(
        commandPath, target: directory, json: export.json, consent: consent
      ) {
        () throws(NodeError) in
        ExportText.Plan(
          try NodeSession.dryRun(
            installation, inputs, consent: consent, events: NodeText.show),
          target: directory)
      }
    }
    let outcome = try NodeText.run(.export, consent: consent) {
      try NodeSession.export(
        installation, inputs, consent: consent, events: NodeText.show)
    }
    if export.json { return ExportText.printResult(outcome, commandPath, target: directory) }
    Output.standardOutput(try report(installation, outcome, profile: profile))
  }

  /// What the user agreed the export may replace: node state (`--force`) and a vault
  /// (`--replace-vault`), each consented on its own.
  private var consent: ExportConsent {
    var consent = export.consent
    consent.replacesVault = replacesVault
    return consent
  }

  private func report(
    _ installation: DesktopInstallation, _ outcome: ExportOutcome<DesktopInstallation.Plan>,
    profile: FreedomProfile
  ) throws -> String {
    let plan = outcome.plan
    var text = ""
    if let registration = plan.registration, let appRoot = installation.location.appRoot {
      text +=
        "Registered profile \(registration.id) (slot \(registration.slot)) in "
        + "\(appRoot)/\(DesktopProfileRegistry.fileName) and "
        + "\(installation.paths.profileMetadata), as desktop Freedom registers one\n"
    }
    text += try ExportAntdCommand.report(plan.antd, profile: profile, startsAntd: false)
    switch (plan.vault, plan.vaultMeta) {
    case (let vault?, let meta?):
      text +=
        vault == .keep
        ? NodeText.unchanged(installation.vaultPath, "this mnemonic under that password")
        : "Wrote \(installation.vaultPath): the mnemonic, \(Self.vaultCipher) (mode 0600)\n"
      text +=
        meta == .keep
        ? NodeText.unchanged(installation.vaultMetaPath, "this mnemonic's addresses")
        : "Wrote \(installation.vaultMetaPath): userWallet \(profile.wallet.address.checksummed), "
          + "beeWallet \(profile.swarm.address.checksummed)\n"
    default:
      text +=
        "\(installation.paths.identity) untouched (give --vault-password-file to write the vault)\n"
    }
    let radicle = installation.radicle
    switch plan.radicle.config {
    case .create?:
      text += "Wrote \(radicle.configPath): node.alias \(JSONValue.quoted(aliasName))\n"
    case .replace?:
      text += "Set node.alias to \(JSONValue.quoted(aliasName)) in \(radicle.configPath)\n"
    default: break
    }
    text +=
      plan.radicle.privateKey == .keep
      ? NodeText.unchanged(radicle.privateKeyPath, "the Radicle key \(plan.radicle.expected)")
      : "Wrote \(radicle.privateKeyPath): the Radicle key \(plan.radicle.expected) (mode 0600)\n"
    if plan.radicle.publicKey != .keep {
      text += "Wrote \(radicle.publicKeyPath): its public key (mode 0644)\n"
    }
    if plan.quickUnlockMovedAside {
      text +=
        "Moved \(installation.quickUnlockPath) aside: it was bound to the old vault; set Touch ID "
        + "unlock up again in Freedom\n"
    }
    text += NodeText.keptAsideLines(outcome.keptAside)
    if plan.radicleOutside != nil {
      text +=
        "Radicle's home is outside \(installation.transactionRoot): written in a second "
        + "transaction\n"
    }
    // Desktop runs antd and Radicle itself; the vault password is what unlocks the wallet.
    text +=
      plan.vault == nil
      ? "Start Freedom: it runs antd on \(installation.paths.antData) and Radicle itself\n"
      : "Start Freedom and unlock it with the vault password\n"
    return text
  }
}

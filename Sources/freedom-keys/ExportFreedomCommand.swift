import CryptoPrimitives
import FoundationEssentials
import Glibc
import NodeFiles
import VaultKeys

/// `freedom-keys export freedom`: restores a desktop Freedom installation from the mnemonic in
/// one transaction — antd's `ant-data`, Radicle's home where desktop looks for it and, with a
/// vault password, `identity/identity-vault.json` and `vault-meta.json` as desktop writes them.
struct ExportFreedomCommand: ParsableCommand {
  static let userData = Option.value(
    "user-data", "dir", help: "Desktop's userData (Linux: ~/.config/Freedom).")
  static let vaultPassword = MnemonicOptions.vaultPasswordFile
  static let alias = Option.value("alias", "name", help: "Radicle alias (default FreedomBrowser).")
  static let radicleHome = Option.value(
    "radicle-home", "dir", help: "Radicle's home, if not where desktop looks.")
  static let force = Option.flag("force", help: "Replace another identity; remove its state.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "freedom",
      abstract: "Restore a desktop Freedom installation (ant-data, Radicle, vault).",
      discussion: """
        Close Freedom first. Writes, in one transaction under <dir>: ant-data as
        'export antd' does (config.yaml's password kept); Radicle's keys and alias in
        <dir>/R/<slot> when <dir> is a packaged build's default profile
        (profile-registry.json, profile.json's slot), else <dir>/radicle-data, or
        --radicle-home (a home outside <dir> is a second transaction); and with
        --vault-password-file (at least 8 characters, as desktop requires) the vault
        identity/identity-vault.json (PBKDF2-SHA256 900,000, AES-256-GCM) and
        identity/vault-meta.json exactly as desktop's import writes them. Desktop
        derives from English mnemonics without a BIP-39 passphrase, so both are
        required here. The mnemonic comes from --mnemonic-file (or -), a --vault-file
        backup (then --vault-password-file opens it and protects the new vault) or the
        hidden prompt; --vault-password-file loses one trailing newline.
        """,
      options: [
        MnemonicOptions.mnemonicFile, MnemonicOptions.vaultFile, vaultPassword, userData, alias,
        radicleHome, force,
      ])
  }

  let input: MnemonicOptions
  let directory: String
  let vaultPasswordPath: String?
  let aliasName: String
  let radicleOverride: String?
  let forced: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments, passwordAlsoWritesVault: true)
    guard let directory = arguments.value(Self.userData), !directory.isEmpty else {
      throw arguments.usage("missing --user-data <dir>")
    }
    self.directory = directory
    vaultPasswordPath = arguments.value(Self.vaultPassword)
    if vaultPasswordPath == "" { throw arguments.usage("--vault-password-file <path> is empty") }
    aliasName = arguments.value(Self.alias) ?? DesktopUserData.defaultRadicleAlias
    if let problem = RadicleConfig.aliasProblem(aliasName) {
      throw arguments.usage("invalid --alias: \(problem)")
    }
    radicleOverride = arguments.value(Self.radicleHome)
    if radicleOverride == "" { throw arguments.usage("--radicle-home <dir> is empty") }
    forced = arguments.flag(Self.force)
  }

  func run() throws {
    let mnemonic = try input.readMnemonic()
    guard mnemonic.language == .english else {
      throw CLIError.failure(
        "desktop Freedom reads English mnemonics only; this one is \(mnemonic.language.rawValue)"
          + " and would not open there: nothing was written")
    }
    let profile = try FreedomProfile(mnemonic: mnemonic)
    let vaultPassword = try vaultPasswordPath.map { path -> SecureBytes in
      let password = SecretInput.droppingLineEnding(
        try SecretInput.read(SecretSource(role: "vault password", path: path)))
      guard let length = DesktopVault.javaScriptLength(password) else {
        throw CLIError.failure("the vault password in \(path) is not UTF-8 text")
      }
      guard length >= DesktopVault.minimumPasswordLength else {
        throw CLIError.failure(
          "the vault password has \(length) characters; desktop Freedom requires at least "
            + "\(DesktopVault.minimumPasswordLength): nothing was written")
      }
      return password
    }
    try ExportFiles.requireDirectoryOrAbsent(directory)
    let layout = DesktopUserData(root: directory)
    let home = try radicleOverride ?? Self.desktopRadicleHome(layout)
    let inside = Self.relative(home, under: directory)

    var text = ""
    try NodeDirectoryAccess.changing(
      directory, layout: Self.layout(radicle: inside), create: true
    ) { node in
      let ant = try AntdExport.plan(
        directory: layout.antData, profile: profile, givenPassword: nil, forced: forced,
        prefix: "ant-data/")
      var change = ant.change ?? NodeChange()
      text += ant.report

      var identityText = ""
      if let vaultPassword {
        let (files, report) = try vaultFiles(layout, mnemonic, profile, vaultPassword)
        change.files += files
        identityText = report
      } else {
        identityText =
          "\(layout.identity) untouched (give --vault-password-file to write the vault)\n"
      }
      text += identityText

      var radicle = try RadiclePlan.make(
        home: home, identity: profile.radicle, alias: aliasName, forced: forced,
        prefix: inside.map { $0 + "/" })
      text += radicle.report
      if inside != nil {
        // The key pair last: the Radicle keys/ directory is the one swapped as a whole.
        change.files += radicle.change.files
        radicle.change.files = []
      }
      guard !change.files.isEmpty || !change.removing.isEmpty else { return }
      let created = try Self.makeParents(of: change.files.map(\.path), in: directory)
      do {
        let result = try NodeDirectoryAccess.apply(change, in: node)
        text += AntdExport.removedLine(result)
      } catch {
        Self.removeEmpty(created)
        throw error
      }
      if !radicle.change.files.isEmpty {
        text += "Radicle's home is outside \(directory): written in a second transaction\n"
        try NodeDirectoryAccess.changing(home, layout: .radicle, create: true) { radicleNode in
          _ = try NodeDirectoryAccess.apply(radicle.change, in: radicleNode)
        }
      }
    }
    Output.standardOutput(text)
  }

  /// The vault and its metadata, unless the installation already holds this mnemonic's vault
  /// under this password. Another vault is replaced only with --force.
  private func vaultFiles(
    _ layout: DesktopUserData, _ mnemonic: Mnemonic, _ profile: FreedomProfile,
    _ password: SecureBytes
  ) throws -> ([NodeChange.File], String) {
    let phrase = mnemonic.phrase()
    var files: [NodeChange.File] = []
    var report = ""
    let stored = try ExportFiles.read(layout.vault)
    var vaultIsCurrent = false
    if let stored {
      let opened = try? DesktopVault(json: stored.withUnsafeBytes { Array($0) })
        .decryptMnemonic(password: password)
      vaultIsCurrent = opened == phrase
      if !vaultIsCurrent, !forced {
        throw CLIError.failure(
          "\(layout.vault) holds another vault (it does not open to this mnemonic with the "
            + "password given); nothing was written (--force replaces it)")
      }
    }
    if vaultIsCurrent {
      report += ExportCommand.unchanged(layout.vault, "this mnemonic under that password")
    } else {
      let bytes: [UInt8]
      do {
        bytes = try DesktopVault.encrypt(mnemonic: phrase, password: password)
      } catch {
        throw CLIError.failure("\(error); nothing was written")
      }
      files.append(.init("identity/identity-vault.json", SecureBytes(bytes)))
      report +=
        "Wrote \(layout.vault): the mnemonic, PBKDF2-SHA256 900,000, AES-256-GCM (mode 0600)\n"
    }
    let storedMeta = try ExportFiles.read(layout.vaultMeta).flatMap {
      try? DesktopVaultMeta(json: $0.withUnsafeBytes { Array($0) })
    }
    let metaIsCurrent =
      vaultIsCurrent
      && storedMeta.map {
        (try? EthereumAddress($0.userWalletAddress ?? "")) == profile.wallet.address
          && (try? EthereumAddress($0.beeWalletAddress ?? "")) == profile.swarm.address
      } == true
    if metaIsCurrent {
      report += ExportCommand.unchanged(layout.vaultMeta, "this mnemonic's addresses")
    } else {
      let meta = DesktopVaultMeta.importedJSON(
        userWallet: profile.wallet.address, beeWallet: profile.swarm.address)
      files.append(.init("identity/vault-meta.json", SecureBytes(meta)))
      report += "Wrote \(layout.vaultMeta): userWallet \(profile.wallet.address.checksummed), "
      report += "beeWallet \(profile.swarm.address.checksummed)\n"
    }
    return (files, report)
  }

  /// Where desktop looks for Radicle's home: `R/<slot>` for a packaged build's default
  /// profile (the app root holds profile-registry.json), else `radicle-data`.
  static func desktopRadicleHome(_ layout: DesktopUserData) throws -> String {
    guard try ExportFiles.status(layout.profileRegistry) != nil,
      let bytes = try ExportFiles.read(layout.profileMetadata),
      let slot = DesktopUserData.profileSlot(json: bytes)
    else { return layout.radicleData }
    return layout.catalogRadicleHome(slot: slot)
  }

  /// The installation's layout: ant-data, identity/ and (when inside) Radicle's home, whose
  /// keys/ is swapped as one directory.
  static func layout(radicle: String?) -> NodeLayout {
    let antd = NodeLayout.antd
    let radicleFiles =
      radicle.map { home in NodeLayout.radicle.files.map { home + "/" + $0 } } ?? []
    return NodeLayout(
      name: "desktop Freedom user data",
      files: antd.files.map { "ant-data/" + $0 }
        + ["identity/identity-vault.json", "identity/vault-meta.json"] + radicleFiles,
      identityDirectory: radicle.map { $0 + "/keys" },
      identityState: antd.identityState.map { "ant-data/" + $0 })
  }

  /// `path` relative to `root`, when it lies inside it.
  static func relative(_ path: String, under root: String) -> String? {
    let base = root.hasSuffix("/") ? root : root + "/"
    guard path.hasPrefix(base), path.count > base.count else { return nil }
    let rest = String(path.dropFirst(base.count))
    return rest.split(separator: "/").contains("..") ? nil : rest
  }

  /// Creates (mode 0700) the missing parent directories of `files`; returns them, innermost last.
  static func makeParents(of files: [String], in root: String) throws -> [String] {
    var created: [String] = []
    for file in files {
      var current = root
      for component in file.split(separator: "/").dropLast() {
        current = ExportFiles.join(current, String(component))
        if try ExportFiles.status(current) == nil {
          guard mkdir(current, 0o700) == 0 else {
            removeEmpty(created)
            throw CLIError.failure("cannot create \(current): \(ExportFiles.systemError())")
          }
          created.append(current)
        }
      }
    }
    return created
  }

  static func removeEmpty(_ directories: [String]) {
    for directory in directories.reversed() { _ = rmdir(directory) }
  }
}

/// The Radicle part of `export freedom`: the key pair and the alias, as `export radicle`
/// writes them, with paths relative to the transaction's directory.
struct RadiclePlan {
  var change: NodeChange
  var report: String

  static func make(
    home: String, identity: Ed25519Identity, alias: String, forced: Bool, prefix: String?
  ) throws -> RadiclePlan {
    let expected = identity.radicle.did
    let keyPath = ExportFiles.join(home, "keys/radicle")
    let linePath = ExportFiles.join(home, "keys/radicle.pub")
    let configPath = ExportFiles.join(home, "config.json")
    try ExportFiles.requireDirectoryOrAbsent(home)
    try ExportFiles.requireDirectoryOrAbsent(ExportFiles.join(home, "keys"))
    func current(_ stored: StoredFile<Ed25519.PublicKey>, _ path: String) throws -> Bool {
      switch stored {
      case .absent: return false
      case .present(let key) where key.rawRepresentation == identity.publicKey.rawRepresentation:
        return true
      case .present(let key):
        guard forced else {
          throw ExportCommand.refusal(
            path, holds: "the key \(RadicleIdentity(publicKey: key).did)", expected: expected)
        }
        return false
      case .unreadable(let problem):
        guard forced else { throw ExportCommand.refusal(problem) }
        return false
      }
    }
    let keyIsCurrent = try current(
      StoredFile.read(keyPath) { try OpenSSHEd25519PrivateKey.parse(pem: $0).0.publicKey }, keyPath)
    let lineIsCurrent = try current(
      StoredFile.read(linePath) { try ExportRadicleCommand.publicKey(inLine: $0) }, linePath)

    let p = prefix ?? ""
    var change = NodeChange()
    var report = ""
    if let bytes = try ExportFiles.read(configPath) {
      let config: RadicleConfig
      do {
        config = try RadicleConfig(json: bytes.withUnsafeBytes { Array($0) })
      } catch {
        throw CLIError.failure("cannot set the alias in \(configPath): \(error)")
      }
      if config.alias != alias {
        let mode = try ExportFiles.status(configPath)?.permissions ?? 0o644
        change.files.append(
          .init(p + "config.json", SecureBytes(try config.settingAlias(alias)), mode: mode))
        report += "Set node.alias to \(JSONValue.quoted(alias)) in \(configPath)\n"
      }
    } else {
      change.files.append(
        .init(p + "config.json", SecureBytes(try RadicleConfig.new(alias: alias)), mode: 0o644))
      report += "Wrote \(configPath): node.alias \(JSONValue.quoted(alias))\n"
    }
    if keyIsCurrent {
      report += ExportCommand.unchanged(keyPath, "the Radicle key \(expected)")
    } else {
      let pem = OpenSSHEd25519PrivateKey.pem(privateKey: identity.privateKey, comment: alias)
      change.files.append(.init(p + "keys/radicle", pem))
      report += "Wrote \(keyPath): the Radicle key \(expected) (mode 0600)\n"
    }
    if !lineIsCurrent {
      let line = OpenSSH.authorizedKeyLine(identity.publicKey, comment: alias) + "\n"
      change.files.append(.init(p + "keys/radicle.pub", SecureBytes(utf8: line), mode: 0o644))
      report += "Wrote \(linePath): its public key (mode 0644)\n"
    }
    return RadiclePlan(change: change, report: report)
  }
}

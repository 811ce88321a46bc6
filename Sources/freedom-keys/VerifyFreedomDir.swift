import CryptoPrimitives
import FoundationEssentials
import NodeFiles
import VaultKeys

/// `verify --freedom-dir`: one report over a whole desktop Freedom installation (its
/// `userData`): the vault, vault-meta.json's wallets, antd's ant-data, a bee-data left from
/// before the migration, antd's own identity.json, Radicle's home and an old kubo repository.
/// What the installation does not have is listed as absent and does not fail the check.
struct VerifyFreedomDir {
  enum Status: String {
    /// Holds the mnemonic's identity.
    case match
    /// Holds something else, or something the node would refuse: exit 3.
    case mismatch
    /// Not there; not a failure.
    case absent
    /// There, but not checked or not an identity (a device account, no vault password).
    case note
  }

  struct Row {
    let name: String
    let status: Status
    let detail: String
    let path: String
    var extra: JSONObject = [:]
  }

  let layout: DesktopUserData
  let radicleHome: String
  private(set) var rows: [Row] = []

  init(userData: String) throws {
    layout = DesktopUserData(root: userData)
    radicleHome = try ExportFreedomCommand.desktopRadicleHome(layout)
  }

  /// The vault: opened with `password`, it must hold `mnemonic` (or was its source).
  mutating func vault(
    phrase: SecureBytes, password: SecureBytes?, isSource: Bool
  ) throws {
    guard let bytes = try ExportFiles.read(layout.vault) else {
      rows.append(Row(name: "vault", status: .absent, detail: "", path: layout.vault))
      return
    }
    if isSource {
      rows.append(
        Row(
          name: "vault", status: .match,
          detail: "opened with the password; the mnemonic checked "
            + "below was read from it", path: layout.vault))
      return
    }
    guard let password else {
      rows.append(
        Row(
          name: "vault", status: .note,
          detail: "present, not opened (give --vault-password-file to check it)",
          path: layout.vault))
      return
    }
    let vault: DesktopVault
    do {
      vault = try DesktopVault(json: bytes.withUnsafeBytes { Array($0) })
    } catch {
      throw CLIError.failure("\(layout.vault): \(error)")
    }
    let opened: SecureBytes
    do {
      opened = try vault.decryptMnemonic(password: password)
    } catch {
      throw CLIError.failure("\(layout.vault): \(error)")
    }
    let same = (try? Mnemonic(phrase: opened).phrase()) == phrase
    rows.append(
      Row(
        name: "vault", status: same ? .match : .mismatch,
        detail: same ? "holds the mnemonic" : "holds another mnemonic", path: layout.vault))
  }

  /// vault-meta.json: the stored addresses and every wallet desktop lists.
  mutating func vaultMeta(_ profile: FreedomProfile) throws {
    guard let bytes = try ExportFiles.read(layout.vaultMeta) else {
      rows.append(Row(name: "vault-meta", status: .absent, detail: "", path: layout.vaultMeta))
      return
    }
    let meta: DesktopVaultMeta
    do {
      meta = try DesktopVaultMeta(json: bytes.withUnsafeBytes { Array($0) })
    } catch {
      throw CLIError.failure("\(layout.vaultMeta): \(error)")
    }
    for (name, stored, derived) in [
      ("vault-meta userWallet", meta.userWalletAddress, profile.wallet.address),
      ("vault-meta beeWallet", meta.beeWalletAddress, profile.swarm.address),
    ] {
      guard let stored else {
        rows.append(Row(name: name, status: .absent, detail: "", path: layout.vaultMeta))
        continue
      }
      rows.append(compare(name, stored: stored, derived: derived, path: layout.vaultMeta))
    }
    for wallet in meta.wallets {
      let name = "vault-meta wallet \(wallet.index)"
      let label = wallet.name.map { " \"\($0)\"" } ?? ""
      guard wallet.isDerivable else {
        rows.append(
          Row(
            name: name, status: .note,
            detail: "\(wallet.type) account\(label), \(wallet.address ?? "no address"): not "
              + "derivable from the mnemonic (its key stays on its device)",
            path: layout.vaultMeta))
        continue
      }
      let derived = try profile.wallet(index: UInt32(wallet.index)).address
      guard let stored = wallet.address else {
        rows.append(
          Row(
            name: name, status: .note,
            detail: "\(derived.checksummed)\(label) (no address stored to compare)",
            path: layout.vaultMeta))
        continue
      }
      rows.append(compare(name, stored: stored, derived: derived, path: layout.vaultMeta))
    }
  }

  /// ant-data: the keystore opened with config.yaml's password (or its address field only).
  mutating func antData(_ profile: FreedomProfile) throws {
    let expected = profile.swarm.address
    let keystore = try keystoreRow(
      "ant-data", directory: layout.antData, expected: expected,
      configPath: layout.antConfig)
    rows.append(keystore)

    // antd's own identity: ignored while keys/swarm.key exists, used otherwise.
    let identityPath = layout.antSelfMadeIdentity
    guard let bytes = try ExportFiles.read(identityPath) else { return }
    let file: AntIdentityFile
    do {
      file = try AntIdentityFile(json: bytes)
    } catch {
      throw CLIError.failure("\(identityPath): \(error)")
    }
    let found = EthereumAddress(publicKey: file.identity.signingKey.publicKey)
    if keystore.status != .absent {
      rows.append(
        Row(
          name: "ant-data identity.json", status: .note,
          detail: "antd's own identity (\(found.checksummed)); antd ignores it while "
            + "keys/swarm.key exists, and desktop removes it when it injects the key",
          path: identityPath))
    } else {
      let same = found == expected && file.problems.isEmpty
      let problems = file.problems.map(\.description).joined(separator: "; ")
      rows.append(
        Row(
          name: "ant-data identity.json", status: same ? .match : .mismatch,
          detail: "antd uses it (no keys/swarm.key): \(found.checksummed)"
            + (problems.isEmpty ? "" : " — " + problems), path: identityPath))
    }
  }

  /// bee-data left from before desktop moved to antd.
  mutating func beeData(_ profile: FreedomProfile) throws {
    guard try ExportFiles.status(layout.beeData) != nil else {
      rows.append(Row(name: "bee-data", status: .absent, detail: "", path: layout.beeData))
      return
    }
    let row = try keystoreRow(
      "bee-data", directory: layout.beeData, expected: profile.swarm.address,
      configPath: ExportFiles.join(layout.beeData, "config.yaml"))
    let antKeystoreExists = try ExportFiles.status(layout.antKeystore) != nil
    let pending = row.status != .absent && !antKeystoreExists
    let why =
      pending
      ? "; the migration is pending: desktop moves bee-data to ant-data at its next start"
      : "; left over from before the migration to antd (desktop no longer reads it)"
    rows.append(
      Row(
        name: row.name, status: row.status,
        detail: (row.detail.isEmpty ? "present, no keys/swarm.key" : row.detail) + why,
        path: row.path, extra: row.extra))
  }

  /// Radicle's home where desktop looks for it: key pair and alias.
  mutating func radicle(_ profile: FreedomProfile) throws {
    guard try ExportFiles.status(radicleHome) != nil else {
      rows.append(Row(name: "radicle", status: .absent, detail: "", path: radicleHome))
      return
    }
    let result = try VerifyResult.radicle(radicleHome, profile: profile)
    let status: Status =
      switch result.status {
      case .match: .match
      case .mismatch: .mismatch
      case .absent: .absent
      }
    rows.append(
      Row(
        name: "radicle", status: status,
        detail: status == .mismatch
          ? "expected \(result.expected), found \(result.found ?? "nothing")"
          : (result.found ?? ""), path: result.path))
    let configPath = ExportFiles.join(radicleHome, "config.json")
    if let bytes = try ExportFiles.read(configPath),
      let config = try? RadicleConfig(json: bytes.withUnsafeBytes { Array($0) })
    {
      rows.append(
        Row(
          name: "radicle alias", status: .note,
          detail: config.alias.map { "\"\($0)\"" } ?? "none set (desktop sets FreedomBrowser)",
          path: configPath))
    }
  }

  /// An IPFS repository of older versions (today's desktop derives no IPFS identity).
  mutating func kubo(_ profile: FreedomProfile) throws {
    let config = ExportFiles.join(layout.ipfsData, "config")
    guard try ExportFiles.status(config) != nil else {
      rows.append(Row(name: "ipfs-data", status: .absent, detail: "", path: layout.ipfsData))
      return
    }
    let result = try VerifyResult.kubo(layout.ipfsData, profile: profile)
    let matches = result.status == .match
    rows.append(
      Row(
        name: "ipfs-data",
        status: result.status == .mismatch ? .mismatch : (matches ? .match : .absent),
        detail: (matches
          ? result.expected : "expected \(result.expected), found \(result.found ?? "nothing")")
          + " (an old kubo repository: today's desktop IPFS node is ephemeral)", path: result.path))
  }

  // MARK: - Output

  var text: String {
    let width = rows.map(\.name.count).max() ?? 0
    return rows.map { row in
      let status =
        switch row.status {
        case .match: "match   "
        case .mismatch: "MISMATCH"
        case .absent: "absent  "
        case .note: "note    "
        }
      let detail = row.status == .absent ? "(\(row.path))" : row.detail
      return row.name + String(repeating: " ", count: width - row.name.count + 2) + status + "  "
        + detail + "\n"
    }.joined()
  }

  var json: JSONValue {
    var object: JSONObject = ["userData": .string(layout.root)]
    var list: [JSONValue] = []
    for row in rows {
      var item: JSONObject = [
        "check": .string(row.name), "status": .string(row.status.rawValue),
        "path": .string(row.path),
      ]
      if !row.detail.isEmpty { item.append("detail", .string(row.detail)) }
      for member in row.extra.members { item.append(member.key, member.value) }
      list.append(.object(item))
    }
    object.append("checks", .array(list))
    return .object(object)
  }

  var mismatches: [String] { rows.filter { $0.status == .mismatch }.map(\.name) }

  // MARK: - Helpers

  private func compare(_ name: String, stored: String, derived: EthereumAddress, path: String)
    -> Row
  {
    let same = (try? EthereumAddress(stored)) == derived
    return Row(
      name: name, status: same ? .match : .mismatch,
      detail: same ? derived.checksummed : "expected \(derived.checksummed), found \(stored)",
      path: path)
  }

  /// A bee-compatible keystore in `directory`, opened with the `password:` of `configPath`
  /// when it has one (authenticated), else compared by its address field.
  private func keystoreRow(
    _ name: String, directory: String, expected: EthereumAddress, configPath: String
  ) throws -> Row {
    let keyPath = ExportFiles.join(directory, "keys/swarm.key")
    let stored = try StoredFile.read(keyPath) {
      try Web3Keystore(json: $0.withUnsafeBytes { Array($0) })
    }
    let keystore: Web3Keystore
    switch stored {
    case .absent: return Row(name: name, status: .absent, detail: "", path: keyPath)
    case .unreadable(let problem): throw CLIError.failure(problem.description)
    case .present(let value): keystore = value
    }
    let password: SecureBytes?
    do {
      password = try ExportFiles.read(configPath).flatMap { try AntdConfig(yaml: $0).password }
    } catch let error as AntdConfigError {
      throw CLIError.failure("\(configPath): \(error)")
    }
    guard let password else {
      let found = keystore.address
      return Row(
        name: name, status: found == expected ? .match : .mismatch,
        detail: "\(found?.checksummed ?? "no address") (address field only, unauthenticated: "
          + "config.yaml has no password)", path: keyPath, extra: ["authenticated": .bool(false)])
    }
    do {
      let key = try keystore.decrypt(password: password)
      let found = EthereumAddress(publicKey: key.publicKey)
      return Row(
        name: name, status: found == expected ? .match : .mismatch,
        detail: found == expected
          ? "\(found.checksummed) (decrypted with config.yaml's password)"
          : "expected \(expected.checksummed), found \(found.checksummed)",
        path: keyPath, extra: ["authenticated": .bool(true)])
    } catch .wrongPassword {
      return Row(
        name: name, status: .mismatch,
        detail: "config.yaml's password does not open keys/swarm.key: antd would not start "
          + "(export antd --data-dir \(directory) rewrites it)", path: keyPath,
        extra: ["authenticated": .bool(true)])
    } catch {
      throw CLIError.failure("\(keyPath): \(error)")
    }
  }
}

extension VerifyFreedomDir {
  /// Finishes or undoes, under each one's lock as every verify does, an interrupted change: first
  /// an `export freedom` of the whole userData, then one of each node directory in it (`export
  /// antd`, `bee`, `radicle`, `kubo`), so the checks read whole identities only.
  func finishInterruptedChanges() throws {
    let inside = ExportFreedomCommand.relative(radicleHome, under: layout.root)
    try NodeDirectoryAccess.reading(
      layout.root, layout: ExportFreedomCommand.layout(radicle: inside)
    ) { _ in }
    let nodes: [(String, NodeLayout)] = [
      (layout.antData, .antd), (layout.beeData, .bee), (radicleHome, .radicle),
      (layout.ipfsData, .kubo),
    ]
    for (directory, nodeLayout) in nodes {
      // What is not a directory is reported by its check below, not refused here.
      let status: FileStatus?
      do { status = try FileStatus.following(directory) } catch { continue }
      guard status?.isDirectory == true else { continue }
      try NodeDirectoryAccess.reading(directory, layout: nodeLayout) { _ in }
    }
  }

  /// Runs every check over `userData` and prints the report; exit 3 on a mismatch.
  static func run(
    _ userData: String, input: MnemonicOptions, vaultPasswordPath: String?, json: Bool
  ) throws {
    try ExportFiles.requireDirectory(userData)
    var report = try VerifyFreedomDir(userData: userData)
    try report.finishInterruptedChanges()
    let vaultPath = report.layout.vault
    // Without a mnemonic (file or vault given), the installation's own vault is the source.
    let vaultExists = try ExportFiles.status(vaultPath) != nil
    let vaultIsSource = input.mnemonicPath == nil && input.vaultPath == nil && vaultExists
    let vaultPassword: SecureBytes?
    if let vaultPasswordPath {
      vaultPassword = SecretInput.droppingLineEnding(
        try SecretInput.read(SecretSource(role: "vault password", path: vaultPasswordPath)))
    } else if vaultExists,
      SecretInput.standardInputIsTerminal, input.mnemonicPath != "-"
    {
      vaultPassword = try SecretInput.prompt(
        "Enter the vault password of \(vaultPath) (input hidden): ",
        for: SecretSource(role: "vault password", path: nil))
    } else {
      vaultPassword = nil
    }
    let mnemonic: Mnemonic
    if vaultIsSource {
      guard let vaultPassword else {
        throw CLIError.failure(
          "give --vault-password-file to open \(vaultPath), or the mnemonic with --mnemonic-file")
      }
      let bytes = try ExportFiles.read(vaultPath)!
      do {
        let opened = try DesktopVault(json: bytes.withUnsafeBytes { Array($0) })
          .decryptMnemonic(password: vaultPassword)
        mnemonic = try Mnemonic(phrase: opened)
      } catch let error as DesktopVaultError {
        throw CLIError.failure("\(vaultPath): \(error)")
      }
    } else {
      mnemonic = try input.readMnemonic()
    }
    let profile = try FreedomProfile(mnemonic: mnemonic, passphrase: try input.readPassphrase())

    // Every check runs before anything is printed: an error leaves stdout empty.
    try report.vault(phrase: mnemonic.phrase(), password: vaultPassword, isSource: vaultIsSource)
    try report.vaultMeta(profile)
    try report.antData(profile)
    try report.beeData(profile)
    try report.radicle(profile)
    try report.kubo(profile)
    Output.standardOutput(json ? report.json.rendered() + "\n" : report.text)
    let failed = report.mismatches
    if !failed.isEmpty {
      throw CLIError.mismatch(
        "\(failed.joined(separator: ", ")) \(failed.count == 1 ? "does" : "do") not hold the "
          + "mnemonic's identity")
    }
  }
}

import CryptoPrimitives
import FoundationEssentials
import Glibc
import NodeFiles
import PhraseRecovery
import VaultKeys

/// A desktop Freedom installation (its `userData`, see `DesktopUserData`): antd's `ant-data`,
/// Radicle's home where desktop looks for it, and the vault `identity/identity-vault.json` with
/// `identity/vault-meta.json`. Composed of `Antd` and `Radicle`: their rules are theirs; this type
/// adds the vault and makes one transaction of all three under userData (a Radicle home outside
/// userData is a second transaction).
public struct DesktopInstallation: FreedomNode, RecoveryTargetSource {
  public static let vaultFile = "identity/identity-vault.json"
  public static let vaultMetaFile = "identity/" + DesktopVaultMeta.fileName
  public static let antData = "ant-data"

  /// How `verify` treats the vault.
  public enum VaultAccess: Sendable {
    /// Not opened (no password given): it is checked to be desktop's format only.
    case notOpened
    /// The mnemonic checked was read from it.
    case source
    /// Opened with the password; it must hold `mnemonic`.
    case password(SecureBytes, mnemonic: Mnemonic)
  }

  public let paths: DesktopUserData
  /// Radicle's home: where desktop looks for it, or the one given.
  public let radicleHome: String
  public let vault: VaultAccess

  /// The installation at `userData`; Radicle's home is found as desktop finds it unless given.
  public init(userData: String, radicleHome: String? = nil, vault: VaultAccess = .notOpened)
    throws(NodeError)
  {
    paths = DesktopUserData(root: userData)
    try NodeSession.requireDirectoryOrAbsent(userData)
    if let radicleHome {
      self.radicleHome = radicleHome
    } else {
      self.radicleHome = try Self.desktopRadicleHome(paths)
    }
    self.vault = vault
  }

  public var directory: String { paths.root }
  public var vaultPath: String { NodePath.join(directory, Self.vaultFile) }
  public var vaultMetaPath: String { NodePath.join(directory, Self.vaultMetaFile) }
  /// Radicle's home relative to userData, when it lies inside it.
  public var radicleInside: String? { Self.relative(radicleHome, under: directory) }

  /// The nodes it is made of; each knows it lies inside this installation.
  public var antd: Antd {
    Antd(directory: paths.antData, check: Self.antData, enclosing: [enclosing])
  }
  public var radicle: Radicle {
    Radicle(home: radicleHome, enclosing: radicleInside == nil ? [] : [enclosing])
  }
  private var enclosing: EnclosingDirectory {
    EnclosingDirectory(path: directory, layout: layout)
  }

  /// The node directories an export or a check of the installation takes with it: ant-data,
  /// Radicle's home (inside userData or not), and the bee-data and ipfs-data older versions
  /// left; each is locked after userData and its own interrupted change recovered.
  public var nestedDirectories: [EnclosingDirectory] {
    [
      EnclosingDirectory(path: paths.antData, layout: Antd.layout),
      EnclosingDirectory(path: radicleHome, layout: Radicle.layout),
      EnclosingDirectory(path: paths.beeData, layout: Bee.layout),
      EnclosingDirectory(path: paths.ipfsData, layout: Kubo.layout),
    ]
  }

  /// Desktop's names for the node directories in a userData.
  static let nodeDirectoryNames = [antData, "bee-data", "radicle-data", "ipfs-data"]

  /// The desktop installation a node directory at `path` lies in, when `path` is where desktop
  /// keeps one (`<userData>/ant-data`, `bee-data`, `radicle-data` or `ipfs-data`, or
  /// `<appRoot>/R/<slot>`): a change to the node directory takes the installation's lock first
  /// and recovers its interrupted change first, so an `export antd` never runs inside an
  /// `export freedom` of the same installation.
  public static func enclosing(of path: String) -> [EnclosingDirectory] {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    let parent = NodePath.parent(trimmed)
    let root: String
    if nodeDirectoryNames.contains(NodePath.leaf(trimmed)) {
      root = parent
    } else if NodePath.leaf(parent) == DesktopUserData.catalogDirectory {
      root = NodePath.parent(parent)
    } else {
      return []
    }
    guard root != "/", root != ".", (try? FileStatus.following(root))??.isDirectory == true,
      let installation = try? DesktopInstallation(userData: root)
    else { return [] }
    return [installation.enclosing]
  }

  /// The installation's layout: ant-data, identity/ and (when inside) Radicle's home, whose
  /// keys/ is swapped as one directory.
  public var layout: NodeLayout {
    let prefix = Self.antData + "/"
    let radicleFiles = radicleInside.map { home in Radicle.layout.files.map { home + "/" + $0 } }
    return NodeLayout(
      name: "desktop Freedom user data",
      files: Antd.layout.files.map { prefix + $0 } + [Self.vaultFile, Self.vaultMetaFile]
        + (radicleFiles ?? []),
      identityDirectory: radicleInside.map { $0 + "/" + Radicle.keysDirectory },
      identityState: Antd.layout.identityState.map { prefix + $0 })
  }

  /// Where desktop looks for Radicle's home: `R/<slot>` for a packaged build's default profile
  /// (the app root holds profile-registry.json), else `radicle-data`.
  static func desktopRadicleHome(_ paths: DesktopUserData) throws(NodeError) -> String {
    guard try NodeFileAccess.status(paths.profileRegistry) != nil,
      let bytes = try NodeFileAccess.read(paths.profileMetadata)
    else { return paths.radicleData }
    let metadata: DesktopProfileMetadata
    do {
      metadata = try DesktopProfileMetadata(json: bytes)
    } catch {
      throw .invalid(path: paths.profileMetadata, reason: "\(error)")
    }
    guard let slot = metadata.slot else { return paths.radicleData }
    return paths.catalogRadicleHome(slot: slot)
  }

  /// `path` relative to `root`, when it lies inside it.
  static func relative(_ path: String, under root: String) -> String? {
    let base = root.hasSuffix("/") ? root : root + "/"
    guard path.hasPrefix(base), path.count > base.count else { return nil }
    let rest = String(path.dropFirst(base.count))
    return rest.split(separator: "/").contains("..") ? nil : rest
  }

  // MARK: - Inputs desktop accepts

  /// Fails unless desktop can read `mnemonic` (English only).
  public static func check(mnemonic: Mnemonic) throws(NodeError) {
    guard mnemonic.language == .english else {
      throw .invalidInput(.notEnglish(mnemonic.language.rawValue))
    }
  }

  /// Fails unless desktop accepts `password` for a vault (UTF-8, at least 8 characters).
  public static func check(vaultPassword password: SecureBytes) throws(NodeError) {
    guard let length = DesktopVault.javaScriptLength(password) else {
      throw .invalidInput(.vaultPasswordNotText)
    }
    guard length >= DesktopVault.minimumPasswordLength else {
      throw .invalidInput(.shortVaultPassword(length))
    }
  }

  /// Whether the installation has a vault file.
  public func hasVault() throws(NodeError) -> Bool {
    try NodeFileAccess.status(vaultPath) != nil
  }

  /// The mnemonic in the vault, opened with `password`.
  public func openVault(password: SecureBytes) throws(NodeError) -> Mnemonic {
    guard let bytes = try NodeFileAccess.read(vaultPath) else {
      throw .invalidInput(.noVault(path: vaultPath))
    }
    do {
      let opened = try DesktopVault(json: bytes.withUnsafeBytes { Array($0) })
        .decryptMnemonic(password: password)
      return try Mnemonic(phrase: opened)
    } catch {
      throw .invalid(path: vaultPath, reason: "\(error)")
    }
  }

  // MARK: - State

  public struct State {
    public let antd: Antd.State
    public let radicle: Radicle.State
    public let vault: SecureBytes?
    public let vaultMeta: SecureBytes?
  }

  public func inspect() throws(NodeError) -> State {
    try NodeFileAccess.requireDirectoryOrAbsent(radicleHome)
    return State(
      antd: try antd.inspect(), radicle: try radicle.inspect(),
      vault: try NodeFileAccess.read(vaultPath), vaultMeta: try NodeFileAccess.read(vaultMetaPath))
  }

  // MARK: - Export

  public struct ExportInputs {
    public let mnemonic: Mnemonic
    public let profile: FreedomProfile
    /// The vault's password; nil leaves identity/ alone.
    public let vaultPassword: SecureBytes?
    /// Radicle's alias.
    public let alias: String

    public init(
      mnemonic: Mnemonic, profile: FreedomProfile, vaultPassword: SecureBytes?,
      alias: String = DesktopUserData.defaultRadicleAlias
    ) {
      self.mnemonic = mnemonic
      self.profile = profile
      self.vaultPassword = vaultPassword
      self.alias = alias
    }
  }

  public struct Plan: NodePlan {
    public let actions: [PlannedAction]
    /// The one transaction under userData.
    public let change: NodeChange?
    public let antd: Antd.Plan
    public let radicle: Radicle.Plan
    /// Radicle's change when its home is outside userData: a second transaction.
    public let radicleOutside: NodeChange?
    /// The vault and vault-meta.json (nil: no vault password, identity/ untouched).
    public let vault: PlannedAction.Kind?
    public let vaultMeta: PlannedAction.Kind?
  }

  public func plan(
    _ state: State, _ inputs: ExportInputs, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan {
    let (antdPlan, antdConflicts) = try antd.planCollectingConflicts(
      state.antd, .init(profile: inputs.profile, password: nil), events: events)
    var conflicts = antdConflicts
    var change = antdPlan.change.map { Self.prefixed($0, Self.antData + "/") } ?? NodeChange()
    var actions = antdPlan.actions

    var vaultKind: PlannedAction.Kind?
    var metaKind: PlannedAction.Kind?
    if let password = inputs.vaultPassword {
      let phrase = inputs.mnemonic.phrase()
      var vaultIsCurrent = false
      if let stored = state.vault {
        let opened = try? DesktopVault(json: stored.withUnsafeBytes { Array($0) })
          .decryptMnemonic(password: password)
        vaultIsCurrent = opened == phrase
        if !vaultIsCurrent {
          conflicts.append(
            NodeConflict(
              path: vaultPath, found: .otherVault,
              expected: inputs.profile.wallet.address.checksummed))
        }
      }
      if vaultIsCurrent {
        vaultKind = .keep
      } else {
        let bytes: [UInt8]
        do {
          bytes = try DesktopVault.encrypt(mnemonic: phrase, password: password)
        } catch {
          throw .invalid(path: vaultPath, reason: "\(error)")
        }
        change.files.append(.init(Self.vaultFile, SecureBytes(bytes)))
        vaultKind = state.vault == nil ? .create : .replace(before: nil)
      }
      let storedMeta = state.vaultMeta.flatMap {
        try? DesktopVaultMeta(json: $0.withUnsafeBytes { Array($0) })
      }
      let metaIsCurrent =
        vaultIsCurrent
        && storedMeta.map {
          (try? EthereumAddress($0.userWalletAddress ?? "")) == inputs.profile.wallet.address
            && (try? EthereumAddress($0.beeWalletAddress ?? "")) == inputs.profile.swarm.address
        } == true
      if metaIsCurrent {
        metaKind = .keep
      } else {
        let meta = DesktopVaultMeta.importedJSON(
          userWallet: inputs.profile.wallet.address, beeWallet: inputs.profile.swarm.address)
        change.files.append(.init(Self.vaultMetaFile, SecureBytes(meta)))
        metaKind = state.vaultMeta == nil ? .create : .replace(before: nil)
      }
      actions.append(PlannedAction(vaultPath, vaultKind!))
      actions.append(PlannedAction(vaultMetaPath, metaKind!))
    }

    let (radiclePlan, radicleConflicts) = try radicle.planCollectingConflicts(
      state.radicle,
      .init(identity: inputs.profile.radicle, alias: inputs.alias, comment: inputs.alias),
      events: events)
    conflicts += radicleConflicts
    actions += radiclePlan.actions
    var outside: NodeChange?
    if let inside = radicleInside {
      // The key pair last: the Radicle keys/ directory is the one swapped as a whole.
      if let radicleChange = radiclePlan.change {
        change.files += Self.prefixed(radicleChange, inside + "/").files
      }
    } else {
      outside = radiclePlan.change
    }
    if !conflicts.isEmpty, !consent.replacesOtherIdentities { throw .refused(conflicts) }
    return Plan(
      actions: actions,
      change: change.files.isEmpty && change.removing.isEmpty ? nil : change, antd: antdPlan,
      radicle: radiclePlan, radicleOutside: outside, vault: vaultKind, vaultMeta: metaKind)
  }

  /// The one transaction under userData (the engine creates its missing parent directories
  /// inside it), then Radicle's home when it is outside: under the lock taken with userData's
  /// when the home existed, else created and locked now.
  public func apply(_ plan: Plan, in node: NodeDirectory) throws(NodeError) -> NodeChangeResult? {
    var result: NodeChangeResult?
    if let change = plan.change {
      result = try NodeSession.apply(change, in: node)
    }
    if let outside = plan.radicleOutside {
      if let home = node.nested(radicleHome) {
        _ = try NodeSession.apply(outside, in: home)
        return result
      }
      try NodeSession.requireDirectoryOrAbsent(radicleHome)
      let home = try NodeSession.engine { () throws(NodeFileError) in
        try NodeDirectory.open(radicleHome, layout: Radicle.layout, create: true)
      }
      var succeeded = false
      defer { home.close(keep: succeeded) }
      _ = try NodeSession.apply(outside, in: home)
      succeeded = true
    }
    return result
  }

  static func prefixed(_ change: NodeChange, _ prefix: String) -> NodeChange {
    NodeChange(
      files: change.files.map { .init(prefix + $0.path, $0.bytes, mode: $0.mode, owner: $0.owner) },
      removing: change.removing.map { prefix + $0 })
  }

  // MARK: - Verify

  /// Every part: the vault, vault-meta.json's wallets, ant-data, a bee-data left from before
  /// the migration, Radicle's home and an old kubo repository. What is not there is absent.
  public func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    var findings = try vaultFindings(state)
    findings += try vaultMetaFindings(state, profile)
    findings += try antd.verify(state.antd, against: profile, events: events)
    findings.append(try beeDataFinding(profile, events: events))
    findings += try radicleFindings(profile, events: events)
    findings.append(try kuboFinding(profile, events: events))
    return findings
  }

  private func vaultFindings(_ state: State) throws(NodeError) -> [NodeFinding] {
    guard let bytes = state.vault else { return [NodeFinding("vault", .absent, path: vaultPath)] }
    if case .source = vault {
      return [NodeFinding("vault", .match, path: vaultPath, reason: .vaultIsSource)]
    }
    let parsed: DesktopVault
    do {
      parsed = try DesktopVault(json: bytes.withUnsafeBytes { Array($0) })
    } catch {
      return [
        NodeFinding("vault", .mismatch, path: vaultPath, reason: .vaultUnreadable("\(error)"))
      ]
    }
    guard case .password(let password, let mnemonic) = vault else {
      return [NodeFinding("vault", .note, path: vaultPath, reason: .vaultNotOpened)]
    }
    let opened: SecureBytes
    do {
      opened = try parsed.decryptMnemonic(password: password)
    } catch {
      throw .invalid(path: vaultPath, reason: "\(error)")
    }
    let same = (try? Mnemonic(phrase: opened).phrase()) == mnemonic.phrase()
    return [
      NodeFinding(
        "vault", same ? .match : .mismatch, path: vaultPath,
        reason: same ? .vaultHoldsMnemonic : .vaultHoldsOtherMnemonic)
    ]
  }

  private func vaultMetaFindings(_ state: State, _ profile: FreedomProfile) throws(NodeError)
    -> [NodeFinding]
  {
    let path = vaultMetaPath
    guard let bytes = state.vaultMeta else {
      return [NodeFinding("vault-meta", .absent, path: path)]
    }
    let meta: DesktopVaultMeta
    do {
      meta = try DesktopVaultMeta(json: bytes.withUnsafeBytes { Array($0) })
    } catch {
      return [
        NodeFinding("vault-meta", .mismatch, path: path, reason: .vaultMetaUnreadable("\(error)"))
      ]
    }
    var findings: [NodeFinding] = []
    // What desktop writes on every import or creation (identity-manager.js).
    let lacking = [
      ("userKnowsPassword", meta.userKnowsPassword == nil),
      ("createdAt", meta.createdAt == nil),
      ("addresses.userWallet", meta.userWalletAddress == nil),
      ("addresses.beeWallet", meta.beeWalletAddress == nil),
    ].filter(\.1).map(\.0)
    if !lacking.isEmpty {
      findings.append(
        NodeFinding("vault-meta", .mismatch, path: path, reason: .vaultMetaLacks(lacking)))
    }
    for (name, stored, derived) in [
      ("vault-meta userWallet", meta.userWalletAddress, profile.wallet.address),
      ("vault-meta beeWallet", meta.beeWalletAddress, profile.swarm.address),
    ] {
      guard let stored else {
        findings.append(NodeFinding(name, .absent, path: path))
        continue
      }
      findings.append(Self.compare(name, stored: stored, derived: derived, path: path))
    }
    // The wallets the file lists; the implicit main wallet only when the file names its address.
    let wallets =
      meta.derivedWallets ?? (meta.userWalletAddress == nil ? [] : meta.wallets)
    for wallet in wallets {
      let name = "vault-meta wallet \(wallet.index)"
      guard wallet.isDerivable else {
        findings.append(
          NodeFinding(
            name, .note, path: path, found: wallet.address,
            reason: .deviceAccount(
              type: wallet.type.description, name: wallet.name, address: wallet.address)))
        continue
      }
      let derived: EthereumAddress
      do {
        derived = try profile.wallet(index: UInt32(wallet.index)).address
      } catch {
        throw .invalid(path: path, reason: "\(error)")
      }
      guard let stored = wallet.address else {
        findings.append(
          NodeFinding(
            name, .note, path: path, expected: derived.checksummed,
            reason: .walletWithoutAddress(derived: derived.checksummed, name: wallet.name)))
        continue
      }
      findings.append(Self.compare(name, stored: stored, derived: derived, path: path))
    }
    return findings
  }

  private static func compare(
    _ name: String, stored: String, derived: EthereumAddress, path: String
  ) -> NodeFinding {
    let same = (try? EthereumAddress(stored)) == derived
    return NodeFinding(
      name, same ? .match : .mismatch, path: path, expected: derived.checksummed, found: stored)
  }

  private func beeDataFinding(_ profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> NodeFinding
  {
    guard try NodeFileAccess.status(paths.beeData) != nil else {
      return NodeFinding("bee-data", .absent, path: paths.beeData)
    }
    let bee = Antd(directory: paths.beeData, check: "bee-data", rule: .bee)
    var finding = try bee.verify(try bee.inspect(), against: profile, events: events)[0]
    let antKeystoreExists = try NodeFileAccess.status(antd.keystorePath) != nil
    finding.reason = .beeDataLeftOver(
      pending: finding.status != .absent && !antKeystoreExists, keystore: finding.reason)
    return finding
  }

  private func radicleFindings(_ profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    guard try NodeFileAccess.status(radicleHome) != nil else {
      return [NodeFinding("radicle", .absent, path: radicleHome)]
    }
    let node = radicle
    let state = try node.inspect()
    var findings = try node.verify(state, against: profile, events: events)
    if let alias = node.alias(state) {
      findings.append(
        NodeFinding("radicle alias", .note, path: node.configPath, reason: .radicleAlias(alias)))
    }
    return findings
  }

  private func kuboFinding(_ profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> NodeFinding
  {
    let kubo = Kubo(repository: paths.ipfsData)
    guard try NodeFileAccess.status(kubo.configPath) != nil else {
      return NodeFinding("ipfs-data", .absent, path: paths.ipfsData)
    }
    var finding = try kubo.verify(try kubo.inspect(), against: profile, events: events)[0]
    finding.check = "ipfs-data"
    finding.reason = .oldKuboRepository(finding.reason)
    return finding
  }

  // MARK: - Recover

  /// The addresses of vault-meta.json (in userData's identity/, or the directory itself).
  package func recoveryTargets(_ state: State) throws(NodeError) -> [RecoveryTarget] {
    let direct = NodePath.join(directory, DesktopVaultMeta.fileName)
    var found: (String, SecureBytes)?
    for path in [direct, vaultMetaPath] where found == nil {
      if let bytes = try NodeFileAccess.read(path) { found = (path, bytes) }
    }
    guard let (path, bytes) = found else {
      throw .missingFile(path: direct, needed: .vaultMeta(directory: directory))
    }
    do {
      return try FreedomVaultMeta(json: bytes.withUnsafeBytes { Array($0) }).targets
    } catch {
      throw .unreadable(path: path, reason: "\(error)")
    }
  }
}

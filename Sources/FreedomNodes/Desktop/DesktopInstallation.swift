import CryptoPrimitives
import FoundationEssentials
import NodeFiles
import Recovery
import VaultKeys

/// A desktop Freedom installation (its `userData`, see `DesktopUserData`): antd's `ant-data`,
/// Radicle's home where desktop looks for it, and the vault `identity/identity-vault.json` with
/// `identity/vault-meta.json`. Composed of `Antd` and `Radicle`: their rules are theirs; this type
/// adds the vault and makes one transaction of all three (`transactionRoot`): under userData, or,
/// for a catalog profile whose Radicle home (`<appRoot>/R/<slot>`) lies outside its userData
/// (`<appRoot>/Profiles/<id>`), under the app root both lie in (a dev build's `Freedom Dev`).
/// Only a Radicle home given outside both is a second transaction.
package struct DesktopInstallation: FreedomNode, RecoveryTargetSource {
  package static let vaultFile = "identity/identity-vault.json"
  package static let vaultMetaFile = "identity/" + DesktopVaultMeta.fileName
  package static let antData = "ant-data"

  /// How `verify` treats the vault.
  package enum VaultAccess: Sendable {
    /// Not opened (no password given): it is checked to be desktop's format only.
    case notOpened
    /// The mnemonic checked was read from it.
    case source
    /// Opened with the password; it must hold `mnemonic`.
    case password(SecureBytes, mnemonic: Mnemonic)
  }

  package let paths: DesktopUserData
  /// Radicle's home: where desktop looks for it, or the one given.
  package let radicleHome: String
  package let vault: VaultAccess
  /// The profile: its app root, id, slot and Radicle home as desktop finds them.
  package let location: DesktopProfileLocation
  /// Whether an export may create a new installation (the directory absent or holding nothing
  /// of desktop Freedom's); without it, it must hold something that is Freedom's.
  package let createsInstallation: Bool
  /// The Quick Unlock credential desktop keeps beside the vault.
  package static let quickUnlockFile = "identity/" + DesktopQuickUnlock.fileName
  /// Where desktop's bee → ant migration moves bee's stores for a worker to delete.
  package static let beeOnlyDataPendingDelete = ".bee-only-data-pending-delete"

  /// The installation at `userData` (an app root's default profile, `<appRoot>/Profiles/<id>`,
  /// or a userData outside any catalog); Radicle's home is found as desktop finds it unless
  /// given.
  package init(
    userData: String, radicleHome: String? = nil, vault: VaultAccess = .notOpened,
    createsInstallation: Bool = false
  ) throws(NodeError) {
    try NodeSession.requireDirectoryOrAbsent(userData)
    let location = try DesktopProfileLocation.of(userData: userData)
    // The userData is the folder named; Radicle's home found from it lies below its app root.
    if radicleHome == nil { try location.requireNoLink(to: location.radicleHome) }
    try self.init(
      location: location, radicleHome: radicleHome, vault: vault,
      createsInstallation: createsInstallation)
  }

  /// Profile `profile` (its id or display name) of the app root `appRoot`, through its
  /// profile registry. With `createsInstallation`, a profile the registry does not list (or an
  /// app root not there yet) is registered by the export, as desktop registers one
  /// (`DesktopProfileRegistration`).
  package init(
    appRoot: String, profile: String, radicleHome: String? = nil,
    vault: VaultAccess = .notOpened, createsInstallation: Bool = false
  ) throws(NodeError) {
    if createsInstallation {
      try NodeSession.requireDirectoryOrAbsent(appRoot)
    } else {
      try NodeSession.requireDirectory(appRoot)
    }
    let location = try DesktopProfileLocation.named(
      profile, appRoot: appRoot, registering: createsInstallation)
    // Both roots are found below the app root named: neither is reached through a link.
    try location.requireNoLink(to: location.userData)
    if radicleHome == nil { try location.requireNoLink(to: location.radicleHome) }
    try self.init(
      location: location, radicleHome: radicleHome, vault: vault,
      createsInstallation: createsInstallation)
  }

  private init(
    location: DesktopProfileLocation, radicleHome: String?, vault: VaultAccess,
    createsInstallation: Bool
  ) throws(NodeError) {
    self.location = location
    paths = DesktopUserData(root: location.userData)
    self.radicleHome = radicleHome ?? location.radicleHome
    self.vault = vault
    self.createsInstallation = createsInstallation
  }

  /// The same installation, checked with `vault`.
  package func with(vault: VaultAccess) -> DesktopInstallation {
    DesktopInstallation(
      location: location, paths: paths, radicleHome: radicleHome, vault: vault,
      createsInstallation: createsInstallation)
  }

  private init(
    location: DesktopProfileLocation, paths: DesktopUserData, radicleHome: String,
    vault: VaultAccess, createsInstallation: Bool
  ) {
    self.location = location
    self.paths = paths
    self.radicleHome = radicleHome
    self.vault = vault
    self.createsInstallation = createsInstallation
  }

  /// Refuses a directory that is not a desktop installation: one that does not exist or holds
  /// nothing of Freedom's (unless `createsInstallation`, which still refuses one holding other
  /// files: only an absent or empty directory becomes a new installation), a part of an installation (its
  /// ant-data, identity/, R/<slot>…) or another node's directory.
  package func requireRightDirectory() throws(NodeError) {
    let path = directory
    guard let status = try NodeFileAccess.statusFollowingLinks(path) else {
      if createsInstallation { return }
      throw .wrongDirectory(path: path, .absent, wanted: .desktopInstallation)
    }
    guard status.isDirectory else { throw .notADirectory(path) }
    if let part = try DesktopDirectory.part(path) {
      throw .wrongDirectory(path: path, part, wanted: .desktopInstallation)
    }
    if try DesktopDirectory.holdsFreedom(path) { return }
    if let node = try DesktopDirectory.node(path) {
      throw .wrongDirectory(path: path, .nodeDirectory(node), wanted: .desktopInstallation)
    }
    // Our own lock and leftovers (a killed first export's) are not someone else's files.
    let empty = DesktopDirectory.entries(path).allSatisfy { $0.hasPrefix(".freedom-keys") }
    if createsInstallation {
      if empty { return }
      throw .wrongDirectory(path: path, .occupiedByOthers, wanted: .desktopInstallation)
    }
    throw .wrongDirectory(
      path: path, .nothingOfFreedom(empty: DesktopDirectory.entries(path).isEmpty),
      wanted: .desktopInstallation)
  }

  package var directory: String { paths.root }
  package var vaultPath: String { NodePath.join(directory, Self.vaultFile) }
  package var vaultMetaPath: String { NodePath.join(directory, Self.vaultMetaFile) }
  /// Radicle's home relative to userData, when it lies inside it.
  package var radicleInside: String? { Self.relative(radicleHome, under: directory) }

  /// The directory the export's one transaction (its lock, intent record and commit mark) is
  /// rooted in: userData, or, when Radicle's home lies outside it, the nearest folder desktop
  /// keeps both in — the app root (`Profiles/<id>` and `R/<slot>`), or a dev build's
  /// `Freedom Dev` (`<checkout>/Profiles/<id>` and `R/<hash>/<slot>`). A home outside those too
  /// (one given) is changed in a second transaction.
  package var transactionRoot: String {
    guard radicleInside == nil, let appRoot = location.appRoot else { return directory }
    var roots = [appRoot]
    if DesktopProfileLocation.isDev(appRoot: appRoot) { roots.append(NodePath.parent(appRoot)) }
    for root in roots
    where Self.relative(directory, under: root) != nil
      && Self.relative(radicleHome, under: root) != nil
    {
      return root
    }
    return directory
  }

  /// Whether the transaction is rooted above userData (see `transactionRoot`).
  var spansProfileFolders: Bool { transactionRoot != directory }

  /// The layout of the one transaction rooted at `transactionRoot` above userData: userData's
  /// files below `Profiles/<id>/`, Radicle's below `R/<slot>/` (its keys/ the identity
  /// directory swapped last), each of the two a part keeping its own backups, where an undo of
  /// either finds them.
  var profileLayout: NodeLayout {
    let root = transactionRoot
    guard let user = Self.relative(directory, under: root),
      let home = Self.relative(radicleHome, under: root)
    else { return layout }
    let own = layout
    return NodeLayout(
      name: own.name,
      files: own.files.map { user + "/" + $0 } + Radicle.layout.files.map { home + "/" + $0 },
      identityDirectory: home + "/" + Radicle.keysDirectory,
      identityState: own.identityState.map { user + "/" + $0 }, parts: [user, home])
  }

  /// The installation's own folders an export and an undo take with it, locked before userData:
  /// the folder its one transaction is rooted in when that is above userData.
  package var enclosingDirectories: [NodeDirectory.Enclosing] {
    guard spansProfileFolders else { return Self.enclosing(of: directory) }
    return [NodeDirectory.Enclosing(transactionRoot, layout: profileLayout)]
  }

  /// The nodes it is made of; each knows it lies inside this installation.
  package var antd: Antd {
    Antd(directory: paths.antData, check: Self.antData, enclosing: withEnclosing)
  }
  package var radicle: Radicle {
    Radicle(
      home: radicleHome,
      enclosing: radicleInside != nil
        ? withEnclosing : spansProfileFolders ? enclosingDirectories : [])
  }
  /// This installation's lock hierarchy down to userData (outermost first).
  private var withEnclosing: [NodeDirectory.Enclosing] { enclosingDirectories + [enclosing] }
  private var enclosing: NodeDirectory.Enclosing {
    NodeDirectory.Enclosing(directory, layout: layout)
  }

  /// The node directories an export or a check of the installation takes with it: ant-data,
  /// Radicle's home (inside userData or not), and the bee-data and ipfs-data older versions
  /// left; each is locked after userData and its own interrupted change recovered.
  package var nestedDirectories: [NodeDirectory.Enclosing] {
    [
      NodeDirectory.Enclosing(paths.antData, layout: Antd.layout),
      NodeDirectory.Enclosing(radicleHome, layout: Radicle.layout),
      NodeDirectory.Enclosing(paths.beeData, layout: Bee.layout),
      NodeDirectory.Enclosing(paths.ipfsData, layout: Kubo.layout),
    ]
  }

  /// Desktop's names for the node directories in a userData.
  static let nodeDirectoryNames = [antData, "bee-data", "radicle-data", "ipfs-data"]

  /// The desktop installation a node directory at `path` lies in, when `path` is where desktop
  /// keeps one (`<userData>/ant-data`, `bee-data`, `radicle-data` or `ipfs-data`, or
  /// `<appRoot>/R/<slot>`): a change to the node directory takes the installation's lock first
  /// and recovers its interrupted change first, so an `export antd` never runs inside an
  /// `export freedom` of the same installation.
  package static func enclosing(of path: String) -> [NodeDirectory.Enclosing] {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    let parent = NodePath.parent(trimmed)
    let root: String
    if nodeDirectoryNames.contains(NodePath.leaf(trimmed)) {
      root = parent
    } else if Int(NodePath.leaf(trimmed)) != nil,
      let owner = DesktopProfileLocation.owner(ofRadicleHome: trimmed)
    {
      // R/<slot> belongs to the profile whose slot it is (a dev build's R/<hash>/<slot> too).
      root = owner
    } else if NodePath.leaf(parent) == DesktopUserData.catalogDirectory {
      root = NodePath.parent(parent)
    } else {
      return []
    }
    guard root != "/", root != ".", (try? FileStatus.following(root))??.isDirectory == true,
      let installation = try? DesktopInstallation(userData: root)
    else { return [] }
    return installation.withEnclosing
  }

  /// The installation's layout: ant-data, identity/ and (when inside) Radicle's home, whose
  /// keys/ is swapped as one directory.
  package var layout: NodeLayout {
    let prefix = Self.antData + "/"
    let radicleFiles = radicleInside.map { home in Radicle.layout.files.map { home + "/" + $0 } }
    return NodeLayout(
      name: "desktop Freedom user data",
      files: Antd.layout.files.map { prefix + $0 } + [Self.vaultFile, Self.vaultMetaFile]
        + (radicleFiles ?? []),
      identityDirectory: radicleInside.map { $0 + "/" + Radicle.keysDirectory },
      identityState: Antd.layout.identityState.map { prefix + $0 } + [Self.quickUnlockFile])
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
  package static func check(mnemonic: Mnemonic) throws(NodeError) {
    guard mnemonic.language == .english else {
      throw .invalidInput(.notEnglish(mnemonic.language.rawValue))
    }
  }

  /// Fails unless desktop accepts `password` for a vault (UTF-8, at least 8 characters).
  package static func check(vaultPassword password: SecureBytes, file: String? = nil)
    throws(NodeError)
  {
    guard let length = DesktopVault.javaScriptLength(password) else {
      throw .invalidInput(.vaultPasswordNotText(file: file))
    }
    guard length >= DesktopVault.minimumPasswordLength else {
      throw .invalidInput(.shortVaultPassword(length))
    }
  }

  /// Whether the installation has a vault file.
  package func hasVault() throws(NodeError) -> Bool {
    try NodeFileAccess.status(vaultPath) != nil
  }

  /// The mnemonic in the vault, opened with `password`.
  package func openVault(password: SecureBytes) throws(NodeError) -> Mnemonic {
    guard let bytes = try NodeFileAccess.read(vaultPath) else {
      throw .invalidInput(.noVault(path: vaultPath))
    }
    do {
      let opened = try DesktopVault(json: bytes)
        .decryptMnemonic(password: password)
      return try Mnemonic(phrase: opened)
    } catch {
      throw .invalid(path: vaultPath, reason: "\(error)")
    }
  }

  // MARK: - State

  package struct State {
    package let antd: Antd.State
    package let radicle: Radicle.State
    package let vault: SecureBytes?
    package let vaultMeta: SecureBytes?
    /// `identity/quick-unlock.dat`, when there is one.
    package let quickUnlock: SecureBytes?
  }

  package var quickUnlockPath: String { NodePath.join(directory, Self.quickUnlockFile) }

  package func inspect() throws(NodeError) -> State {
    try NodeFileAccess.requireDirectoryOrAbsent(radicleHome)
    return State(
      antd: try antd.inspect(), radicle: try radicle.inspect(),
      vault: try NodeFileAccess.read(vaultPath), vaultMeta: try NodeFileAccess.read(vaultMetaPath),
      quickUnlock: try NodeFileAccess.read(quickUnlockPath))
  }

  // MARK: - Export

  package struct ExportInputs {
    package let mnemonic: Mnemonic
    package let profile: FreedomProfile
    /// The vault's password; nil leaves identity/ alone.
    package let vaultPassword: SecureBytes?
    /// Radicle's alias.
    package let alias: String

    package init(
      mnemonic: Mnemonic, profile: FreedomProfile, vaultPassword: SecureBytes?,
      alias: String = DesktopUserData.defaultRadicleAlias
    ) {
      self.mnemonic = mnemonic
      self.profile = profile
      self.vaultPassword = vaultPassword
      self.alias = alias
    }
  }

  package struct Plan: NodePlan {
    package let actions: [PlannedAction]
    /// The one transaction under userData.
    package let change: NodeChange?
    package let antd: Antd.Plan
    package let radicle: Radicle.Plan
    /// Radicle's change when its home is outside `transactionRoot`: a second transaction.
    package let radicleOutside: NodeChange?
    /// The vault and vault-meta.json (nil: no vault password, identity/ untouched).
    package let vault: PlannedAction.Kind?
    package let vaultMeta: PlannedAction.Kind?
    /// When vault-meta.json is written again for the same mnemonic with every member kept: the
    /// members changed (`DesktopVaultMeta.Rewrite.changes`); nil when it is written afresh.
    package let vaultMetaKept: [String]?
    /// Whether identity/quick-unlock.dat is moved aside (the vault it was bound to is
    /// rewritten).
    package let quickUnlockMovedAside: Bool
    /// The profile registered in the same transaction (its record in the registry and its
    /// profile.json), or nil.
    package let registration: DesktopProfileRegistration?

    /// The change, or Radicle's in its second transaction.
    package var changes: Bool { change != nil || radicleOutside != nil }
  }

  package func plan(
    _ state: State, _ inputs: ExportInputs, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan {
    let (antdPlan, antdConflicts) = try antd.planCollectingConflicts(
      state.antd, .init(profile: inputs.profile, password: nil), events: events)
    var conflicts = antdConflicts
    var change = antdPlan.change.map { Self.prefixed($0, Self.antData + "/") } ?? NodeChange()
    var actions = antdPlan.actions

    var vaultKind: PlannedAction.Kind?
    var metaKind: PlannedAction.Kind?
    var metaChanges: [String]?
    var quickUnlockMovedAside = false
    let storedMeta = state.vaultMeta.flatMap { try? DesktopVaultMeta(json: $0) }
    if inputs.vaultPassword == nil, state.vault != nil, let storedMeta {
      // The vault stays: ant-data of another mnemonic beside it would be two identities in one
      // installation. vault-meta.json names the vault's addresses in plain text.
      for (stored, derived) in [
        (storedMeta.beeWalletAddress, inputs.profile.swarm.address),
        (storedMeta.userWalletAddress, inputs.profile.wallet.address),
      ] {
        guard let stored, (try? EthereumAddress(stored)) != derived else { continue }
        throw .vaultOfAnotherMnemonic(
          vaultMeta: vaultMetaPath, stored: stored, expected: derived.checksummed)
      }
    }
    if let password = inputs.vaultPassword {
      let phrase = inputs.mnemonic.phrase()
      var vaultIsCurrent = false
      if let stored = state.vault {
        let opened = try? DesktopVault(json: stored)
          .decryptMnemonic(password: password)
        vaultIsCurrent = opened == phrase
        if !vaultIsCurrent {
          // Another mnemonic, or a password the user did not give (a Quick Setup vault's lives
          // in the OS keyring): either may be the user's wallet, so it needs its own consent.
          let quickSetup = storedMeta?.userKnowsPassword == false
          conflicts.append(
            NodeConflict(
              path: vaultPath,
              found: opened == nil ? .vaultNotOpened(quickSetup: quickSetup) : .otherVault,
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
        // Desktop binds Quick Unlock to the vault's bytes: it no longer fits the new vault,
        // so it is kept aside with what the export replaces (Touch ID is set up again).
        if state.quickUnlock != nil {
          change.removing.append(Self.quickUnlockFile)
          quickUnlockMovedAside = true
        }
      }
      // The same mnemonic's file keeps every member that still holds (desktop's wallets, device
      // accounts, names, activeWalletIndex); another's, or one desktop cannot read, is replaced
      // as desktop's import writes it. Either way the old file is kept aside.
      let rewrite: DesktopVaultMeta.Rewrite?
      do {
        rewrite = try storedMeta?.keepingMembers(for: inputs.profile, vaultOpened: vaultIsCurrent)
      } catch {
        throw .invalid(path: vaultMetaPath, reason: "\(error)")
      }
      if let rewrite, rewrite.changes.isEmpty {
        metaKind = .keep
      } else {
        let meta =
          rewrite?.json
          ?? DesktopVaultMeta.importedJSON(
            userWallet: inputs.profile.wallet.address, beeWallet: inputs.profile.swarm.address)
        change.files.append(.init(Self.vaultMetaFile, SecureBytes(meta)))
        metaKind = state.vaultMeta == nil ? .create : .replace(before: nil)
        metaChanges = rewrite?.changes
      }
      actions.append(PlannedAction(vaultPath, vaultKind!))
      actions.append(PlannedAction(vaultMetaPath, metaKind!))
      if quickUnlockMovedAside { actions.append(PlannedAction(quickUnlockPath, .moveAside)) }
    }

    let (radiclePlan, radicleConflicts) = try radicle.planCollectingConflicts(
      state.radicle,
      .init(identity: inputs.profile.radicle, alias: inputs.alias, comment: inputs.alias),
      events: events)
    conflicts += radicleConflicts
    actions += radiclePlan.actions
    var outside: NodeChange?
    if spansProfileFolders, let user = Self.relative(directory, under: transactionRoot),
      let home = Self.relative(radicleHome, under: transactionRoot)
    {
      // One transaction under the folder both lie in: userData's files, then Radicle's, the
      // key pair last (its keys/ swapped as a whole is the commit point).
      change = Self.prefixed(change, user + "/")
      if let radicleChange = radiclePlan.change {
        change.files += Self.prefixed(radicleChange, home + "/").files
      }
    } else if let inside = radicleInside {
      // The key pair last: the Radicle keys/ directory is the one swapped as a whole.
      if let radicleChange = radiclePlan.change {
        change.files += Self.prefixed(radicleChange, inside + "/").files
      }
    } else {
      outside = radiclePlan.change
    }
    if let registration = location.registration {
      let written = try registrationFiles(registration)
      change.files = written.files + change.files
      actions = written.actions + actions
    }
    // One consent per kind of loss; a refusal names every conflict, covered or not.
    let plan = Plan(
      actions: actions,
      change: change.files.isEmpty && change.removing.isEmpty ? nil : change, antd: antdPlan,
      radicle: radiclePlan, radicleOutside: outside, vault: vaultKind, vaultMeta: metaKind,
      vaultMetaKept: metaChanges, quickUnlockMovedAside: quickUnlockMovedAside,
      registration: location.registration)
    return try consent.approve(plan, conflicts: conflicts)
  }

  /// The registry with the new profile's record, then its profile.json, first in the
  /// transaction: a kill before the commit leaves neither, after it both with the keys.
  private func registrationFiles(_ registration: DesktopProfileRegistration) throws(NodeError)
    -> (files: [NodeChange.File], actions: [PlannedAction])
  {
    guard let appRoot = location.appRoot else { return ([], []) }
    let registryPath = NodePath.join(appRoot, DesktopProfileRegistry.fileName)
    let existing = try NodeFileAccess.read(registryPath)
    guard
      let bytes = registration.registry(
        extending: existing.map { $0.withUnsafeBytes { Array($0) } })
    else {
      throw .invalid(
        path: registryPath,
        reason: "it lists this profile or its slot now, or cannot be read; nothing was written")
    }
    let metadataPath = paths.profileMetadata
    // Both lie in the transaction's root, unless a Radicle home given outside the app root
    // took the transaction down to userData: then the registry is not the transaction's.
    guard let registryFile = Self.relative(registryPath, under: transactionRoot),
      let metadataFile = Self.relative(metadataPath, under: transactionRoot)
    else {
      throw .invalid(
        path: radicleHome,
        reason: "a new profile's Radicle home is R/<slot> of its app root, where desktop reads "
          + "it; nothing was written")
    }
    return (
      [
        .init(registryFile, SecureBytes(bytes), mode: 0o644),
        .init(metadataFile, SecureBytes(registration.metadata), mode: 0o644),
      ],
      [
        PlannedAction(registryPath, existing == nil ? .create : .replace(before: nil)),
        PlannedAction(metadataPath, .create),
      ]
    )
  }

  /// The one transaction under `transactionRoot` (the engine creates its missing parent
  /// directories inside it, `R/<slot>` included), then Radicle's home when it is outside that
  /// too: under the lock taken with userData's when the home existed, else created and locked
  /// now.
  package func apply(_ plan: Plan, in node: NodeDirectory) throws(NodeError) -> NodeChangeResult? {
    var result: NodeChangeResult?
    if let change = plan.change {
      let target = try transactionDirectory(node)
      // A new profile replaces nothing of an identity, and the registry it extends is whole
      // in the new one: nothing to keep aside (a backup in the app root would be the default
      // profile's newest, which its undo could not put back).
      if plan.registration != nil { target.defaultBackup = nil }
      result = try NodeSession.apply(change, in: target)
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

  /// As `apply`: the installation's change, then Radicle's home outside it (opened for reading
  /// here when the dry run did not take it with the installation, or created).
  package func requireApplicable(_ plan: Plan, in node: NodeDirectory?) throws(NodeError) {
    try NodeSession.requireApplicable(
      plan.change, in: try node.map { (node) throws(NodeError) in try transactionDirectory(node) },
      creating: directory)
    guard let outside = plan.radicleOutside else { return }
    if let home = node?.nested(radicleHome) {
      return try NodeSession.requireApplicable(outside, in: home, creating: radicleHome)
    }
    guard try NodeFileAccess.statusFollowingLinks(radicleHome) != nil else {
      return try NodeSession.requireApplicable(outside, in: nil, creating: radicleHome)
    }
    let home = try NodeSession.engine { () throws(NodeFileError) in
      try NodeDirectory.openForReading(radicleHome, layout: Radicle.layout, recovering: false)
    }
    defer { home.close() }
    try NodeSession.requireApplicable(outside, in: home, creating: radicleHome)
  }

  /// The directory the change is applied in: userData's, or the enclosing one locked for
  /// `transactionRoot`.
  func transactionDirectory(_ node: NodeDirectory) throws(NodeError) -> NodeDirectory {
    guard spansProfileFolders else { return node }
    guard let root = node.enclosingDirectories.last(where: { $0.path == transactionRoot }) else {
      throw .noSuchDirectory(transactionRoot)
    }
    return root
  }

  static func prefixed(_ change: NodeChange, _ prefix: String) -> NodeChange {
    NodeChange(
      files: change.files.map { .init(prefix + $0.path, $0.bytes, mode: $0.mode, owner: $0.owner) },
      removing: change.removing.map { prefix + $0 })
  }

  // MARK: - Verify

  /// Every part: the vault, vault-meta.json's wallets, ant-data, a bee-data left from before
  /// the migration, Radicle's home and an old kubo repository. What is not there is absent.
  package func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    var findings = try profileFindings()
    findings += try vaultFindings(state)
    findings += try vaultMetaFindings(state, profile)
    findings += quickUnlockFindings(state)
    findings += try antd.verify(state.antd, against: profile, events: events)
    findings += try migrationFindings()
    findings.append(try beeDataFinding(profile, events: events))
    findings += try radicleFindings(profile, events: events)
    findings.append(try kuboFinding(profile, events: events))
    findings += try freedomIPFSFindings()
    findings += try publisherMapFindings(state, profile)
    return findings
  }

  /// Every profile of the app root's registry, the one checked marked; and the staging
  /// folders of a radicle-data copy beside this profile's Radicle home.
  private func profileFindings() throws(NodeError) -> [NodeFinding] {
    var findings = try location.allProfiles().map { other in
      NodeFinding(
        "profile \(other.profileID ?? "")", .note, path: other.userData,
        reason: .desktop(
          .profile(
            id: other.profileID ?? "", name: nil, slot: other.slot,
            radicleHome: other.radicleHome, checked: other.userData == directory)))
    }
    if let registry = try location.appRoot.flatMap({ (root) throws(NodeError) in
      try DesktopProfileLocation.registry(root)
    }) {
      for (index, other) in findings.enumerated() {
        let id = other.check.dropFirst("profile ".count)
        guard case .desktop(.profile(_, _, let slot, let home, let checked))? = other.reason,
          let name = registry.profile(id: String(id))?.displayName
        else { continue }
        findings[index].reason = .desktop(
          .profile(id: String(id), name: name, slot: slot, radicleHome: home, checked: checked))
      }
    }
    let staging = DesktopProfileLocation(
      appRoot: location.appRoot, profileID: location.profileID, userData: directory,
      slot: location.slot, radicleHome: radicleHome)
    for folder in staging.radicleStagingFolders() {
      findings.append(
        NodeFinding(
          "radicle staging", .note, path: folder,
          reason: .desktop(.radicleStaging(home: radicleHome))
        ))
    }
    return findings
  }

  /// identity/quick-unlock.dat: whether it still fits the vault.
  private func quickUnlockFindings(_ state: State) -> [NodeFinding] {
    guard let bytes = state.quickUnlock else { return [] }
    let credential = DesktopQuickUnlock(bytes: bytes)
    let fit: NodeFinding.QuickUnlockState
    if case .legacy = credential.kind {
      fit = .legacy
    } else if let vault = state.vault {
      fit = credential.fits(vault: vault) ? .fitsVault : .staleVault
    } else {
      fit = .noVault
    }
    return [
      NodeFinding("quick-unlock", .note, path: quickUnlockPath, reason: .desktop(.quickUnlock(fit)))
    ]
  }

  /// What desktop's bee → ant migration leaves: bee's stores moved aside for deletion, and
  /// the stamperstore kept in ant-data.
  private func migrationFindings() throws(NodeError) -> [NodeFinding] {
    var findings: [NodeFinding] = []
    let pending = NodePath.join(directory, Self.beeOnlyDataPendingDelete)
    if try NodeFileAccess.status(pending) != nil {
      findings.append(
        NodeFinding(
          Self.beeOnlyDataPendingDelete, .note, path: pending,
          reason: .desktop(.beeOnlyDataPendingDelete)))
    }
    let stamperstore = NodePath.join(paths.antData, "stamperstore")
    if try NodeFileAccess.status(stamperstore) != nil {
      findings.append(
        NodeFinding(
          "ant-data stamperstore", .note, path: stamperstore, reason: .desktop(.keptStamperstore)))
    }
    return findings
  }

  /// `ipfs-data/freedom-ipfs/`: the embedded node's cache, reported as such, never as kubo.
  private func freedomIPFSFindings() throws(NodeError) -> [NodeFinding] {
    let cache = NodePath.join(paths.ipfsData, "freedom-ipfs")
    guard try NodeFileAccess.status(cache) != nil else { return [] }
    return [
      NodeFinding("ipfs-data freedom-ipfs", .note, path: cache, reason: .desktop(.freedomIPFSCache))
    ]
  }

  /// swarm-feeds.json: each feed's signer, derived from the mnemonic and compared with the
  /// owner desktop recorded; device accounts and unknown identities named.
  private func publisherMapFindings(_ state: State, _ profile: FreedomProfile) throws(NodeError)
    -> [NodeFinding]
  {
    let path = NodePath.join(directory, DesktopPublisherMap.fileName)
    guard let bytes = try NodeFileAccess.read(path) else { return [] }
    let name = "swarm-feeds"
    let map: DesktopPublisherMap
    do {
      map = try DesktopPublisherMap(json: bytes)
    } catch {
      return [
        NodeFinding(
          name, .note, path: path, reason: .desktop(.publisherMap(.unreadable("\(error)"))))
      ]
    }
    let feeds: [DesktopPublisherMap.Feed]
    switch map.content {
    case .version1:
      return [NodeFinding(name, .note, path: path, reason: .desktop(.publisherMap(.version1)))]
    case .unsupported(let version):
      return [
        NodeFinding(name, .note, path: path, reason: .desktop(.publisherMap(.unsupported(version))))
      ]
    case .current(let all, let active):
      feeds = all
      let origins = Set(active.map(\.origin)).count
      var findings = [
        NodeFinding(
          name, .note, path: path,
          reason: .desktop(.publisherMap(.current(origins: origins, feeds: all.count))))
      ]
      let meta = state.vaultMeta.flatMap {
        try? DesktopVaultMeta(json: $0)
      }
      // Each signer's wallet and address once: a map of many feeds costs one lookup each.
      var wallets: [Int: DesktopVaultMeta.Wallet] = [:]
      for wallet in meta?.wallets ?? [] where wallets[wallet.index] == nil {
        wallets[wallet.index] = wallet
      }
      var derived: [DesktopPublisherMap.Signer: EthereumAddress] = [:]
      for feed in feeds {
        findings.append(
          try feedFinding(feed, profile, wallets: wallets, derived: &derived, path: path))
      }
      return findings
    }
  }

  private func feedFinding(
    _ feed: DesktopPublisherMap.Feed, _ profile: FreedomProfile,
    wallets: [Int: DesktopVaultMeta.Wallet],
    derived cache: inout [DesktopPublisherMap.Signer: EthereumAddress], path: String
  ) throws(NodeError) -> NodeFinding {
    let check = "swarm feed \(feed.origin) \(feed.name)"
    guard let signer = feed.signer else {
      return NodeFinding(
        check, .note, path: path, found: feed.owner,
        reason: .desktop(
          .feedSignerUnknown(origin: feed.origin, feed: feed.name, identityID: feed.identityID)))
    }
    let derived: EthereumAddress
    if let known = cache[signer] {
      derived = known
    } else {
      do {
        switch signer {
        case .publisher(let index):
          derived = try profile.publisher(index: UInt32(index)).address
        case .swarmWallet:
          derived = profile.swarm.address
        case .userWallet(let index):
          if DesktopVaultMeta.isDeviceIndex(index) || wallets[index]?.isDerivable == false {
            return NodeFinding(
              check, .note, path: path, found: feed.owner,
              reason: .desktop(
                .feedSignerDeviceAccount(origin: feed.origin, feed: feed.name, wallet: index)))
          }
          derived = try profile.wallet(index: UInt32(index)).address
        }
      } catch {
        throw .invalid(path: path, reason: "\(error)")
      }
      cache[signer] = derived
    }
    let reason = NodeFinding.Reason.desktop(
      .feedSigner(origin: feed.origin, feed: feed.name, signer: signer))
    guard let owner = feed.owner else {
      return NodeFinding(check, .note, path: path, expected: derived.checksummed, reason: reason)
    }
    let same = (try? EthereumAddress(owner)) == derived
    return NodeFinding(
      check, same ? .match : .mismatch, path: path, expected: derived.checksummed, found: owner,
      reason: reason)
  }

  private func vaultFindings(_ state: State) throws(NodeError) -> [NodeFinding] {
    guard let bytes = state.vault else { return [NodeFinding("vault", .absent, path: vaultPath)] }
    if case .source = vault {
      return [NodeFinding("vault", .match, path: vaultPath, reason: .vaultIsSource)]
    }
    let parsed: DesktopVault
    do {
      parsed = try DesktopVault(json: bytes)
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
      meta = try DesktopVaultMeta(json: bytes)
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
    if meta.userKnowsPassword == false {
      findings.append(
        NodeFinding("vault password", .note, path: path, reason: .desktop(.quickSetupVault)))
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
      // Desktop copies an old radicle-data into an absent R/<slot> at its next start (docs/
      // desktop-user-data.md): that key is the one it will run with.
      let old = Radicle(home: paths.radicleData, enclosing: [enclosing])
      guard radicleHome != paths.radicleData,
        try NodeFileAccess.status(old.privateKeyPath) != nil
      else { return [NodeFinding("radicle", .absent, path: radicleHome)] }
      var findings = try old.verify(try old.inspect(), against: profile, events: events)
      findings.append(
        NodeFinding(
          "radicle home", .note, path: radicleHome,
          reason: .desktop(.radicleDataToBeCopied(from: paths.radicleData))))
      return findings
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
      return try DesktopVaultMeta(json: bytes).recoveryTargets()
    } catch {
      throw .unreadable(path: path, reason: "\(error)")
    }
  }
}

import CryptoPrimitives
import NodeFiles
import Recovery
import VaultKeys

/// antd's data directory (desktop Freedom's `<userData>/ant-data`): `keys/swarm.key` (the Swarm
/// wallet's V3 keystore) and `config.yaml`, whose `password:` (or the file its `password-file:`
/// names) opens it. antd is stricter than bee: it opens only version 3 (a number) with a
/// Keccak-256 MAC (`crates/antd/src/keystore.rs` of solardev-xyz/ant). What belongs to the
/// identity a new key replaces is what desktop removes when it injects one (`wipeStaleBeeState`):
/// antd's self-made `identity.json` and `signing.key`, the stores and bee-era keys. antd ignores
/// `identity.json` while `keys/swarm.key` exists.
package struct Antd: FreedomNode, RecoveryTargetSource {
  package static let keystoreFile = Bee.keystoreFile
  package static let configFile = "config.yaml"
  /// The flock antd holds while it runs.
  package static let lockFile = "antd.lock"
  /// What antd makes itself when it starts without a keystore.
  package static let ownIdentityFile = "identity.json"
  package static let ownSigningKeyFile = "signing.key"
  static let ownIdentity = [ownIdentityFile, ownSigningKeyFile]

  package static let layout = NodeLayout(
    name: "antd data directory", files: [keystoreFile, configFile],
    identityDirectory: Bee.keysDirectory,
    identityState: ownIdentity + [
      "keys/libp2p_v2.key", "keys/pss.key", "statestore", "localstore", "kademlia-metrics",
      "stamperstore",
    ])

  /// antd's kind: `antd-dir`, its keystore opened with the password antd reads.
  package static let kind = NodeDirectoryKind(
    option: "antd-dir", title: "antd", checks: "antd's keystore, opened as antd opens it",
    target: "antd's <dir>/\(keystoreFile) address", holdsSwarmKeystore: true
  ) { directory, _ in Antd(directory: directory) }

  /// Which reader's rule a keystore is held to.
  package enum KeystoreRule: Sendable {
    /// antd's: a number version 3 and a Keccak-256 MAC.
    case antd
    /// bee's: also the string "3" and the SHA3-256 MAC of its older files (a bee-data).
    case bee
  }

  package let directory: String
  /// The name of the finding (`antd`; `ant-data` inside a desktop installation).
  package let check: String
  package let rule: KeystoreRule
  package let enclosingDirectories: [NodeDirectory.Enclosing]

  package init(
    directory: String, check: String = "antd", rule: KeystoreRule = .antd,
    enclosing: [NodeDirectory.Enclosing]? = nil
  ) {
    self.directory = directory
    self.check = check
    self.rule = rule
    self.enclosingDirectories = enclosing ?? DesktopInstallation.enclosing(of: directory)
  }

  package var layout: NodeLayout { Self.layout }
  package var keystorePath: String { NodePath.join(directory, Self.keystoreFile) }
  package var configPath: String { NodePath.join(directory, Self.configFile) }

  // MARK: - State

  /// The password antd opens the keystore with, and where it comes from.
  package struct NodePassword {
    package let password: SecureBytes
    package let source: NodeFinding.AntdPasswordSource
  }

  /// antd's own identity file or signing key.
  package struct OwnKey {
    package let path: String
    /// Its key's address, nil when it cannot be read.
    package let address: EthereumAddress?
  }

  package struct State {
    package let config: AntdConfig?
    /// The password as antd reads it (config.yaml's `password:`, else its `password-file:`).
    package let password: NodePassword?
    package let keystore: StoredFile<Web3Keystore>
    /// antd's own identity.json and signing.key, those that exist.
    package let ownKeys: [OwnKey]
    /// identity.json parsed as Ant's file, for verify (nil when absent).
    package let ownIdentity: StoredFile<AntIdentityFile>
  }

  package func inspect() throws(NodeError) -> State {
    try NodeFileAccess.requireDirectoryOrAbsent(NodePath.join(directory, Bee.keysDirectory))
    let config: AntdConfig?
    do {
      config = try NodeFileAccess.read(configPath).map { bytes throws(AntdConfigError) in
        try AntdConfig(yaml: bytes)
      }
    } catch let error as AntdConfigError {
      throw .invalid(path: configPath, reason: "\(error)")
    } catch let error as NodeError {
      throw error
    } catch {
      throw .invalid(path: configPath, reason: "\(error)")
    }
    let keystore = try NodeFileAccess.stored(keystorePath) {
      try Web3Keystore(json: $0)
    }
    var ownKeys: [OwnKey] = []
    for name in Self.ownIdentity {
      let path = NodePath.join(directory, name)
      guard let bytes = try NodeFileAccess.read(path) else { continue }
      ownKeys.append(OwnKey(path: path, address: Self.ownKeyAddress(bytes, name: name)))
    }
    let ownIdentity = try NodeFileAccess.stored(NodePath.join(directory, Self.ownIdentityFile)) {
      try AntIdentityFile(json: $0)
    }
    return State(
      config: config, password: try Self.password(config), keystore: keystore, ownKeys: ownKeys,
      ownIdentity: ownIdentity)
  }

  /// antd's one password rule, for export and verify alike: `password:`, else the content of
  /// the file `password-file:` names with trailing CR/LF removed; nil when neither is there.
  static func password(_ config: AntdConfig?) throws(NodeError) -> NodePassword? {
    if let stored = config?.password { return NodePassword(password: stored, source: .config) }
    guard let file = config?.passwordFile else { return nil }
    guard let content = try NodeFileAccess.read(file) else {
      throw .missingFile(path: file, needed: .antdPasswordFile)
    }
    return NodePassword(
      password: try password(fromFile: content, path: file), source: .passwordFile(file))
  }

  /// The password in a password file's `content` as antd reads it: trailing CR and LF
  /// removed; an empty one refused, naming the file at `path`.
  package static func password(fromFile content: SecureBytes, path: String) throws(NodeError)
    -> SecureBytes
  {
    let password = AntdConfig.passwordFromFile(content)
    guard password.count > 0 else { throw .invalidInput(.emptyPasswordFile(path)) }
    return password
  }

  /// Refuses a desktop userData (antd's directory is the ant-data inside it), another part of
  /// a desktop installation (its bee-data, identity/, R/<slot>…) and bee's, kubo's or
  /// Radicle's own directory: antd's keys written there would be read by no antd.
  package func requireRightDirectory() throws(NodeError) {
    guard try NodeFileAccess.statusFollowingLinks(directory)?.isDirectory == true else { return }
    if let part = try DesktopDirectory.part(directory) {
      if case .partOfInstallation(.antData, _) = part { return }
      throw .wrongDirectory(path: directory, part, wanted: .antdData)
    }
    try DesktopDirectory.refuseInstallationRoot(directory, wanted: .antdData)
    if let node = try DesktopDirectory.node(directory), node != .swarmNode {
      throw .wrongDirectory(path: directory, .nodeDirectory(node), wanted: .antdData)
    }
  }

  /// What antd would refuse in `keystore` before trying a password
  /// (`crates/antd/src/keystore.rs` of solardev-xyz/ant): serde reads the fields by their
  /// exact names (`crypto` also as `Crypto`; `kdfparams` through `Value::get`, where a missing
  /// `dklen` or `prf` takes its default but a missing `salt`, `n`, `r`, `p` or `c` fails), a
  /// u32 `version`, and RustCrypto's `scrypt::Params::new`, which wants n < 2^(16·r).
  static func refusalBeforeDecrypting(_ keystore: Web3Keystore) -> AntdKeystoreRefusal? {
    var needed = [
      "version", "crypto", "crypto.cipher", "crypto.cipherparams", "crypto.cipherparams.iv",
      "crypto.ciphertext", "crypto.kdf", "crypto.kdfparams", "crypto.mac",
      "crypto.kdfparams.salt",
    ]
    switch keystore.kdf {
    case .scrypt: needed += ["crypto.kdfparams.n", "crypto.kdfparams.r", "crypto.kdfparams.p"]
    case .pbkdf2: needed += ["crypto.kdfparams.c"]
    }
    for field in needed {
      guard let written = keystore.namesWrittenOtherwise[field] else { continue }
      if field == "crypto", written == "Crypto" { continue }
      return .fieldNameCase(field: field, written: printable(written))
    }
    if !keystore.versionIsNumber { return .versionNotANumber }
    if case .scrypt(let n, let r, _) = keystore.kdf,
      UInt64(n.trailingZeroBitCount) >= 16 * UInt64(r)
    {
      return .scryptParameters(n: n, r: r)
    }
    return nil
  }

  /// A name from the file for a one-line message: printable ASCII kept, anything else as
  /// `\u{…}` (a name can hold any character that lowercases to the standard one).
  private static func printable(_ name: String) -> String {
    String(
      name.unicodeScalars.prefix(40).map {
        $0.value >= 0x20 && $0.value < 0x7F
          ? String($0) : "\\u{" + String($0.value, radix: 16) + "}"
      }.joined())
  }

  // MARK: - Export

  package struct ExportInputs {
    package let profile: FreedomProfile
    /// The password given (`--password-file`), used when config.yaml has none.
    package let password: SecureBytes?

    package init(profile: FreedomProfile, password: SecureBytes?) {
      self.profile = profile
      self.password = password
    }
  }

  /// What happens to the keystore.
  package enum KeystoreAction: Sendable, Equatable {
    /// Holds the mnemonic's key and the password opens it, as antd reads it.
    case keep
    /// Written where none was.
    case write
    /// The mnemonic's key, rewritten: the password did not open it, or antd would refuse it.
    case rewrite(AntdKeystoreRefusal?)
    /// Another identity's key (or an unreadable file), replaced with consent.
    case replace(NodeConflict.Found)
  }

  /// Where the password comes from.
  package enum PasswordAction: Sendable, Equatable {
    case keptFromConfig
    case keptFromPasswordFile(String)
    /// A new random one written into config.yaml.
    case wroteRandom
    /// The one given, written into config.yaml.
    case wroteGiven
  }

  package struct Plan: NodePlan {
    package let actions: [PlannedAction]
    package let change: NodeChange?
    package let expected: EthereumAddress
    package let keystore: KeystoreAction
    package let password: PasswordAction
    package let keystorePath: String
    package let configPath: String
    /// The conflicts consent covered (replaced), for a report.
    package let replacedConflicts: [NodeConflict]
  }

  package func plan(
    _ state: State, _ inputs: ExportInputs, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan {
    let (plan, conflicts) = try planCollectingConflicts(state, inputs, events: events)
    return try consent.approve(plan, conflicts: conflicts)
  }

  /// The plan, and every conflict it would need consent for (the caller decides).
  func planCollectingConflicts(
    _ state: State, _ inputs: ExportInputs, events: (NodeEvent) -> Void
  ) throws(NodeError) -> (Plan, [NodeConflict]) {
    try requireStopped()
    let expected = inputs.profile.swarm.address
    var conflicts: [NodeConflict] = []

    // 1. The password antd will use, and whether config.yaml must change to hold it.
    let password: SecureBytes
    let passwordAction: PasswordAction
    var newConfig: SecureBytes?
    if let stored = state.password {
      if let given = inputs.password, given != stored.password {
        switch stored.source {
        case .config: throw .passwordConflict(.antdConfigPassword(config: configPath))
        case .passwordFile(let file):
          throw .passwordConflict(.antdPasswordFile(config: configPath, file: file))
        }
      }
      password = stored.password
      switch stored.source {
      case .config: passwordAction = .keptFromConfig
      case .passwordFile(let file): passwordAction = .keptFromPasswordFile(file)
      }
    } else {
      password = inputs.password ?? AntdConfig.generatePassword()
      do {
        newConfig =
          try state.config?.settingPassword(password) ?? AntdConfig.fresh(password: password)
      } catch {
        throw .invalid(path: configPath, reason: "\(error)")
      }
      passwordAction = inputs.password == nil ? .wroteRandom : .wroteGiven
    }
    if let dataDir = state.config?.dataDir, Self.realPath(dataDir) != Self.realPath(directory) {
      events(.antdDataDirElsewhere(config: configPath, dataDir: dataDir, directory: directory))
    }

    // 2. The keystore: the mnemonic's, opened by the password as antd opens it, or written.
    var keystoreAction = KeystoreAction.write
    var replacing = false
    switch state.keystore {
    case .absent:
      break
    case .present(let keystore) where keystore.address == expected:
      keystoreAction = .rewrite(nil)
      if newConfig == nil, let opened = try? keystore.decryptReportingMAC(password: password),
        opened.key.rawRepresentation == inputs.profile.swarm.privateKey.rawRepresentation
      {
        let refusal =
          Self.refusalBeforeDecrypting(keystore) ?? (opened.mac == .sha3 ? .sha3MAC : nil)
        keystoreAction = refusal.map { .rewrite($0) } ?? .keep
      }
    case .present(let keystore):
      let found: NodeConflict.Found =
        keystore.address.map { .key($0.checksummed) } ?? .keyWithoutAddress
      conflicts.append(
        NodeConflict(path: keystorePath, found: found, expected: expected.checksummed))
      keystoreAction = .replace(found)
      replacing = true
    case .unreadable(let problem):
      conflicts.append(
        NodeConflict(path: keystorePath, found: .from(problem), expected: expected.checksummed))
      keystoreAction = .replace(.from(problem))
      replacing = true
    }

    // 3. antd's self-made identity: removed, as desktop does; another key's only with consent.
    var removing: [String] = []
    for own in state.ownKeys {
      if own.address != expected {
        conflicts.append(
          NodeConflict(
            path: own.path, found: .antdOwnIdentity(own.address?.checksummed),
            expected: expected.checksummed))
      }
      removing.append(String(own.path.dropFirst(NodePath.join(directory, "").count)))
    }
    if replacing { removing = Self.layout.identityState }

    var actions: [PlannedAction] = []
    var change: NodeChange?
    if keystoreAction != .keep || newConfig != nil || !removing.isEmpty {
      var files: [NodeChange.File] = []
      if let newConfig {
        files.append(.init(Self.configFile, newConfig))
        actions.append(
          PlannedAction(configPath, state.config == nil ? .create : .replace(before: nil)))
      }
      if keystoreAction != .keep {
        let keyFile: [UInt8]
        do {
          keyFile = try Web3Keystore.encrypt(
            privateKey: inputs.profile.swarm.privateKey, password: password)
        } catch {
          throw .invalid(path: keystorePath, reason: "\(error)")
        }
        files.append(.init(Self.keystoreFile, SecureBytes(keyFile)))
        let before: String? =
          if case .replace(.key(let key)) = keystoreAction { key } else { nil }
        actions.append(
          PlannedAction(
            keystorePath, state.keystore.isPresent ? .replace(before: before) : .create,
            after: expected.checksummed))
      } else {
        actions.append(PlannedAction(keystorePath, .keep, after: expected.checksummed))
      }
      actions += removing.map { PlannedAction(NodePath.join(directory, $0), .moveAside) }
      change = NodeChange(files: files, removing: removing)
    } else {
      if let event = NodeFileAccess.sharedSecret(keystorePath) { events(event) }
      actions.append(PlannedAction(keystorePath, .keep, after: expected.checksummed))
    }
    let plan = Plan(
      actions: actions, change: change, expected: expected, keystore: keystoreAction,
      password: passwordAction, keystorePath: keystorePath, configPath: configPath,
      replacedConflicts: conflicts)
    return (plan, conflicts)
  }

  /// Refuses while antd runs on the directory: it holds an exclusive flock on `antd.lock`
  /// (probed without blocking, so a FIFO planted under that name cannot hang the export).
  func requireStopped() throws(NodeError) {
    let path = NodePath.join(directory, Self.lockFile)
    switch try NodeSession.engine({ () throws(NodeFileError) in
      try DaemonLock.probe(directory: directory, name: Self.lockFile)
    }) {
    case .free: return
    case .held: throw .running(.antd, directory: directory, lock: path)
    case .unexpectedFile(let kind):
      throw .files(NodeFileError(.unexpectedFile, "\(path) is \(kind), not antd's lock file"))
    }
  }

  // MARK: - Verify

  /// The keystore opened with antd's password (its address field only when there is none),
  /// held to `rule`; then antd's own identity.json, which antd uses only without a keystore.
  package func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    let keystore = try keystoreFinding(state, profile, events: events)
    var findings = [keystore]
    guard let file = try ownIdentityFile(state) else { return findings }
    let found = EthereumAddress(publicKey: file.identity.signingKey.publicKey)
    let path = NodePath.join(directory, Self.ownIdentityFile)
    let name = "\(check) \(Self.ownIdentityFile)"
    if keystore.status != .absent {
      findings.append(
        NodeFinding(
          name, .note, path: path, found: found.checksummed,
          reason: .antdOwnIdentityIgnored(found.checksummed)))
    } else {
      let same = found == profile.swarm.address && file.problems.isEmpty
      findings.append(
        NodeFinding(
          name, same ? .match : .mismatch, path: path,
          expected: profile.swarm.address.checksummed, found: found.checksummed,
          reason: .antdOwnIdentityUsed(found.checksummed), problems: Self.problems(file)))
    }
    return findings
  }

  /// The problems of antd's own identity.json, its overlay nonce named as Ant's rows name it
  /// (the zero nonce iOS writes, the nonce Ant's library derives from the key, or neither).
  static func problems(_ file: AntIdentityFile) -> [String] {
    let overlay = file.identity.overlay().hex
    var problems = file.problems.compactMap { problem -> String? in
      if case .nonZeroNonce = problem { return nil }
      return problem.description
    }
    switch file.nonceOrigin {
    case .zero: break
    case .derivedFromKey:
      problems.append(
        "its overlay nonce is the nonce Ant's library derives from the key (overlay \(overlay)), "
          + "restored from the key as Ant's library does")
    case .other:
      problems.append(
        "its overlay nonce is neither the zero nonce iOS writes nor the nonce Ant's library "
          + "derives from the key: overlay \(overlay), not the zero-nonce one")
    }
    return problems
  }

  private func ownIdentityFile(_ state: State) throws(NodeError) -> AntIdentityFile? {
    switch state.ownIdentity {
    case .absent: return nil
    case .present(let file): return file
    case .unreadable(let problem): throw .invalid(path: problem.path, reason: problem.reason)
    }
  }

  private func keystoreFinding(
    _ state: State, _ profile: FreedomProfile, events: (NodeEvent) -> Void
  ) throws(NodeError) -> NodeFinding {
    let expected = profile.swarm.address
    guard let keystore = try NodeFileAccess.understood(state.keystore) else {
      return NodeFinding(check, .absent, path: keystorePath, expected: expected.checksummed)
    }
    if rule == .antd, let refusal = Self.refusalBeforeDecrypting(keystore) {
      return NodeFinding(
        check, .mismatch, path: keystorePath, expected: expected.checksummed,
        found: keystore.address?.checksummed, reason: .antdRefusesKeystore(refusal))
    }
    guard let password = state.password else {
      let found = keystore.address
      return NodeFinding(
        check, found == expected ? .match : .mismatch, path: keystorePath,
        expected: expected.checksummed, found: found?.checksummed, authenticated: false,
        reason: state.config == nil
          ? .addressFieldOnlyNoNodeConfig : .addressFieldOnlyNoNodePassword)
    }
    events(.keyDerivation(encrypting: false, path: keystorePath, kdf: keystore.kdf))
    let opened: (key: Secp256k1.PrivateKey, mac: Web3Keystore.MACAlgorithm)
    do {
      opened = try keystore.decryptReportingMAC(password: password.password)
    } catch .wrongPassword {
      return NodeFinding(
        check, .mismatch, path: keystorePath, expected: expected.checksummed,
        found: keystore.address?.checksummed, authenticated: true,
        reason: .nodePasswordDoesNotOpen(password.source))
    } catch {
      throw .invalid(path: keystorePath, reason: "\(error)")
    }
    let found = EthereumAddress(publicKey: opened.key.publicKey)
    if rule == .antd, opened.mac == .sha3 {
      return NodeFinding(
        check, .mismatch, path: keystorePath, expected: expected.checksummed,
        found: found.checksummed, authenticated: true, reason: .antdRefusesKeystore(.sha3MAC))
    }
    return NodeFinding(
      check, found == expected ? .match : .mismatch, path: keystorePath,
      expected: expected.checksummed, found: found.checksummed, authenticated: true,
      reason: .decryptedWithNodePassword(password.source))
  }

  // MARK: - Recover

  /// The keystore's address, as the Swarm wallet (read as bee's is).
  package func recoveryTargets(_ state: State) throws(NodeError) -> [RecoveryTarget] {
    try Bee.swarmTarget(state.keystore, path: keystorePath)
  }

  // MARK: - Helpers

  /// The address of antd's self-made `identity.json` or `signing.key` (64 hex digits), or nil
  /// when it cannot be read.
  static func ownKeyAddress(_ bytes: SecureBytes, name: String) -> EthereumAddress? {
    if name == ownIdentityFile {
      guard let file = try? AntIdentity(json: bytes) else { return nil }
      return EthereumAddress(publicKey: file.signingKey.publicKey)
    }
    let key = bytes.withUnsafeBytes { raw -> SecureBytes? in
      let digits = raw.prefix { $0 != 0x0A && $0 != 0x0D }
      guard digits.count == 64, let decoded = Hex.decode(String(decoding: digits, as: UTF8.self))
      else { return nil }
      return SecureBytes(decoded)
    }
    guard let key, let parsed = try? Secp256k1.PrivateKey(rawRepresentation: key) else {
      return nil
    }
    return EthereumAddress(publicKey: parsed.publicKey)
  }

  static func realPath(_ path: String) -> String { NodePath.resolved(path) ?? path }
}

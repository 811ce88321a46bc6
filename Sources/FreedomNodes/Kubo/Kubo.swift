import CryptoPrimitives
import NodeFiles
import Recovery
import VaultKeys

/// A kubo repository (`IPFS_PATH`): `config` holds Identity.PeerID and Identity.PrivKey (only
/// those are edited; every other byte and the mode stay); `repo.lock` is the daemon's lock. The
/// repository must exist: `ipfs init` makes it, not freedom-keys.
package struct Kubo: FreedomNode, RecoveryTargetSource {
  package static let configFile = "config"

  package static let layout = NodeLayout(
    name: "kubo repository", files: [configFile], identityDirectory: nil, identityState: [])

  /// kubo's kind: `kubo-repo`.
  package static let kind = NodeDirectoryKind(
    option: "kubo-repo", title: "kubo", checks: "Identity in kubo's <dir>/\(configFile)",
    target: "kubo's <dir>/\(configFile) PeerID"
  ) { directory, _ in Kubo(repository: directory) }

  package let directory: String

  package init(repository: String) { directory = repository }

  package var layout: NodeLayout { Self.layout }
  package var createsDirectory: Bool { false }
  package var configPath: String { NodePath.join(directory, Self.configFile) }

  package struct State {
    /// What `lstat` says about `config`.
    package let status: FileStatus?
    /// Its bytes (nil when there is no regular file).
    package let bytes: SecureBytes?
    /// The config parsed, or why it cannot be.
    package let config: StoredFile<KuboConfig>
  }

  package func inspect() throws(NodeError) -> State {
    let status = try NodeFileAccess.status(configPath)
    guard status?.isRegularFile == true, let bytes = try NodeFileAccess.read(configPath) else {
      return State(status: status, bytes: nil, config: .absent)
    }
    let config: StoredFile<KuboConfig>
    do {
      config = .present(try KuboConfig(json: bytes))
    } catch {
      config = .unreadable(UnreadableNodeFile(path: configPath, reason: "\(error)"))
    }
    return State(status: status, bytes: bytes, config: config)
  }

  // MARK: - Export

  package struct Plan: NodePlan {
    package let actions: [PlannedAction]
    package let change: NodeChange?
    package let expected: String
    /// The PeerID replaced ("" when the config had a key without one), nil when there was none.
    package let replacedPeerID: String?
    /// The config's mode, kept.
    package let mode: UInt32
    /// What to tell the user once the config is written (it is readable by others).
    package let afterWriting: [NodeEvent]
    /// The bytes the plan was made from: the config must still hold them when it is written.
    let basis: SecureBytes?
  }

  package func plan(
    _ state: State, _ profile: FreedomProfile, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan {
    let identity = profile.ipfs
    let expected = identity.peerID.base58
    guard let status = state.status else {
      throw .missingFile(path: configPath, needed: .kuboConfig(repository: directory))
    }
    guard status.isRegularFile, let bytes = state.bytes else {
      throw .notARegularFile(path: configPath, symbolicLink: status.isSymbolicLink)
    }
    let config: KuboConfig
    switch state.config {
    case .present(let value): config = value
    case .unreadable(let problem): throw .invalid(path: configPath, reason: problem.reason)
    case .absent: throw .changedWhileChecked(path: configPath)
    }

    let expectedPrivKey = identity.privKeyBase64
    let storedPeerID = config.peerID ?? ""
    let storedPrivKey = config.privateKey ?? SecureBytes(count: 0) { _ in }
    if storedPeerID == expected, storedPrivKey == expectedPrivKey {
      return Plan(
        actions: [PlannedAction(configPath, .keep, after: expected)], change: nil,
        expected: expected, replacedPeerID: nil, mode: status.permissions, afterWriting: [],
        basis: nil)
    }
    let hasIdentity = !storedPeerID.isEmpty || storedPrivKey.count > 0
    if hasIdentity, !consent.replacesOtherIdentities {
      let found: NodeConflict.Found =
        storedPeerID.isEmpty
        ? .privateKeyWithoutPeerID
        : storedPeerID == expected ? .peerIDWithOtherKey(storedPeerID) : .peerID(storedPeerID)
      throw .refused([NodeConflict(path: configPath, found: found, expected: expected)])
    }
    let updated: SecureBytes
    do {
      updated = try config.settingIdentity(peerID: expected, privateKey: expectedPrivKey)
    } catch {
      throw .invalid(path: configPath, reason: "\(error)")
    }
    // A config edited by root for another user stays that user's.
    let owner = (status.owner != 0 || status.group != 0) ? (status.owner, status.group) : nil
    return Plan(
      actions: [
        PlannedAction(
          configPath, .replace(before: storedPeerID.isEmpty ? nil : storedPeerID), after: expected)
      ],
      change: NodeChange(files: [
        .init(Self.configFile, SecureBytes(updated), mode: status.permissions, owner: owner)
      ]),
      expected: expected, replacedPeerID: hasIdentity ? storedPeerID : nil,
      mode: status.permissions,
      afterWriting: NodeFileAccess.sharedSecret(configPath).map { [$0] } ?? [], basis: bytes)
  }

  /// Writes under kubo's own repository lock, held until the new config is in place so a daemon
  /// cannot start in between; a config changed since it was read is not overwritten.
  package func apply(_ plan: Plan, in node: NodeDirectory) throws(NodeError) -> NodeChangeResult? {
    guard let change = plan.change else { return nil }
    let lock = try repositoryLock()
    guard let current = try NodeFileAccess.read(configPath), current == plan.basis else {
      throw .changedWhileChecked(path: configPath)
    }
    let result = try NodeSession.apply(change, in: node)
    withExtendedLifetime(lock) {}
    return result
  }

  /// As the default, and a running daemon refuses as the export's `apply` would.
  package func requireApplicable(_ plan: Plan, in node: NodeDirectory?) throws(NodeError) {
    try NodeSession.requireApplicable(plan.change, in: node, creating: directory)
    guard plan.change != nil else { return }
    withExtendedLifetime(try repositoryLock()) {}
  }

  /// kubo's own repository lock (a running `ipfs daemon` holds an fcntl write lock on
  /// `repo.lock`), kept while the config is replaced so that no daemon starts meanwhile; nil
  /// when no daemon ever ran there; or the refusal naming the daemon that holds it. Taken inside
  /// the directory's own lock, so the holder is never another of our runs.
  func repositoryLock() throws(NodeError) -> DaemonLock.Taken? {
    let path = NodePath.join(directory, Self.repositoryLockFile)
    switch try NodeSession.engine({ () throws(NodeFileError) in try DaemonLock.take(path: path) }) {
    case .noFile: return nil
    case .taken(let lock): return lock
    case .heldBy(let process):
      throw .running(.kuboDaemon(process: process), directory: directory, lock: path)
    }
  }

  /// The file of kubo's repository lock.
  static let repositoryLockFile = "repo.lock"

  // MARK: - Verify

  /// One finding "kubo": `Identity.PeerID` and `Identity.PrivKey` of `config`.
  package func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    let expected = profile.ipfs.peerID.base58
    if let status = state.status, !status.isRegularFile {
      throw .unreadable(path: configPath, reason: "it is not a regular file")
    }
    guard let config = try NodeFileAccess.understood(state.config),
      config.peerID != nil || config.privateKey != nil
    else { return [NodeFinding("kubo", .absent, path: configPath, expected: expected)] }
    let storedKey = config.privateKey.flatMap { try? Libp2pPrivateKey.decode(base64: $0) }
    let keyMatches = storedKey?.rawRepresentation == profile.ipfs.privateKey.rawRepresentation
    let peerID = config.peerID ?? "no PeerID"
    var reason: NodeFinding.Reason?
    switch storedKey {
    case nil where config.privateKey == nil: reason = .kuboKey(.noPrivateKey)
    case nil: reason = .kuboKey(.unreadablePrivateKey)
    case let key? where !keyMatches && config.peerID == expected:
      reason = .kuboKey(.otherPrivateKey(Libp2pPeerID(publicKey: key.publicKey).base58))
    default: break
    }
    return [
      NodeFinding(
        "kubo", keyMatches && config.peerID == expected ? .match : .mismatch, path: configPath,
        expected: expected, found: peerID, reason: reason)
    ]
  }

  // MARK: - Recover

  /// The config's Identity.PeerID.
  package func recoveryTargets(_ state: State) throws(NodeError) -> [RecoveryTarget] {
    switch state.config {
    case .absent: throw .missingFile(path: configPath, needed: .recoveryTarget)
    case .unreadable(let problem): throw .unreadable(path: problem.path, reason: problem.reason)
    case .present(let config):
      guard let text = config.peerID else { throw .kuboWithoutPeerID(path: configPath) }
      do {
        return [.peerID(try Libp2pPeerID(text))]
      } catch {
        throw .unreadable(path: configPath, reason: "\(error)")
      }
    }
  }

  // MARK: - A key file for `ipfs key import`

  /// What `exportKeyFile` did: the action it took, a keep when the file held the key already.
  package struct KeyFileExport: Sendable {
    package let action: PlannedAction
    /// The key's PeerID.
    package let peerID: String
    /// Whether the file was written.
    package var wrote: Bool { action.kind != .keep }

    /// The result as one JSON object: the action taken, the file written, nothing kept aside
    /// (the file the user named is the whole change); `command` is the export's name.
    package func json(command: String) -> JSONObject {
      var object = ExportSummary(target: action.path, actions: [action], changes: wrote)
        .json(command: command, dryRun: false)
      object.append("written", .array(wrote ? [.string(action.path)] : []))
      object.append("keptAside", .array([]))
      return object
    }

    /// What was done, and how to import the key.
    package var report: String {
      let path = action.path
      guard wrote else {
        return NodeChangeResult.KeptAside.unchanged(path, "the IPFS key of \(peerID)")
      }
      return "Wrote \(path): the libp2p private key of \(peerID) (mode 0600)\n"
        + "Import it with: ipfs key import NAME \(path)   (NAME must not be 'self')\n"
        + "Then delete \(path): it holds the private key unencrypted.\n"
    }
  }

  /// What `exportKeyFile` would do at `path`: create it, replace another key (only with
  /// consent; `before` its PeerID when it could be read) or keep it; throws the refusal.
  package static func planKeyFile(
    _ path: String, identity: Ed25519Identity, consent: ExportConsent
  ) throws(NodeError) -> PlannedAction {
    let expected = identity.peerID.base58
    let existing = try NodeFileAccess.stored(path) { try Libp2pPrivateKey.decode(protobuf: $0) }
    switch existing {
    case .absent:
      return PlannedAction(path, .create, after: expected)
    case .present(let key) where key.rawRepresentation == identity.privateKey.rawRepresentation:
      return PlannedAction(path, .keep, after: expected)
    case .present(let key):
      let found = Libp2pPeerID(publicKey: key.publicKey).base58
      guard consent.replacesOtherIdentities else {
        throw .refused([NodeConflict(path: path, found: .key(found), expected: expected)])
      }
      return PlannedAction(path, .replace(before: found), after: expected)
    case .unreadable(let problem):
      guard consent.replacesOtherIdentities else {
        throw .refused([NodeConflict(path: path, found: .from(problem), expected: expected)])
      }
      return PlannedAction(path, .replace(before: nil), after: expected)
    }
  }

  /// What `exportKeyFile` would do, found without writing: the plan, or what the export would
  /// throw before writing (the refusal, a missing directory, one this user may not write in).
  package static func dryRunKeyFile(
    _ path: String, identity: Ed25519Identity, consent: ExportConsent
  ) throws(NodeError) -> ExportSummary {
    let action = try planKeyFile(path, identity: identity, consent: consent)
    if action.kind != .keep {
      do {
        try SecureFileWriter.requireWritable(path)
      } catch {
        throw .files(NodeFileError(.io, error.description))
      }
    }
    return ExportSummary(target: path, actions: [action], changes: action.kind != .keep)
  }

  /// Writes the libp2p private key protobuf of `identity` to `path` (0600), for
  /// `ipfs key import`; another key there is replaced only with consent.
  package static func exportKeyFile(
    _ path: String, identity: Ed25519Identity, consent: ExportConsent
  ) throws(NodeError) -> KeyFileExport {
    let action = try planKeyFile(path, identity: identity, consent: consent)
    if action.kind == .keep { return KeyFileExport(action: action, peerID: identity.peerID.base58) }
    do {
      try SecureFileWriter.write(
        Libp2pPrivateKey.protobuf(identity.privateKey), to: path, mode: 0o600,
        replace: action.kind == .create ? .refuseExisting : .replace)
    } catch {
      throw .files(NodeFileError(.io, error.description))
    }
    return KeyFileExport(action: action, peerID: identity.peerID.base58)
  }
}

extension Kubo {
  /// What an export into the repository wrote, and how to start the node.
  package func report(_ outcome: ExportOutcome<Plan>) -> String {
    let (kubo, repository) = (self, directory)
    let plan = outcome.plan
    guard plan.change != nil else {
      return NodeChangeResult.KeptAside.unchanged(
        kubo.configPath, "the IPFS identity \(plan.expected)")
    }
    var text = "Wrote \(kubo.configPath): Identity.PeerID \(plan.expected) and its PrivKey"
    text += " (mode \(Self.octal(plan.mode)))\n"
    if let replaced = plan.replacedPeerID {
      text += "Replaced PeerID \(replaced.isEmpty ? "(none)" : replaced)\n"
    }
    text += NodeChangeResult.KeptAside.lines(outcome.keptAside)
    text += "Start the node with: IPFS_PATH=\(repository) ipfs daemon\n"
    return text
  }

  /// A file mode as four octal digits (0600).
  static func octal(_ mode: UInt32) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

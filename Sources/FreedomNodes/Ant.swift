import CryptoPrimitives
import NodeFiles
import PhraseRecovery
import VaultKeys

/// Ant's data directory: `identity.json` with the Swarm signing key (hex) and an overlay nonce,
/// byte for byte as Freedom's iOS app writes it (all-zero nonce).
public struct Ant: FreedomNode, RecoveryTargetSource {
  public static let identityFile = "identity.json"

  public static let layout = NodeLayout(
    name: "Ant data directory", files: [identityFile], identityDirectory: nil, identityState: [])

  public let directory: String

  public init(directory: String) { self.directory = directory }

  public var layout: NodeLayout { Self.layout }
  public var identityPath: String { NodePath.join(directory, Self.identityFile) }

  public struct State {
    /// The file as Ant reads it, with what Ant would refuse or run differently.
    public let file: StoredFile<AntIdentityFile>
  }

  public func inspect() throws(NodeError) -> State {
    State(file: try NodeFileAccess.stored(identityPath) { try AntIdentityFile(json: $0) })
  }

  // MARK: - Export

  public struct Plan: NodePlan {
    public let actions: [PlannedAction]
    public let change: NodeChange?
    public let expected: EthereumAddress
    /// What was wrong with a file of the same key, now rewritten.
    public let repairs: [AntIdentityProblem]
  }

  public func plan(
    _ state: State, _ profile: FreedomProfile, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan {
    let expected = profile.swarm.address
    let identity: AntIdentity
    do {
      identity = try AntIdentity(signingKey: profile.swarm.privateKey)
    } catch {
      throw .invalid(path: identityPath, reason: "\(error)")
    }
    var repairs: [AntIdentityProblem] = []
    var before: String?
    switch state.file {
    case .absent:
      break
    case .present(let stored)
    where stored.identity.signingKey.rawRepresentation == identity.signingKey.rawRepresentation:
      // The same key: nothing to do unless Ant would refuse the file (rewritten at once: the
      // identity stays) or run it with another overlay or PeerID (only with consent).
      let changes = stored.problems.filter { !$0.antRefusesIt }
      if !changes.isEmpty, !consent.replacesOtherIdentities {
        throw .refused([
          NodeConflict(
            path: identityPath, found: .sameKeyRunDifferently(changes.map(\.description)),
            expected: expected.checksummed)
        ])
      }
      repairs = stored.problems
      if repairs.isEmpty {
        if let event = NodeFileAccess.sharedSecret(identityPath) { events(event) }
        return Plan(
          actions: [PlannedAction(identityPath, .keep, after: expected.checksummed)], change: nil,
          expected: expected, repairs: [])
      }
      before = expected.checksummed
    case .present(let stored):
      let found = EthereumAddress(publicKey: stored.identity.signingKey.publicKey).checksummed
      guard consent.replacesOtherIdentities else {
        throw .refused([
          NodeConflict(path: identityPath, found: .key(found), expected: expected.checksummed)
        ])
      }
      before = found
    case .unreadable(let problem):
      guard consent.replacesOtherIdentities else {
        throw .refused([
          NodeConflict(path: identityPath, found: .from(problem), expected: expected.checksummed)
        ])
      }
    }
    return Plan(
      actions: [
        PlannedAction(
          identityPath, state.file.isPresent ? .replace(before: before) : .create,
          after: expected.checksummed)
      ],
      change: NodeChange(files: [.init(Self.identityFile, SecureBytes(identity.json))]),
      expected: expected, repairs: repairs)
  }

  // MARK: - Verify

  /// One finding "ant": `signing_key`, and whatever would make Ant refuse the file or run with
  /// another overlay or PeerID than the mnemonic's.
  public func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    let expected = profile.swarm.address.checksummed
    guard let file = try NodeFileAccess.understood(state.file) else {
      return [NodeFinding("ant", .absent, path: identityPath, expected: expected)]
    }
    let found = EthereumAddress(publicKey: file.identity.signingKey.publicKey).checksummed
    let sameKey =
      file.identity.signingKey.rawRepresentation == profile.swarm.privateKey.rawRepresentation
    return [
      NodeFinding(
        "ant", sameKey && file.problems.isEmpty ? .match : .mismatch, path: identityPath,
        expected: expected, found: found, problems: file.problems.map(\.description))
    ]
  }

  // MARK: - Recover

  /// The signing key's address, as the Swarm wallet.
  package func recoveryTargets(_ state: State) throws(NodeError) -> [RecoveryTarget] {
    guard let bytes = try NodeFileAccess.read(identityPath) else {
      throw .missingFile(path: identityPath, needed: .recoveryTarget)
    }
    do {
      let identity = try AntIdentity(json: bytes)
      return [.address(EthereumAddress(publicKey: identity.signingKey.publicKey), of: .swarm)]
    } catch {
      throw .unreadable(path: identityPath, reason: "\(error)")
    }
  }
}

import CryptoPrimitives
import NodeFiles
import Recovery
import VaultKeys

/// Ant's data directory: `identity.json` with the Swarm signing key (hex) and an overlay nonce,
/// byte for byte as Freedom's iOS app writes it (all-zero nonce), or with the nonce Ant's
/// library derives when it restores an identity from the key.
package struct Ant: FreedomNode, RecoveryTargetSource {
  package static let identityFile = "identity.json"

  package static let layout = NodeLayout(
    name: "Ant data directory", files: [identityFile], identityDirectory: nil, identityState: [])

  /// Ant's kind: `ant-dir`.
  package static let kind = NodeDirectoryKind(
    option: "ant-dir", title: "Ant", checks: "Ant's <dir>/\(identityFile)",
    target: "Ant's <dir>/\(identityFile)"
  ) { directory, _ in Ant(directory: directory) }

  package let directory: String
  /// The overlay nonce an export writes (verify accepts either rule's).
  package let nonce: AntIdentity.NonceRule

  package init(directory: String, nonce: AntIdentity.NonceRule = .zero) {
    self.directory = directory
    self.nonce = nonce
  }

  package var layout: NodeLayout { Self.layout }
  package var identityPath: String { NodePath.join(directory, Self.identityFile) }

  package struct State {
    /// The file as Ant reads it, with what Ant would refuse or run differently.
    package let file: StoredFile<AntIdentityFile>
  }

  package func inspect() throws(NodeError) -> State {
    State(file: try NodeFileAccess.stored(identityPath) { try AntIdentityFile(json: $0) })
  }

  // MARK: - Export

  package struct Plan: NodePlan {
    package let actions: [PlannedAction]
    package let change: NodeChange?
    package let expected: EthereumAddress
    /// What was wrong with a file of the same key, now rewritten.
    package let repairs: [AntIdentityProblem]
    /// The nonce rule of the file written (or kept).
    package let nonce: AntIdentity.NonceRule
    /// The overlay the file gives on mainnet.
    package let overlay: SwarmOverlay
  }

  package func plan(
    _ state: State, _ profile: FreedomProfile, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan {
    let expected = profile.swarm.address
    let identity = AntIdentity(signingKey: profile.swarm.privateKey, nonce: nonce)
    let overlay = identity.overlay()
    var repairs: [AntIdentityProblem] = []
    var before: String?
    switch state.file {
    case .absent:
      break
    case .present(let stored)
    where stored.identity.signingKey.rawRepresentation == identity.signingKey.rawRepresentation:
      // The same key: nothing to do unless Ant would refuse the file (rewritten at once: the
      // identity stays) or run it with another overlay or PeerID (only with consent) — the
      // other nonce rule's file among them.
      var changes = stored.problems.filter { !$0.antRefusesIt }.map(\.description)
      if let other = Self.otherRule(stored.nonceOrigin, than: nonce) {
        changes.insert(
          Self.ruleChange(from: other, stored.identity.overlay(), to: nonce, overlay), at: 0)
      }
      if !changes.isEmpty, !consent.replacesOtherIdentities {
        throw .refused([
          NodeConflict(
            path: identityPath, found: .sameKeyRunDifferently(changes),
            expected: expected.checksummed)
        ])
      }
      repairs = stored.problems
      if changes.isEmpty, repairs.isEmpty {
        if let event = NodeFileAccess.sharedSecret(identityPath) { events(event) }
        return Plan(
          actions: [PlannedAction(identityPath, .keep, after: expected.checksummed)], change: nil,
          expected: expected, repairs: [], nonce: nonce, overlay: overlay)
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
      expected: expected, repairs: repairs, nonce: nonce, overlay: overlay)
  }

  /// The rule a zero or derived nonce follows when it is not `rule` (nil for `rule`'s own nonce
  /// and for any other nonce, which `AntIdentityProblem.nonZeroNonce` reports).
  private static func otherRule(_ origin: AntIdentity.NonceOrigin, than rule: AntIdentity.NonceRule)
    -> AntIdentity.NonceRule?
  {
    switch (origin, rule) {
    case (.zero, .derivedFromKey): .zero
    case (.derivedFromKey, .zero): .derivedFromKey
    default: nil
    }
  }

  /// Why a file of the other nonce rule is not left alone: its overlay differs.
  private static func ruleChange(
    from found: AntIdentity.NonceRule, _ foundOverlay: SwarmOverlay,
    to wanted: AntIdentity.NonceRule, _ wantedOverlay: SwarmOverlay
  ) -> String {
    func name(_ rule: AntIdentity.NonceRule) -> String {
      switch rule {
      case .zero: "the zero nonce iOS writes"
      case .derivedFromKey: "the nonce Ant's library derives from the key"
      }
    }
    return "its overlay nonce is \(name(found)) (overlay \(foundOverlay.hex)), not "
      + "\(name(wanted)) (overlay \(wantedOverlay.hex))"
  }

  // MARK: - Verify

  /// One finding "ant": `signing_key`, and whatever would make Ant refuse the file or run with
  /// another overlay or PeerID than the mnemonic's. Either rule's nonce matches (`self.nonce`
  /// is the export's); the reason says which the file has, the overlay it gives and which of
  /// Ant's readers accept it.
  package func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    let expected = profile.swarm.address.checksummed
    guard let file = try NodeFileAccess.understood(state.file) else {
      return [NodeFinding("ant", .absent, path: identityPath, expected: expected)]
    }
    let found = EthereumAddress(publicKey: file.identity.signingKey.publicKey).checksummed
    let sameKey =
      file.identity.signingKey.rawRepresentation == profile.swarm.privateKey.rawRepresentation
    // A file restored from the key as Ant's library does (`isRestoredFromKeyAsAntLibraryDoes`)
    // has no problems, so with the mnemonic's key it matches.
    let reason = NodeFinding.Reason.antIdentity(
      nonce: file.nonceOrigin, overlay: file.identity.overlay().hex,
      acceptedBy: AntIdentityReader.allCases.filter { file.isAccepted(by: $0) })
    return [
      NodeFinding(
        "ant", sameKey && file.problems.isEmpty ? .match : .mismatch, path: identityPath,
        expected: expected, found: found, reason: reason,
        problems: file.problems.map(\.description))
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

extension Ant {
  /// What an export's JSON adds: the nonce rule written and the overlay it gives.
  package func json(_ outcome: ExportOutcome<Plan>) -> JSONObject {
    [
      "nonce": .string(nonce == .zero ? "zero" : "derivedFromKey"),
      "overlay": .string(outcome.plan.overlay.hex),
    ]
  }

  /// What an export wrote, with the overlay its nonce gives.
  package func report(_ outcome: ExportOutcome<Plan>, profile: FreedomProfile) -> String {
    let (ant, nonceRule) = (self, nonce)
    let expected = profile.swarm.address.checksummed
    let rule =
      switch nonceRule {
      case .zero: "overlay nonce 0"
      case .derivedFromKey: "the overlay nonce Ant's library derives from the key"
      }
    guard outcome.plan.change != nil else {
      let what =
        nonceRule == .zero ? "the Swarm key \(expected)" : "the Swarm key \(expected) with \(rule)"
      return NodeChangeResult.KeptAside.unchanged(ant.identityPath, what)
    }
    var text = "Wrote \(ant.identityPath): Swarm key \(expected), \(rule) (mode 0600)\n"
    for repaired in outcome.plan.repairs { text += "Repaired: \(repaired)\n" }
    text += NodeChangeResult.KeptAside.lines(outcome.keptAside)
    text += "Overlay on mainnet: \(outcome.plan.overlay.hex)"
    text += nonceRule == .zero ? "\n" : " (not the zero-nonce overlay bee and desktop compute)\n"
    return text
  }
}

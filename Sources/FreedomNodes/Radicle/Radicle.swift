import CryptoPrimitives
import FoundationEssentials
import NodeFiles
import Recovery
import VaultKeys

/// A Radicle home (`RAD_HOME`): the key pair `keys/radicle` (an unencrypted OpenSSH Ed25519 key)
/// and `keys/radicle.pub` (its `ssh-ed25519 AAAA… comment` line), swapped together as `keys/`, and
/// `config.json` with the node alias, which is the user's: only `node.alias` is ever edited.
package struct Radicle: FreedomNode, RecoveryTargetSource {
  package static let keysDirectory = "keys"
  package static let privateKeyFile = "keys/radicle"
  package static let publicKeyFile = "keys/radicle.pub"
  package static let configFile = "config.json"

  package static let layout = NodeLayout(
    name: "Radicle home", files: [privateKeyFile, publicKeyFile, configFile],
    identityDirectory: keysDirectory, identityState: [])

  /// Radicle's kind: `radicle-home`.
  package static let kind = NodeDirectoryKind(
    option: "radicle-home", title: "Radicle", checks: "<dir>/\(privateKeyFile) and its .pub",
    target: "<dir>/\(publicKeyFile)"
  ) { directory, _ in Radicle(home: directory) }

  package let directory: String
  package let enclosingDirectories: [NodeDirectory.Enclosing]

  package init(home: String, enclosing: [NodeDirectory.Enclosing]? = nil) {
    directory = home
    enclosingDirectories = enclosing ?? DesktopInstallation.enclosing(of: home)
  }

  package var layout: NodeLayout { Self.layout }
  package var privateKeyPath: String { NodePath.join(directory, Self.privateKeyFile) }
  package var publicKeyPath: String { NodePath.join(directory, Self.publicKeyFile) }
  package var configPath: String { NodePath.join(directory, Self.configFile) }

  package struct State {
    /// The public key of `keys/radicle`.
    package let privateKey: StoredFile<Ed25519.PublicKey>
    /// The key of `keys/radicle.pub`.
    package let publicKey: StoredFile<Ed25519.PublicKey>
    /// `config.json`'s bytes and mode, when there is one.
    package let config: (bytes: SecureBytes, mode: UInt32)?
  }

  package func inspect() throws(NodeError) -> State {
    try NodeFileAccess.requireDirectoryOrAbsent(NodePath.join(directory, Self.keysDirectory))
    let key = try NodeFileAccess.stored(privateKeyPath) {
      try OpenSSHEd25519PrivateKey.parse(pem: $0).0.publicKey
    }
    let line = try NodeFileAccess.stored(publicKeyPath) { try Self.publicKey(inLine: $0) }
    var config: (SecureBytes, UInt32)?
    if let bytes = try NodeFileAccess.read(configPath) {
      config = (bytes, try NodeFileAccess.status(configPath)?.permissions ?? 0o644)
    }
    return State(privateKey: key, publicKey: line, config: config)
  }

  /// The key of an `ssh-ed25519 AAAA… [comment]` line.
  package static func publicKey(inLine bytes: SecureBytes) throws(PublicKeyLineError)
    -> Ed25519.PublicKey
  {
    let text = bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline })
    guard fields.count >= 2, fields[0] == Substring(OpenSSH.ed25519KeyType),
      let blob = Data(base64Encoded: String(fields[1])),
      let key = try? Ed25519.PublicKey(rawRepresentation: Array(blob.suffix(32))),
      Array(blob) == OpenSSH.publicKeyBlob(key)
    else {
      throw PublicKeyLineError()
    }
    return key
  }

  /// A `radicle.pub` that is not an `ssh-ed25519` public key line.
  package struct PublicKeyLineError: Error, Sendable, CustomStringConvertible {
    package var description: String { "it is not an 'ssh-ed25519 AAAA…' public key line" }
  }

  // MARK: - Export

  package struct ExportInputs {
    package let identity: Ed25519Identity
    /// The node alias to set in config.json, or nil to leave config.json alone.
    package let alias: String?
    /// The comment of the key files.
    package let comment: String

    package init(identity: Ed25519Identity, alias: String?, comment: String) {
      self.identity = identity
      self.alias = alias
      self.comment = comment
    }
  }

  package struct Plan: NodePlan {
    package let actions: [PlannedAction]
    package let change: NodeChange?
    package let expected: String
    /// The key file, the public key line and config.json (nil: no alias asked for).
    package let privateKey: PlannedAction.Kind
    package let publicKey: PlannedAction.Kind
    package let config: PlannedAction.Kind?
  }

  package func plan(
    _ state: State, _ inputs: ExportInputs, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan {
    let (plan, conflicts) = try planCollectingConflicts(state, inputs, events: events)
    return try consent.approve(plan, conflicts: conflicts)
  }

  func planCollectingConflicts(_ state: State, _ inputs: ExportInputs, events: (NodeEvent) -> Void)
    throws(NodeError) -> (Plan, [NodeConflict])
  {
    let identity = inputs.identity
    let expected = identity.radicle.did
    var conflicts: [NodeConflict] = []
    func current(_ stored: StoredFile<Ed25519.PublicKey>, _ path: String) -> Bool {
      switch stored {
      case .absent: return false
      case .present(let key) where key.rawRepresentation == identity.publicKey.rawRepresentation:
        return true
      case .present(let key):
        let did = RadicleIdentity(publicKey: key).did
        // The pair is one identity: a second file of the same other key is the same conflict.
        if !conflicts.contains(where: { $0.found == .radicleKey(did) }) {
          conflicts.append(NodeConflict(path: path, found: .radicleKey(did), expected: expected))
        }
        return false
      case .unreadable(let problem):
        conflicts.append(NodeConflict(path: path, found: .from(problem), expected: expected))
        return false
      }
    }
    let keyIsCurrent = current(state.privateKey, privateKeyPath)
    let lineIsCurrent = current(state.publicKey, publicKeyPath)

    // config.json first, the key pair last: one swap puts both keys in place together.
    var change = NodeChange()
    var configAction: PlannedAction.Kind?
    if let alias = inputs.alias {
      if let (bytes, mode) = state.config {
        let config: RadicleConfig
        do {
          config = try RadicleConfig(json: bytes)
        } catch {
          throw .aliasNotSettable(path: configPath, reason: "\(error)")
        }
        if config.alias != alias {
          change.files.append(
            .init(
              Self.configFile,
              SecureBytes(
                try edit { () throws(RadicleConfigError) in try config.settingAlias(alias) }),
              mode: mode))
          configAction = .replace(before: config.alias)
        } else {
          configAction = .keep
        }
      } else {
        change.files.append(
          .init(
            Self.configFile,
            SecureBytes(
              try edit { () throws(RadicleConfigError) in try RadicleConfig.new(alias: alias) }),
            mode: 0o644))
        configAction = .create
      }
    }
    if keyIsCurrent, let event = NodeFileAccess.sharedSecret(privateKeyPath) { events(event) }
    if !keyIsCurrent {
      let pem = OpenSSHEd25519PrivateKey.pem(
        privateKey: identity.privateKey, comment: inputs.comment)
      change.files.append(.init(Self.privateKeyFile, pem))
    }
    if !lineIsCurrent {
      let line = OpenSSH.authorizedKeyLine(identity.publicKey, comment: inputs.comment) + "\n"
      change.files.append(.init(Self.publicKeyFile, SecureBytes(utf8: line), mode: 0o644))
    }
    func kind(_ current: Bool, _ stored: StoredFile<Ed25519.PublicKey>) -> PlannedAction.Kind {
      if current { return .keep }
      if case .present(let key) = stored {
        return .replace(before: RadicleIdentity(publicKey: key).did)
      }
      return stored.isPresent ? .replace(before: nil) : .create
    }
    let keyKind = kind(keyIsCurrent, state.privateKey)
    let lineKind = kind(lineIsCurrent, state.publicKey)
    var actions = [
      PlannedAction(privateKeyPath, keyKind, after: expected),
      PlannedAction(publicKeyPath, lineKind, after: expected),
    ]
    if let configAction { actions.insert(PlannedAction(configPath, configAction), at: 0) }
    let plan = Plan(
      actions: actions, change: change.files.isEmpty ? nil : change, expected: expected,
      privateKey: keyKind, publicKey: lineKind, config: configAction)
    return (plan, conflicts)
  }

  private func edit(_ body: () throws(RadicleConfigError) -> [UInt8]) throws(NodeError)
    -> [UInt8]
  {
    do {
      return try body()
    } catch {
      throw .aliasNotSettable(path: configPath, reason: "\(error)")
    }
  }

  // MARK: - Verify

  /// One finding "radicle": both key files must hold the mnemonic's key.
  package func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    let expected = profile.radicle.radicle.did
    let key = try NodeFileAccess.understood(state.privateKey)
    let line = try NodeFileAccess.understood(state.publicKey)
    let did = { (key: Ed25519.PublicKey?) in key.map { RadicleIdentity(publicKey: $0).did } }
    switch (did(key), did(line)) {
    case (nil, nil):
      return [NodeFinding("radicle", .absent, path: privateKeyPath, expected: expected)]
    case (let keyDID?, let lineDID?) where keyDID == lineDID:
      return [
        NodeFinding(
          "radicle", keyDID == expected ? .match : .mismatch, path: privateKeyPath,
          expected: expected, found: keyDID)
      ]
    case (let keyDID, let lineDID):
      return [
        NodeFinding(
          "radicle", .mismatch, path: privateKeyPath, expected: expected,
          reason: .radicleKeyPairDisagrees(key: keyDID, publicKey: lineDID))
      ]
    }
  }

  /// The alias config.json sets, when it is a config Radicle reads (nil: none, or no file).
  package func alias(_ state: State) -> String?? {
    guard let (bytes, _) = state.config,
      let config = try? RadicleConfig(json: bytes)
    else { return nil }
    return .some(config.alias)
  }

  // MARK: - Recover

  /// The key of `keys/radicle.pub`.
  package func recoveryTargets(_ state: State) throws(NodeError) -> [RecoveryTarget] {
    switch state.publicKey {
    case .absent: throw .missingFile(path: publicKeyPath, needed: .recoveryTarget)
    case .unreadable(let problem): throw .unreadable(path: problem.path, reason: problem.reason)
    case .present(let key): return [.radicle(RadicleIdentity(publicKey: key))]
    }
  }
}

extension Radicle {
  /// What an export wrote, the key's SSH fingerprint and how to check it.
  package func report(_ outcome: ExportOutcome<Plan>, identity: Ed25519Identity, alias: String?)
    -> String
  {
    let radicle = self
    let plan = outcome.plan
    let expected = plan.expected
    var text = ""
    if plan.privateKey == .keep {
      text += NodeChangeResult.KeptAside.unchanged(
        radicle.privateKeyPath, "the Radicle key \(expected)")
    }
    if plan.publicKey == .keep {
      text += NodeChangeResult.KeptAside.unchanged(radicle.publicKeyPath, "its public key")
    }
    if plan.config == .keep {
      text += NodeChangeResult.KeptAside.unchanged(radicle.configPath, "the alias")
    }
    if plan.privateKey != .keep {
      text += "Wrote \(radicle.privateKeyPath): the Radicle key \(expected) (mode 0600)\n"
    }
    if plan.publicKey != .keep {
      text += "Wrote \(radicle.publicKeyPath): its public key (mode 0644)\n"
    }
    if let config = plan.config, config != .keep, let alias {
      text += "Set node.alias to \(JSONValue.quoted(alias)) in \(radicle.configPath)\n"
    }
    text += NodeChangeResult.KeptAside.lines(outcome.keptAside)
    text += "SSH fingerprint: \(identity.radicle.sshFingerprint)\n"
    if plan.privateKey != .keep { text += "Check it with: RAD_HOME=\(directory) rad self\n" }
    return text
  }
}

import CryptoPrimitives
import NodeFiles
import Recovery
import VaultKeys

/// bee's data directory (`--data-dir`): `keys/swarm.key` (the Swarm wallet's Web3 keystore), bee's
/// own `keys/libp2p_v2.key` and `keys/pss.key`, the `password` file freedom-keys writes, and the
/// stores bee keeps for its overlay. bee reads SHA3-256 MACs of its older files too.
package struct Bee: FreedomNode, RecoveryTargetSource {
  /// The keystore, relative to the directory.
  package static let keystoreFile = "keys/swarm.key"
  /// The password file freedom-keys writes (bee's `--password-file`).
  package static let passwordFile = "password"
  /// The identity directory: swapped as a whole.
  package static let keysDirectory = "keys"

  package static let layout = NodeLayout(
    name: "bee data directory",
    files: [keystoreFile, "keys/libp2p_v2.key", "keys/pss.key", passwordFile],
    identityDirectory: keysDirectory,
    identityState: [
      "keys/libp2p_v2.key", "keys/pss.key", "statestore", "localstore", "kademlia-metrics",
      "stamperstore",
    ])

  /// bee's kind: `bee-dir`, its keystore opened with the password given.
  package static let kind = NodeDirectoryKind(
    option: "bee-dir", title: "bee", checks: "bee's <dir>/\(keystoreFile)",
    target: "bee's <dir>/\(keystoreFile) address", holdsSwarmKeystore: true, takesPassword: true
  ) { Bee(directory: $0, password: $1) }

  package let directory: String
  /// The password `verify` decrypts the keystore with; nil compares its address field only.
  package let password: SecureBytes?

  package init(directory: String, password: SecureBytes? = nil) {
    self.directory = directory
    self.password = password
  }

  package var layout: NodeLayout { Self.layout }

  /// Refuses a desktop userData or app root: desktop runs no bee there (its Swarm node is antd,
  /// in the ant-data inside it), so a keystore written at its root would be read by no node.
  package func requireRightDirectory() throws(NodeError) {
    try DesktopDirectory.refuseInstallationRoot(directory, wanted: .beeData)
  }

  package var keystorePath: String { NodePath.join(directory, Self.keystoreFile) }
  package var passwordFilePath: String { NodePath.join(directory, Self.passwordFile) }

  /// The keystore and the password file, as read under the lock.
  package struct State {
    package let keystore: StoredFile<Web3Keystore>
    /// `<dir>/password`, read as bee reads a password file; nil when absent.
    package let storedPassword: SecureBytes?
  }

  package func inspect() throws(NodeError) -> State {
    try NodeFileAccess.requireDirectoryOrAbsent(NodePath.join(directory, Self.keysDirectory))
    let keystore = try NodeFileAccess.stored(keystorePath) {
      try Web3Keystore(json: $0)
    }
    let stored = try NodeFileAccess.read(passwordFilePath).map {
      bytes throws(NodeError) in try Self.password(fromFile: bytes, path: passwordFilePath)
    }
    return State(keystore: keystore, storedPassword: stored)
  }

  // MARK: - Export

  package struct ExportInputs {
    package let profile: FreedomProfile
    /// The password given, and the path it came from (nil: none given).
    package let password: SecureBytes?
    package let passwordPath: String?
    package let scryptN: UInt64

    package init(
      profile: FreedomProfile, password: SecureBytes?, passwordPath: String?,
      scryptN: UInt64 = Web3Keystore.beeScryptN
    ) {
      self.profile = profile
      self.password = password
      self.passwordPath = passwordPath
      self.scryptN = scryptN
    }
  }

  package struct Plan: NodePlan {
    package let actions: [PlannedAction]
    package let change: NodeChange?
    /// The mnemonic's Swarm wallet.
    package let expected: EthereumAddress
    /// The address of the key replaced, when it had one.
    package let replaced: EthereumAddress?
    /// Whether a new random password is written to `<dir>/password`.
    package let writesPasswordFile: Bool
    /// The state of the old identity moved aside and removed (full paths).
    package let movesAside: [String]
  }

  package func plan(
    _ state: State, _ inputs: ExportInputs, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan {
    let expected = inputs.profile.swarm.address
    var replaced: EthereumAddress?
    switch state.keystore {
    case .absent:
      break
    case .present(let keystore) where keystore.address == expected:
      if let event = NodeFileAccess.sharedSecret(keystorePath) { events(event) }
      return Plan(
        actions: [PlannedAction(keystorePath, .keep, after: expected.checksummed)], change: nil,
        expected: expected, replaced: nil, writesPasswordFile: false, movesAside: [])
    case .present(let keystore):
      guard consent.replacesOtherIdentities else {
        throw .refused([
          NodeConflict(
            path: keystorePath,
            found: keystore.address.map { .key($0.checksummed) } ?? .keyWithoutAddress,
            expected: expected.checksummed)
        ])
      }
      replaced = keystore.address
    case .unreadable(let problem):
      guard consent.replacesOtherIdentities else {
        throw .refused([
          NodeConflict(path: keystorePath, found: .from(problem), expected: expected.checksummed)
        ])
      }
    }

    // The password: given, kept from an earlier export, or new. DIR/password and the key it
    // opens never disagree: a given password that differs from DIR/password is refused.
    let password: SecureBytes
    var newPasswordFile: SecureBytes?
    if let given = inputs.password {
      if let stored = state.storedPassword, stored != given,
        inputs.passwordPath != passwordFilePath
      {
        throw .passwordConflict(.beePasswordFile(path: passwordFilePath))
      }
      password = given
    } else if let stored = state.storedPassword {
      password = stored
    } else {
      password = Self.generatePassword()
      newPasswordFile = password + SecureBytes(utf8: "\n")
    }
    events(
      .keyDerivation(
        encrypting: true, path: keystorePath,
        kdf: .scrypt(n: inputs.scryptN, r: Web3Keystore.beeScryptR, p: Web3Keystore.beeScryptP)))
    let keyFile: [UInt8]
    do {
      keyFile = try Web3Keystore.encrypt(
        privateKey: inputs.profile.swarm.privateKey, password: password, scryptN: inputs.scryptN)
    } catch {
      throw .invalid(path: keystorePath, reason: "\(error)")
    }

    // The key before a new password: interrupted in between, bee finds a key it cannot open
    // and stops, rather than a password beside no key, with which it would make its own.
    var change = NodeChange(files: [.init(Self.keystoreFile, SecureBytes(keyFile))])
    var actions = [
      PlannedAction(
        keystorePath,
        state.keystore.isPresent ? .replace(before: replaced?.checksummed) : .create,
        after: expected.checksummed)
    ]
    if let newPasswordFile {
      change.files.append(.init(Self.passwordFile, newPasswordFile))
      actions.append(PlannedAction(passwordFilePath, .create))
    }
    var movesAside: [String] = []
    if state.keystore.isPresent {
      change.removing = Self.layout.identityState
      movesAside = Self.layout.identityState.map { NodePath.join(directory, $0) }
      actions += movesAside.map { PlannedAction($0, .moveAside) }
    }
    return Plan(
      actions: actions, change: change, expected: expected, replaced: replaced,
      writesPasswordFile: newPasswordFile != nil, movesAside: movesAside)
  }

  // MARK: - Verify

  /// One finding "bee": the keystore decrypted with `password`, or its address field without one.
  package func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
  {
    let expected = profile.swarm.address
    guard let keystore = try NodeFileAccess.understood(state.keystore) else {
      return [NodeFinding("bee", .absent, path: keystorePath, expected: expected.checksummed)]
    }
    guard let password else {
      guard let address = keystore.address else {
        throw .invalidInput(.keystoreWithoutAddress(path: keystorePath))
      }
      return [
        NodeFinding(
          "bee", address == expected ? .match : .mismatch, path: keystorePath,
          expected: expected.checksummed, found: address.checksummed, authenticated: false,
          reason: .addressFieldOnly)
      ]
    }
    events(.keyDerivation(encrypting: false, path: keystorePath, kdf: keystore.kdf))
    let key = try Self.decrypt(keystore, password: password, path: keystorePath)
    let found = EthereumAddress(publicKey: key.publicKey)
    return [
      NodeFinding(
        "bee",
        key.rawRepresentation == profile.swarm.privateKey.rawRepresentation ? .match : .mismatch,
        path: keystorePath, expected: expected.checksummed, found: found.checksummed,
        authenticated: true, reason: .decryptedWithGivenPassword)
    ]
  }

  // MARK: - Recover

  /// The keystore's address, as the Swarm wallet.
  package func recoveryTargets(_ state: State) throws(NodeError) -> [RecoveryTarget] {
    try Self.swarmTarget(state.keystore, path: keystorePath)
  }

  // MARK: - Shared with antd

  /// What `recover` searches for in a keystore: its address field, as the Swarm wallet's.
  static func swarmTarget(_ keystore: StoredFile<Web3Keystore>, path: String) throws(NodeError)
    -> [RecoveryTarget]
  {
    switch keystore {
    case .absent: throw .missingFile(path: path, needed: .recoveryTarget)
    case .unreadable(let problem): throw .unreadable(path: problem.path, reason: problem.reason)
    case .present(let keystore):
      guard let address = keystore.address else {
        throw .invalidInput(.keystoreWithoutAddress(path: path))
      }
      return [.address(address, of: .swarm)]
    }
  }

  /// The private key of `keystore`, the errors typed.
  static func decrypt(_ keystore: Web3Keystore, password: SecureBytes, path: String)
    throws(NodeError) -> Secp256k1.PrivateKey
  {
    do {
      return try keystore.decrypt(password: password)
    } catch .wrongPassword {
      throw .wrongPassword(path: path)
    } catch {
      throw .invalid(path: path, reason: "\(error)")
    }
  }

  /// Random bytes in a generated password; written as twice as many hex digits.
  package static let generatedPasswordByteCount = 32

  /// A new password: `generatedPasswordByteCount` random bytes as lowercase hex digits.
  package static func generatePassword() -> SecureBytes {
    let random = SecureRandom.secret(count: generatedPasswordByteCount)
    let digits = Array("0123456789abcdef".utf8)
    return SecureBytes(count: 2 * generatedPasswordByteCount) { out in
      random.withUnsafeBytes { bytes in
        for (index, byte) in bytes.enumerated() {
          out[2 * index] = digits[Int(byte >> 4)]
          out[2 * index + 1] = digits[Int(byte & 0x0f)]
        }
      }
    }
  }

  /// Why a password file's content cannot be bee's password.
  package enum PasswordFileProblem: Error, Equatable, Sendable {
    /// It starts with a UTF-8 byte order mark, which bee keeps as part of the password: a key
    /// encrypted without it could never be opened by bee.
    case byteOrderMark
    /// Nothing is left once the line feeds are removed.
    case empty

    /// What is wrong, after the file's name: "is empty".
    package var reason: String {
      switch self {
      case .byteOrderMark:
        "starts with a UTF-8 byte order mark, which bee would read as part of the password; "
          + "save the file without it"
      case .empty: "is empty"
      }
    }
  }

  /// A password file's content as bee reads `--password-file`: every leading and trailing line
  /// feed removed (`trimmingLineFeeds`). A byte order mark (bee would keep it) or nothing left
  /// is refused.
  package static func password(fromFile bytes: SecureBytes) throws(PasswordFileProblem)
    -> SecureBytes
  {
    if bytes.withUnsafeBytes({ $0.starts(with: [0xEF, 0xBB, 0xBF]) }) { throw .byteOrderMark }
    let password = trimmingLineFeeds(bytes)
    guard password.count > 0 else { throw .empty }
    return password
  }

  /// `password(fromFile:)` for the file at `path`, its refusal as a `NodeError`.
  static func password(fromFile bytes: SecureBytes, path: String) throws(NodeError) -> SecureBytes {
    do {
      return try password(fromFile: bytes)
    } catch .byteOrderMark {
      throw .unreadable(path: path, reason: PasswordFileProblem.byteOrderMark.reason)
    } catch {
      throw .invalidInput(.emptyPasswordFile(path))
    }
  }

  /// `bytes` without leading and trailing line feeds (Go's `bytes.Trim(b, "\n")`, as bee trims
  /// a password file); a carriage return or a space stays part of the password.
  package static func trimmingLineFeeds(_ bytes: SecureBytes) -> SecureBytes {
    let (start, end) = bytes.withUnsafeBytes { raw -> (Int, Int) in
      let lineFeed = UInt8(ascii: "\n")
      let start = raw.firstIndex(where: { $0 != lineFeed }) ?? raw.count
      let end = (raw.lastIndex(where: { $0 != lineFeed }) ?? -1) + 1
      return (start, max(start, end))
    }
    return bytes[start..<end]
  }
}

extension Bee {
  /// What an export wrote and how to start bee; `passwordFile` is the file bee reads the
  /// password from, nil when the user typed it.
  package func report(
    _ outcome: ExportOutcome<Plan>, profile: FreedomProfile, scryptN: UInt64,
    passwordFile: String?
  ) throws -> String {
    let (bee, plan) = (self, outcome.plan)
    guard plan.change != nil else {
      return NodeChangeResult.KeptAside.unchanged(
        keystorePath, "the Swarm key \(plan.expected.checksummed)")
    }
    let overlay = try profile.swarmOverlay()
    var text = "Wrote \(bee.keystorePath): Swarm key \(profile.swarm.address.checksummed)"
    text += " (scrypt n=\(scryptN), mode 0600)\n"
    if let replaced = plan.replaced { text += "Replaced the key of \(replaced.checksummed)\n" }
    text += NodeChangeResult.KeptAside.lines(outcome.keptAside)
    if plan.writesPasswordFile {
      text += "Wrote \(bee.passwordFilePath): a new random password (mode 0600)\n"
    }
    if let passwordFile {
      text +=
        "Start bee with: bee start --data-dir \(directory) --password-file \(passwordFile)\n"
    } else {
      text += "Start bee with: bee start --data-dir \(directory) and the password you gave\n"
    }
    text += "Overlay with nonce 0 on mainnet: \(overlay.hex)\n"
    text += "On mainnet bee may mine another overlay nonce (its neighbourhood suggester);\n"
    text += "the overlay then differs from the one above.\n"
    return text
  }
}

import CryptoPrimitives
import VaultKeys

/// What `derive` prints, built once and rendered as JSON (`--json`) or as an aligned summary.
/// Secrets are added only when the user asked for them with `--include-secrets`.
struct DeriveReport {
  private(set) var json: JSONObject = [:]
  private(set) var text = TextReport()

  /// The whole profile: wallet, Swarm, IPFS, Radicle and the requested wallets and publishers.
  init(
    command: DeriveCommand, mnemonic: Mnemonic, seed: SecureBytes,
    vaultWallets: DeriveVaultWallets? = nil
  ) throws {
    let secrets = command.includesSecrets
    let profile = try FreedomProfile(seed: seed)
    let overlay = try profile.swarmOverlay(
      networkID: command.networkID, nonce: command.overlayNonce)

    json.append(
      "mnemonic",
      .object([
        "language": .string(mnemonic.language.rawValue),
        "words": .number(UInt64(mnemonic.wordCount)),
      ]))
    text.section("Mnemonic")
    text.row("Language", mnemonic.language.rawValue)
    text.row("Words", String(mnemonic.wordCount))
    if secrets {
      json.append("seed", .string(seed.revealHex()))
      text.row("Seed", seed.revealHex())
    }

    add("wallet", title: "Wallet", account: profile.wallet, secrets: secrets)
    var swarm = Self.account(profile.swarm, secrets: false)
    swarm.append("networkId", .number(overlay.networkID))
    swarm.append("overlayNonce", .string(Hex.encode(overlay.nonce)))
    swarm.append("overlay", .string(overlay.hex))
    if secrets { swarm.append("privateKey", .string(Self.hex(profile.swarm.privateKey))) }
    add("swarm", title: "Swarm", swarm)

    var ipfs = Self.ed25519(profile.ipfs)
    ipfs.append("peerId", .string(profile.ipfs.peerID.base58))
    ipfs.append("peerIdBase36", .string(profile.ipfs.peerID.base36))
    if secrets {
      ipfs.append("privateKey", .string(profile.ipfs.privateKey.rawRepresentation.revealHex()))
      ipfs.append("privKey", .string(Self.text(profile.ipfs.privKeyBase64)))
    }
    add("ipfs", title: "IPFS", ipfs)

    let radicleID = profile.radicle.radicle
    var radicle = Self.ed25519(profile.radicle)
    radicle.append("did", .string(radicleID.did))
    radicle.append("nodeId", .string(radicleID.nodeID))
    radicle.append("sshPublicKey", .string(radicleID.sshPublicKey))
    radicle.append("sshFingerprint", .string(radicleID.sshFingerprint))
    if secrets {
      radicle.append(
        "privateKey", .string(profile.radicle.privateKey.rawRepresentation.revealHex()))
    }
    add("radicle", title: "Radicle", radicle)

    if command.walletCount > 0 {
      let wallets = try (0..<command.walletCount).map { try profile.wallet(index: $0) }
      addList("wallets", title: "Wallet", wallets, secrets: secrets)
    }
    if command.publisherCount > 0 {
      let publishers = try (0..<command.publisherCount).map { try profile.publisher(index: $0) }
      addList("publishers", title: "Publisher", publishers, secrets: secrets)
    }
    if let vaultWallets {
      // desktop's wallet list (`derive --vault-meta`), built in DeriveVaultWallets.swift.
      var (summary, wallets) = try vaultWallets.rows(profile, secrets: secrets)
      summary.append("wallets", .array(wallets.map { .object($0.json) }))
      json.append("vaultMeta", .object(summary))
      for wallet in wallets {
        text.section(wallet.title)
        for (label, value) in wallet.rows { text.row(label, value) }
      }
    }
    if let experimental = command.experimentalKeys {
      try addExperimental(experimental, profile: profile, secrets: secrets)
    }
  }

  /// desktop's experimental keys (`derive --experimental`): Railgun's private keys and storage
  /// roots are secrets through and through, so without `--include-secrets` only their paths show.
  private mutating func addExperimental(
    _ selection: DeriveCommand.ExperimentalKeys, profile: FreedomProfile, secrets: Bool
  ) throws {
    var railgun: JSONObject = [:]
    let profileID = selection.railgunProfile.map {
      RailgunStorageRoot.profileID(id: $0.id, userDataDirectory: $0.userDataDirectory)
    }
    if let profileID {
      railgun.append("profileId", .string(profileID))
      text.section("Railgun profile")
      text.row("Profile ID", profileID)
    }
    let master = try RailgunKeyNode(seed: profile.seed)
    var accounts: [JSONValue] = []
    for index in selection.railgunIndexes {
      let account = try RailgunAccount(master: master, index: index)
      var object: JSONObject = [
        "index": .number(UInt64(index)),
        "spendingPath": .string(account.spendingPath.description),
        "viewingPath": .string(account.viewingPath.description),
      ]
      if secrets {
        object.append("spendingKey", .string(account.spendingKey.revealHex()))
        object.append("viewingKey", .string(account.viewingKey.revealHex()))
        if let profileID {
          let root = try RailgunStorageRoot.root(
            seed: profile.seed, profileID: profileID, accountIndex: index)
          object.append("storageRoot", .string(root.revealHex()))
        }
      }
      accounts.append(.object(object))
      addSection("Railgun \(index)", object)
    }
    railgun.append("accounts", .array(accounts))

    var ppv2: [JSONValue] = []
    for index in selection.ppv2Indexes {
      var object: JSONObject = ["index": .number(UInt64(index))]
      let key = try KohakuPPv2Key(profile: profile, index: index)
      for member in Self.account(key.account, secrets: secrets).members {
        object.append(member.key, member.value)
      }
      ppv2.append(.object(object))
      addSection("PPv2 \(index)", object)
    }
    json.append("experimental", .object(["railgun": .object(railgun), "ppv2": .array(ppv2)]))
  }

  /// A summary section of `object`'s members after its index.
  private mutating func addSection(_ title: String, _ object: JSONObject) {
    text.section(title)
    for (name, value) in object.members.dropFirst() {
      text.row(Self.labels[name] ?? name, value.plainText)
    }
  }

  /// One key at a user-given path.
  init(
    command: DeriveCommand, path: DerivationPath, curve: DeriveCommand.Curve, seed: SecureBytes
  ) throws {
    var key: JSONObject = ["path": .string(path.description), "curve": .string(curve.rawValue)]
    switch curve {
    case .secp256k1:
      let extended = try ExtendedPrivateKey(seed: seed).derive(path)
      key.append("publicKey", .string(Hex.encode(extended.publicKey.compressedRepresentation)))
      key.append(
        "address", .string(EthereumAddress(publicKey: extended.publicKey).checksummed))
      key.append("xpub", .string(extended.extendedPublicKey.serialized))
      if command.includesSecrets {
        key.append("privateKey", .string(Self.hex(extended.privateKey)))
      }
    case .ed25519:
      let derived = try SLIP10Ed25519Key(seed: seed).derive(path)
      key.append("publicKey", .string(Hex.encode(derived.publicKey.rawRepresentation)))
      key.append("peerId", .string(Libp2pPeerID(publicKey: derived.publicKey).base58))
      if command.includesSecrets {
        key.append("privateKey", .string(derived.privateKey.rawRepresentation.revealHex()))
      }
    }
    json = key
    text.section("")
    for (name, value) in key.members { text.row(Self.labels[name] ?? name, value.plainText) }
  }

  // MARK: - Building

  private mutating func add(
    _ key: String, title: String, account: EthereumAccount, secrets: Bool
  ) {
    add(key, title: title, Self.account(account, secrets: secrets))
  }

  private mutating func add(_ key: String, title: String, _ object: JSONObject) {
    json.append(key, .object(object))
    text.section(title)
    for (name, value) in object.members { text.row(Self.labels[name] ?? name, value.plainText) }
  }

  private mutating func addList(
    _ key: String, title: String, _ accounts: [EthereumAccount], secrets: Bool
  ) {
    var elements: [JSONValue] = []
    for (index, account) in accounts.enumerated() {
      var object: JSONObject = ["index": .number(UInt64(index))]
      for member in Self.account(account, secrets: secrets).members {
        object.append(member.key, member.value)
      }
      elements.append(.object(object))
      text.section("\(title) \(index)")
      for (name, value) in object.members.dropFirst() {
        text.row(Self.labels[name] ?? name, value.plainText)
      }
    }
    json.append(key, .array(elements))
  }

  private static func account(_ account: EthereumAccount, secrets: Bool) -> JSONObject {
    var object: JSONObject = [
      "path": .string(account.path.description),
      "address": .string(account.address.checksummed),
      "publicKey": .string(Hex.encode(account.publicKey.compressedRepresentation)),
    ]
    if secrets { object.append("privateKey", .string(hex(account.privateKey))) }
    return object
  }

  private static func ed25519(_ identity: Ed25519Identity) -> JSONObject {
    [
      "path": .string(identity.path.description),
      "publicKey": .string(Hex.encode(identity.publicKey.rawRepresentation)),
    ]
  }

  private static func hex(_ key: Secp256k1.PrivateKey) -> String {
    key.rawRepresentation.revealHex()
  }

  /// ASCII held in a `SecureBytes` (kubo's base64 key), as the text to print.
  private static func text(_ bytes: SecureBytes) -> String {
    bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// The summary's label for each JSON key.
  private static let labels: [String: String] = [
    "path": "Path", "curve": "Curve", "address": "Address", "publicKey": "Public key",
    "privateKey": "Private key", "networkId": "Network ID", "overlayNonce": "Overlay nonce",
    "overlay": "Overlay", "peerId": "Peer ID", "peerIdBase36": "Peer ID (base36)",
    "privKey": "kubo PrivKey", "did": "DID", "nodeId": "Node ID",
    "sshPublicKey": "SSH public key", "sshFingerprint": "SSH fingerprint", "xpub": "xpub",
    "profileId": "Profile ID", "spendingPath": "Spending path", "viewingPath": "Viewing path",
    "spendingKey": "Spending key", "viewingKey": "Viewing key", "storageRoot": "Storage root",
  ]
}

extension JSONValue {
  /// The value as the summary shows it: strings without quotes.
  fileprivate var plainText: String {
    if case .string(let text) = self { return text }
    return rendered()
  }
}

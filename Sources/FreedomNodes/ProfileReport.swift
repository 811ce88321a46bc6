import CryptoPrimitives
import VaultKeys

/// What a mnemonic derives, built once and read as JSON or as an aligned `TextReport`: the
/// whole Freedom profile (wallet, Swarm, IPFS, Radicle, the wallets and publishers asked for,
/// desktop's vault-meta wallets and experimental keys) or the key at one path. Secrets are
/// added only when `includesSecrets` says so.
package struct ProfileReport: Sendable {
  /// The report as JSON.
  package internal(set) var json: JSONObject = [:]
  /// The report as a summary.
  package internal(set) var text = TextReport()

  /// What the profile's report lists besides the fixed identities.
  package struct Options: Sendable {
    /// Whether the seed and the private keys are shown.
    package var includesSecrets = false
    /// The Swarm network ID of the overlay.
    package var networkID = SwarmOverlay.mainnet
    /// The Swarm overlay nonce.
    package var overlayNonce = [UInt8](repeating: 0, count: SwarmOverlay.nonceByteCount)
    /// Wallets m/44'/60'/i'/0/0 listed, i below this.
    package var walletCount: UInt32 = 0
    /// Publishers m/44'/73406'/i'/0/0 listed, i below this.
    package var publisherCount: UInt32 = 0
    /// desktop's `vault-meta.json` and where it was read, whose wallets are listed.
    package var vaultMeta: (path: String, meta: DesktopVaultMeta)?
    /// desktop's experimental keys listed.
    package var experimental: ExperimentalAccount.Selection?

    /// No secrets, Swarm mainnet with nonce 0, nothing listed beyond the identities.
    package init() {}
  }

  /// The curves a single key is derived on.
  package enum Curve: String, Sendable, CaseIterable {
    /// BIP-32.
    case secp256k1
    /// SLIP-0010.
    case ed25519
  }

  /// The whole profile of `mnemonic`, whose BIP-39 seed is `seed`.
  package init(mnemonic: Mnemonic, seed: SecureBytes, options: Options) throws {
    let secrets = options.includesSecrets
    let profile = try FreedomProfile(seed: seed)
    let overlay = try profile.swarmOverlay(
      networkID: options.networkID, nonce: options.overlayNonce)

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

    add("wallet", title: "Wallet", Self.account(profile.wallet, secrets: secrets))
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

    if options.walletCount > 0 {
      let wallets = try (0..<options.walletCount).map { try profile.wallet(index: $0) }
      addList("wallets", title: "Wallet", wallets, secrets: secrets)
    }
    if options.publisherCount > 0 {
      let publishers = try (0..<options.publisherCount).map { try profile.publisher(index: $0) }
      addList("publishers", title: "Publisher", publishers, secrets: secrets)
    }
    if let vaultMeta = options.vaultMeta {
      try addVaultMeta(vaultMeta.meta, path: vaultMeta.path, profile: profile, secrets: secrets)
    }
    if let experimental = options.experimental {
      try addExperimental(experimental, profile: profile, secrets: secrets)
    }
  }

  /// The key at `path` on `curve`, derived from the BIP-39 `seed`; a secp256k1 key's xpub only
  /// with `includesExtendedPublicKey` (with any one child's private key it yields every sibling's:
  /// the xpub of m/44'/60'/0'/0 and the wallet's key give the Swarm key at /1).
  package init(
    path: DerivationPath, curve: Curve, seed: SecureBytes, includesSecrets: Bool,
    includesExtendedPublicKey: Bool = false
  ) throws {
    var key: JSONObject = ["path": .string(path.description), "curve": .string(curve.rawValue)]
    switch curve {
    case .secp256k1:
      let extended = try ExtendedPrivateKey(seed: seed).derive(path)
      key.append("publicKey", .string(Hex.encode(extended.publicKey.compressedRepresentation)))
      key.append(
        "address", .string(EthereumAddress(publicKey: extended.publicKey).checksummed))
      if includesExtendedPublicKey {
        key.append("xpub", .string(extended.extendedPublicKey.serialized))
      }
      if includesSecrets { key.append("privateKey", .string(Self.hex(extended.privateKey))) }
    case .ed25519:
      let derived = try SLIP10Ed25519Key(seed: seed).derive(path)
      key.append("publicKey", .string(Hex.encode(derived.publicKey.rawRepresentation)))
      key.append("peerId", .string(Libp2pPeerID(publicKey: derived.publicKey).base58))
      if includesSecrets {
        key.append("privateKey", .string(derived.privateKey.rawRepresentation.revealHex()))
      }
    }
    json = key
    text.section("")
    text.rows(key, labels: Self.labels)
  }

  // MARK: - Building

  /// `object` as the member `key` and as the section `title`.
  mutating func add(_ key: String, title: String, _ object: JSONObject) {
    json.append(key, .object(object))
    text.section(title)
    text.rows(object, labels: Self.labels)
  }

  /// A section of `object`'s members after its first (the index the title names).
  mutating func addSection(_ title: String, _ object: JSONObject) {
    text.section(title)
    for (key, value) in object.members.dropFirst() {
      text.row(Self.labels[key] ?? key, value.plainText)
    }
  }

  private mutating func addList(
    _ key: String, title: String, _ accounts: [EthereumAccount], secrets: Bool
  ) {
    var elements: [JSONValue] = []
    for (index, account) in accounts.enumerated() {
      let object = Self.indexed(UInt32(index), Self.account(account, secrets: secrets))
      elements.append(.object(object))
      addSection("\(title) \(index)", object)
    }
    json.append(key, .array(elements))
  }

  /// `object`'s members after an `index` member.
  static func indexed(_ index: UInt32, _ object: JSONObject) -> JSONObject {
    var indexed: JSONObject = ["index": .number(UInt64(index))]
    for (key, value) in object.members { indexed.append(key, value) }
    return indexed
  }

  static func account(_ account: EthereumAccount, secrets: Bool) -> JSONObject {
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

  static func hex(_ key: Secp256k1.PrivateKey) -> String { key.rawRepresentation.revealHex() }

  /// ASCII held in a `SecureBytes` (kubo's base64 key), as the text to print.
  private static func text(_ bytes: SecureBytes) -> String {
    bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// The summary's label for each JSON key.
  static let labels: [String: String] = [
    "path": "Path", "curve": "Curve", "address": "Address", "publicKey": "Public key",
    "privateKey": "Private key", "networkId": "Network ID", "overlayNonce": "Overlay nonce",
    "overlay": "Overlay", "peerId": "Peer ID", "peerIdBase36": "Peer ID (base36)",
    "privKey": "kubo PrivKey", "did": "DID", "nodeId": "Node ID",
    "sshPublicKey": "SSH public key", "sshFingerprint": "SSH fingerprint", "xpub": "xpub",
    "profileId": "Profile ID", "spendingPath": "Spending path", "viewingPath": "Viewing path",
    "spendingKey": "Spending key", "viewingKey": "Viewing key", "storageRoot": "Storage root",
  ]
}

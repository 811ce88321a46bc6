import CryptoPrimitives

/// Every node identity the Freedom apps derive from one seed (docs/derivation.md): the user
/// wallet, the Swarm (bee) wallet, the IPFS (kubo) key and the Radicle key.
public struct FreedomProfile: Sendable {
  /// The user's first wallet.
  public static let walletPath = path("m/44'/60'/0'/0/0")
  /// The Swarm (bee) node's wallet.
  public static let swarmPath = path("m/44'/60'/0'/0/1")
  /// The IPFS (kubo) node's libp2p key.
  public static let ipfsPath = path("m/44'/73405'/0'/0'/0'")
  /// The Radicle node's key.
  public static let radiclePath = path("m/44'/73404'/0'/0'/0'")

  /// Wallet `index`: m/44'/60'/index'/0/0.
  public static func walletPath(index: UInt32) throws(DerivationPathError) -> DerivationPath {
    try DerivationPath("m/44'/60'/\(index)'/0/0")
  }

  /// Swarm publisher key `index`: m/44'/73406'/index'/0/0.
  public static func publisherPath(index: UInt32) throws(DerivationPathError) -> DerivationPath {
    try DerivationPath("m/44'/73406'/\(index)'/0/0")
  }

  /// The BIP-39 seed everything is derived from.
  public let seed: SecureBytes
  /// The BIP-32 (secp256k1) master node.
  public let secp256k1Master: ExtendedPrivateKey
  /// The SLIP-0010 (Ed25519) master node.
  public let ed25519Master: SLIP10Ed25519Key
  /// The user wallet, m/44'/60'/0'/0/0.
  public let wallet: EthereumAccount
  /// The Swarm wallet, m/44'/60'/0'/0/1.
  public let swarm: EthereumAccount
  /// The IPFS identity, m/44'/73405'/0'/0'/0'.
  public let ipfs: Ed25519Identity
  /// The Radicle identity, m/44'/73404'/0'/0'/0'.
  public let radicle: Ed25519Identity

  /// Derives the profile from a 64-byte BIP-39 seed.
  public init(seed: SecureBytes) throws(KeyDerivationError) {
    self.seed = seed
    secp256k1Master = try ExtendedPrivateKey(seed: seed)
    ed25519Master = SLIP10Ed25519Key(seed: seed)
    // The wallet and the Swarm key are siblings under m/44'/60'/0'/0: derive that node once.
    let parentPath = DerivationPath(components: Array(Self.walletPath.components.dropLast()))
    let parent = try secp256k1Master.derive(parentPath)
    let master = secp256k1Master
    func key(at path: DerivationPath) throws(KeyDerivationError) -> ExtendedPrivateKey {
      guard let last = path.components.last,
        path.components.dropLast() == parentPath.components[...]
      else { return try master.derive(path) }
      return try parent.child(last)
    }
    wallet = try EthereumAccount(path: Self.walletPath, key: key(at: Self.walletPath))
    swarm = try EthereumAccount(path: Self.swarmPath, key: key(at: Self.swarmPath))
    ipfs = try Ed25519Identity(path: Self.ipfsPath, key: ed25519Master.derive(Self.ipfsPath))
    radicle = try Ed25519Identity(
      path: Self.radiclePath, key: ed25519Master.derive(Self.radiclePath))
  }

  /// Derives the profile from a mnemonic and its BIP-39 passphrase (empty, as Freedom uses, by
  /// default).
  public init(mnemonic: Mnemonic, passphrase: SecureBytes = SecureBytes(count: 0) { _ in })
    throws(KeyDerivationError)
  {
    try self.init(seed: mnemonic.seed(passphrase: passphrase))
  }

  /// Wallet `index` (m/44'/60'/index'/0/0); index 0 is `wallet`.
  public func wallet(index: UInt32) throws -> EthereumAccount {
    try account(at: Self.walletPath(index: index))
  }

  /// Swarm publisher key `index` (m/44'/73406'/index'/0/0).
  public func publisher(index: UInt32) throws -> EthereumAccount {
    try account(at: Self.publisherPath(index: index))
  }

  /// The BIP-32 secp256k1 account at any `path`.
  public func account(at path: DerivationPath) throws(KeyDerivationError) -> EthereumAccount {
    try EthereumAccount(path: path, key: secp256k1Master.derive(path))
  }

  /// The SLIP-0010 Ed25519 identity at any all-hardened `path`.
  public func ed25519Identity(at path: DerivationPath) throws(KeyDerivationError) -> Ed25519Identity
  {
    try Ed25519Identity(path: path, key: ed25519Master.derive(path))
  }

  /// The Swarm node's overlay address: network 1 (mainnet) and an all-zero nonce unless given.
  public func swarmOverlay(
    networkID: UInt64 = SwarmOverlay.mainnet,
    nonce: [UInt8] = [UInt8](repeating: 0, count: SwarmOverlay.nonceByteCount)
  ) throws(SwarmOverlayError) -> SwarmOverlay {
    try SwarmOverlay(address: swarm.address, networkID: networkID, nonce: nonce)
  }

  private static func path(_ text: String) -> DerivationPath {
    // The literals above are fixed and valid; a typo fails every test at once.
    try! DerivationPath(text)
  }
}

/// An Ethereum-style account: a BIP-32 secp256k1 key, its public key and its address.
public struct EthereumAccount: Sendable {
  /// Where the key was derived.
  public let path: DerivationPath
  /// The extended key at `path` (its xpub is `extendedKey.extendedPublicKey.serialized`).
  public let extendedKey: ExtendedPrivateKey
  /// The public key.
  public let publicKey: Secp256k1.PublicKey
  /// The account's address.
  public let address: EthereumAddress

  init(path: DerivationPath, key: ExtendedPrivateKey) {
    self.path = path
    extendedKey = key
    publicKey = key.publicKey
    address = EthereumAddress(publicKey: publicKey)
  }

  /// The private key.
  public var privateKey: Secp256k1.PrivateKey { extendedKey.privateKey }
}

/// An Ed25519 key derived with SLIP-0010 and the identifiers IPFS and Radicle give it.
public struct Ed25519Identity: Sendable {
  /// Where the key was derived.
  public let path: DerivationPath
  /// The private key (its 32-byte seed).
  public let privateKey: Ed25519.PrivateKey

  init(path: DerivationPath, key: SLIP10Ed25519Key) {
    self.path = path
    privateKey = key.privateKey
  }

  /// The public key.
  public var publicKey: Ed25519.PublicKey { privateKey.publicKey }
  /// The libp2p PeerID of this key (IPFS, kubo).
  public var peerID: Libp2pPeerID { Libp2pPeerID(publicKey: publicKey) }
  /// kubo's `Identity.PrivKey`: base64 of the libp2p private-key protobuf, as UTF-8 text.
  public var privKeyBase64: SecureBytes { Libp2pPrivateKey.base64(privateKey) }
  /// The Radicle node id, DID and SSH key of this key.
  public var radicle: RadicleIdentity { RadicleIdentity(publicKey: publicKey) }
}

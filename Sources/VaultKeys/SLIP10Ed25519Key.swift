import CryptoPrimitives

/// A SLIP-0010 Ed25519 node: a private key (RFC 8032 seed), its chain code and its place in the
/// tree. Ed25519 has no public derivation, so every step is hardened.
public struct SLIP10Ed25519Key: Sendable, CustomStringConvertible {
  private static let masterHMACKey = Array("ed25519 seed".utf8)

  /// The left half of the node's HMAC output: the Ed25519 seed.
  private let key: SecureBytes
  /// The parent's seed, kept so the parent fingerprint costs a key pair only when asked for.
  private let parentKey: SecureBytes?
  /// The 32-byte chain code.
  public let chainCode: SecureBytes
  /// The number of derivation steps from the master key (0 for the master key).
  public let depth: UInt8
  /// The child number this key was derived with, 2^31 added (0 for the master key).
  public let childNumber: UInt32

  private init(
    privateKey: SecureBytes, chainCode: SecureBytes, depth: UInt8, parentKey: SecureBytes?,
    childNumber: UInt32
  ) {
    key = privateKey
    self.chainCode = chainCode
    self.depth = depth
    self.parentKey = parentKey
    self.childNumber = childNumber
  }

  /// The Ed25519 private key (its public key is computed on each access).
  public var privateKey: Ed25519.PrivateKey {
    // Always 32 bytes (half of an HMAC-SHA512 output), the only thing the initializer checks.
    try! Ed25519.PrivateKey(rawRepresentation: key)
  }

  /// The first 4 bytes of the parent's key identifier (zero for the master key).
  public var parentFingerprint: [UInt8] {
    guard let parentKey else { return [0, 0, 0, 0] }
    return Self.fingerprint(try! Ed25519.PrivateKey(rawRepresentation: parentKey).publicKey)
  }

  /// The master node of `seed`: HMAC-SHA512 keyed with "ed25519 seed". Every seed length gives a
  /// valid key; BIP-39 seeds are 64 bytes, and SLIP-0010 asks for 16 to 64.
  public init(seed: SecureBytes) {
    let hmac = HMACSHA512.authenticate(key: Self.masterHMACKey, message: seed)
    self.init(
      privateKey: hmac[0..<ChildDerivation.halfByteCount], chainCode: hmac.rightHalf, depth: 0,
      parentKey: nil, childNumber: 0)
  }

  /// The descendant at `path`, taken from this node; every component must be hardened.
  public func derive(_ path: DerivationPath) throws(KeyDerivationError) -> SLIP10Ed25519Key {
    if let offset = path.components.firstIndex(where: { !$0.isHardened }) {
      throw .nonHardenedEd25519(position: offset + 1, path: path)
    }
    guard let last = path.components.last else { return self }
    guard path.components.count <= Int(UInt8.max - depth) else { throw .depthExceeded }
    return try ChildDerivation.withScratch { message in
      let parent = message.hardenedChain(
        key: SecureBytesSlice(self.key), chainCode: SecureBytesSlice(chainCode),
        path.components.dropLast())
      let parentKey = parent.key.copied
      let (key, code) = message.hardenedChain(
        key: parent.key, chainCode: parent.chainCode, CollectionOfOne(last))
      return SLIP10Ed25519Key(
        privateKey: key.copied, chainCode: code.copied, depth: depth + UInt8(path.components.count),
        parentKey: parentKey, childNumber: last.rawIndex)
    }
  }

  /// The direct child `component` of this node, which must be hardened.
  public func child(_ component: DerivationPath.Component) throws(KeyDerivationError)
    -> SLIP10Ed25519Key
  {
    try derive(DerivationPath(components: [component]))
  }

  /// The Ed25519 public key.
  public var publicKey: Ed25519.PublicKey { privateKey.publicKey }

  /// The first 4 bytes of RIPEMD-160(SHA-256(0x00 ‖ public key)), as SLIP-0010 identifies nodes.
  public var fingerprint: [UInt8] { Self.fingerprint(publicKey) }

  private static func fingerprint(_ publicKey: Ed25519.PublicKey) -> [UInt8] {
    ExtendedKeyEncoding.fingerprint([0x00] + publicKey.rawRepresentation)
  }

  /// The position in the tree, never the key.
  public var description: String {
    "SLIP10Ed25519Key(depth: \(depth), child: \(DerivationPath.Component(rawIndex: childNumber)), redacted)"
  }
}

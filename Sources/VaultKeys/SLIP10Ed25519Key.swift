import CryptoPrimitives

/// A SLIP-0010 Ed25519 node: a private key (RFC 8032 seed), its chain code and its place in the
/// tree. Ed25519 has no public derivation, so every step is hardened.
public struct SLIP10Ed25519Key: Sendable, CustomStringConvertible {
  private static let masterHMACKey = Array("ed25519 seed".utf8)

  /// The Ed25519 private key: the left half of the node's HMAC output.
  public let privateKey: Ed25519.PrivateKey
  /// The 32-byte chain code.
  public let chainCode: SecureBytes
  /// The number of derivation steps from the master key (0 for the master key).
  public let depth: UInt8
  /// The first 4 bytes of the parent's key identifier (zero for the master key).
  public let parentFingerprint: [UInt8]
  /// The child number this key was derived with, 2^31 added (0 for the master key).
  public let childNumber: UInt32

  private init(
    privateKey: SecureBytes, chainCode: SecureBytes, depth: UInt8, parentFingerprint: [UInt8],
    childNumber: UInt32
  ) {
    // Always 32 bytes here (half of an HMAC-SHA512 output), the only thing the initializer checks.
    self.privateKey = try! Ed25519.PrivateKey(rawRepresentation: privateKey)
    self.chainCode = chainCode
    self.depth = depth
    self.parentFingerprint = parentFingerprint
    self.childNumber = childNumber
  }

  /// The master node of `seed`: HMAC-SHA512 keyed with "ed25519 seed". Every seed length gives a
  /// valid key; BIP-39 seeds are 64 bytes, and SLIP-0010 asks for 16 to 64.
  public init(seed: SecureBytes) {
    let hmac = HMACSHA512.authenticate(key: Self.masterHMACKey, message: seed)
    self.init(
      privateKey: hmac[0..<ChildDerivation.halfByteCount], chainCode: hmac.rightHalf, depth: 0,
      parentFingerprint: [0, 0, 0, 0], childNumber: 0)
  }

  /// The descendant at `path`, taken from this node; every component must be hardened.
  public func derive(_ path: DerivationPath) throws(KeyDerivationError) -> SLIP10Ed25519Key {
    if let offset = path.components.firstIndex(where: { !$0.isHardened }) {
      throw .nonHardenedEd25519(position: offset + 1, path: path)
    }
    guard let last = path.components.last else { return self }
    guard path.components.count <= Int(UInt8.max - depth) else { throw .depthExceeded }
    return try ChildDerivation.withScratch { message in
      var key = SecureBytesSlice(privateKey.rawRepresentation)
      var code = SecureBytesSlice(chainCode)
      for component in path.components.dropLast() {
        (key, code) = Self.child(of: key, chainCode: code, component, message)
      }
      // Deriving needs no public key; only the last parent's identifies the result.
      let parentPublicKey =
        path.components.count == 1
        ? publicKey : try! Ed25519.PrivateKey(rawRepresentation: key.copied).publicKey
      (key, code) = Self.child(of: key, chainCode: code, last, message)
      return SLIP10Ed25519Key(
        privateKey: key.copied, chainCode: code.copied, depth: depth + UInt8(path.components.count),
        parentFingerprint: Self.fingerprint(parentPublicKey), childNumber: last.rawIndex)
    }
  }

  /// The direct child `component` of this node, which must be hardened.
  public func child(_ component: DerivationPath.Component) throws(KeyDerivationError)
    -> SLIP10Ed25519Key
  {
    try derive(DerivationPath(components: [component]))
  }

  private static func child(
    of key: SecureBytesSlice, chainCode: SecureBytesSlice, _ component: DerivationPath.Component,
    _ message: ChildDerivation.HardenedMessage
  ) -> (SecureBytesSlice, SecureBytesSlice) {
    let hmac = message.authenticate(
      privateKey: key, chainCode: chainCode, rawIndex: component.rawIndex)
    return (SecureBytesSlice.left(hmac), SecureBytesSlice.right(hmac))
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

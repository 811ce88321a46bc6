import CryptoPrimitives

/// A BIP-32 extended public key over secp256k1: a public key, its chain code and its place in
/// the tree. It derives non-hardened children only.
public struct ExtendedPublicKey: Sendable, Equatable, CustomStringConvertible {
  /// The secp256k1 public key `K`.
  public let publicKey: Secp256k1.PublicKey
  /// The 32-byte chain code `c`.
  public let chainCode: [UInt8]
  /// The number of derivation steps from the master key (0 for the master key).
  public let depth: UInt8
  /// The first 4 bytes of the parent's key identifier (zero for the master key).
  public let parentFingerprint: [UInt8]
  /// The child number this key was derived with, 2^31 added when hardened (0 for the master key).
  public let childNumber: UInt32
  /// The network of the version bytes, xpub (mainnet) or tpub (testnet).
  public let network: ExtendedKeyNetwork

  init(
    publicKey: Secp256k1.PublicKey, chainCode: [UInt8], depth: UInt8, parentFingerprint: [UInt8],
    childNumber: UInt32, network: ExtendedKeyNetwork
  ) {
    self.publicKey = publicKey
    self.chainCode = chainCode
    self.depth = depth
    self.parentFingerprint = parentFingerprint
    self.childNumber = childNumber
    self.network = network
  }

  /// Reads an xpub (or tpub) and checks everything BIP-32 requires of it, including that the
  /// key is a point on the curve.
  public init(serialized text: String) throws(KeyDerivationError) {
    let payload = try ExtendedKeyEncoding.decode(text)
    let header = try ExtendedKeyEncoding.header(of: payload)
    guard !header.isPrivate else { throw .expectedPublicKey }
    switch header.keyPrefix {
    case 0x02, 0x03: break
    case 0x00: throw .privateKeyDataInPublicKey
    default: throw .invalidPublicKeyPrefix(header.keyPrefix)
    }
    let bytes = payload.withUnsafeBytes { [UInt8]($0) }
    let key: Secp256k1.PublicKey
    do {
      key = try Secp256k1.PublicKey(sec1Representation: bytes[ExtendedKeyEncoding.keyDataOffset...])
    } catch {
      throw .invalidPublicKey
    }
    self.init(
      publicKey: key,
      chainCode: Array(
        bytes[ExtendedKeyEncoding.chainCodeOffset..<ExtendedKeyEncoding.keyDataOffset]),
      depth: header.depth, parentFingerprint: header.parentFingerprint,
      childNumber: header.childNumber, network: header.network)
  }

  /// The descendant at `path`, taken from this key; every component must be non-hardened.
  public func derive(_ path: DerivationPath) throws(KeyDerivationError) -> ExtendedPublicKey {
    if let offset = path.components.firstIndex(where: \.isHardened) {
      throw .hardenedFromPublicKey(position: offset + 1, path: path)
    }
    guard let last = path.components.last else { return self }
    guard path.components.count <= Int(UInt8.max - depth) else { throw .depthExceeded }
    var key = publicKey
    var code = SecureBytesSlice(SecureBytes(chainCode))
    var parentFingerprint = parentFingerprint
    for (offset, component) in path.components.enumerated() {
      if offset == path.components.count - 1 {
        parentFingerprint = ExtendedKeyEncoding.fingerprint(key.compressedRepresentation)
      }
      let hmac = ChildDerivation.normal(
        compressedPublicKey: key.compressedRepresentation, chainCode: code,
        rawIndex: component.rawIndex)
      do {
        // libsecp256k1 rejects IL ≥ n and the point at infinity, as BIP-32 requires.
        key = try key.adding(tweak: SecureBytesSlice.left(hmac))
      } catch {
        throw .invalidChild(component)
      }
      code = SecureBytesSlice.right(hmac)
    }
    return ExtendedPublicKey(
      publicKey: key, chainCode: code.withUnsafeBytes { [UInt8]($0) },
      depth: depth + UInt8(path.components.count), parentFingerprint: parentFingerprint,
      childNumber: last.rawIndex, network: network)
  }

  /// The direct non-hardened child `component` of this key.
  public func child(_ component: DerivationPath.Component) throws(KeyDerivationError)
    -> ExtendedPublicKey
  {
    try derive(DerivationPath(components: [component]))
  }

  /// The first 4 bytes of RIPEMD-160(SHA-256(compressed public key)).
  public var fingerprint: [UInt8] {
    ExtendedKeyEncoding.fingerprint(publicKey.compressedRepresentation)
  }

  /// The xpub (or tpub) text.
  public var serialized: String {
    let payload = ExtendedKeyEncoding.payload(
      network: network, isPrivate: false, depth: depth, parentFingerprint: parentFingerprint,
      childNumber: childNumber, chainCode: chainCode
    ) { keyData in
      publicKey.compressedRepresentation.withUnsafeBytes { keyData.copyMemory(from: $0) }
    }
    return ExtendedKeyEncoding.encode(payload)
  }

  /// The xpub text.
  public var description: String { serialized }
}

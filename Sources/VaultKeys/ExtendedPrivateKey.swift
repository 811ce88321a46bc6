import CryptoPrimitives
import Synchronization

/// A BIP-32 extended private key over secp256k1: a private key, its chain code and its place in
/// the tree. SLIP-0010 for secp256k1 is the same algorithm.
public struct ExtendedPrivateKey: Sendable, CustomStringConvertible {
  /// The seed lengths BIP-32 allows: 128 to 512 bits.
  public static let seedByteRange = 16...64
  private static let masterHMACKey = Array("Bitcoin seed".utf8)

  /// The secp256k1 private key `k`.
  public let privateKey: Secp256k1.PrivateKey
  /// The 32-byte chain code `c`.
  public let chainCode: SecureBytes
  /// The number of derivation steps from the master key (0 for the master key).
  public let depth: UInt8
  /// The first 4 bytes of the parent's key identifier (zero for the master key).
  public let parentFingerprint: [UInt8]
  /// The child number this key was derived with, 2^31 added when hardened (0 for the master key).
  public let childNumber: UInt32
  /// The network of the version bytes, xprv (mainnet) or tprv (testnet).
  public let network: ExtendedKeyNetwork
  /// `K = k·G`, computed on first use and shared by copies of this value.
  private let publicKeyCache = PublicKeyCache()

  init(
    privateKey: Secp256k1.PrivateKey, chainCode: SecureBytes, depth: UInt8,
    parentFingerprint: [UInt8], childNumber: UInt32, network: ExtendedKeyNetwork
  ) {
    self.privateKey = privateKey
    self.chainCode = chainCode
    self.depth = depth
    self.parentFingerprint = parentFingerprint
    self.childNumber = childNumber
    self.network = network
  }

  /// The master key of `seed` (16 to 64 bytes): HMAC-SHA512 keyed with "Bitcoin seed".
  public init(seed: SecureBytes, network: ExtendedKeyNetwork = .mainnet) throws(KeyDerivationError)
  {
    guard Self.seedByteRange.contains(seed.count) else { throw .invalidSeedLength(seed.count) }
    let hmac = HMACSHA512.authenticate(key: Self.masterHMACKey, message: seed)
    let key: Secp256k1.PrivateKey
    do {
      key = try Secp256k1.PrivateKey(rawRepresentation: hmac[0..<ChildDerivation.halfByteCount])
    } catch {
      throw .invalidMasterKey
    }
    self.init(
      privateKey: key, chainCode: hmac.rightHalf, depth: 0, parentFingerprint: [0, 0, 0, 0],
      childNumber: 0, network: network)
  }

  /// Reads an xprv (or tprv) and checks everything BIP-32 requires of it.
  public init(serialized text: String) throws(KeyDerivationError) {
    let payload = try ExtendedKeyEncoding.decode(text)
    let header = try ExtendedKeyEncoding.header(of: payload)
    guard header.isPrivate else { throw .expectedPrivateKey }
    switch header.keyPrefix {
    case 0x00: break
    case 0x02, 0x03: throw .publicKeyDataInPrivateKey
    default: throw .invalidPrivateKeyPrefix(header.keyPrefix)
    }
    let keyOffset = ExtendedKeyEncoding.keyDataOffset + 1
    let key: Secp256k1.PrivateKey
    do {
      key = try Secp256k1.PrivateKey(rawRepresentation: payload[keyOffset..<payload.count])
    } catch {
      throw .invalidPrivateKey
    }
    self.init(
      privateKey: key,
      chainCode: payload[ExtendedKeyEncoding.chainCodeOffset..<ExtendedKeyEncoding.keyDataOffset],
      depth: header.depth, parentFingerprint: header.parentFingerprint,
      childNumber: header.childNumber, network: header.network)
  }

  /// The descendant at `path`, taken from this key (`m` returns this key).
  ///
  /// Throws `invalidChild` in the rare case BIP-32 declares a child invalid.
  public func derive(_ path: DerivationPath) throws(KeyDerivationError) -> ExtendedPrivateKey {
    guard let last = path.components.last else { return self }
    guard path.components.count <= Int(UInt8.max - depth) else { throw .depthExceeded }
    return try ChildDerivation.withScratch { (message) throws(KeyDerivationError) in
      var key = privateKey
      var code = SecureBytesSlice(chainCode)
      // Public keys cost a point multiplication: only non-hardened steps need their parent's, and
      // only the last parent's identifies the result, so intermediate nodes get no fingerprint.
      // This key's own is cached, so deriving many children of one node costs none after the first.
      for (step, component) in path.components.dropLast().enumerated() {
        let parentPublicKey = step == 0 && !component.isHardened ? publicKey : nil
        (key, code) = try Self.child(
          of: key, chainCode: code, parentPublicKey: parentPublicKey, component, message)
      }
      let parentPublicKey = path.components.count == 1 ? publicKey : key.publicKey
      (key, code) = try Self.child(
        of: key, chainCode: code, parentPublicKey: parentPublicKey, last, message)
      return ExtendedPrivateKey(
        privateKey: key, chainCode: code.copied, depth: depth + UInt8(path.components.count),
        parentFingerprint: ExtendedKeyEncoding.fingerprint(
          parentPublicKey.compressedRepresentation),
        childNumber: last.rawIndex, network: network)
    }
  }

  /// The direct child `component` of this key.
  public func child(_ component: DerivationPath.Component) throws(KeyDerivationError)
    -> ExtendedPrivateKey
  {
    try derive(DerivationPath(components: [component]))
  }

  /// CKDpriv: the child's key and chain code; `parentPublicKey` is computed when needed and not given.
  private static func child(
    of key: Secp256k1.PrivateKey, chainCode: SecureBytesSlice,
    parentPublicKey: Secp256k1.PublicKey?,
    _ component: DerivationPath.Component, _ message: ChildDerivation.HardenedMessage
  ) throws(KeyDerivationError) -> (Secp256k1.PrivateKey, SecureBytesSlice) {
    let hmac =
      component.isHardened
      ? message.authenticate(
        privateKey: key.rawRepresentation, chainCode: chainCode, rawIndex: component.rawIndex)
      : ChildDerivation.normal(
        compressedPublicKey: (parentPublicKey ?? key.publicKey).compressedRepresentation,
        chainCode: chainCode, rawIndex: component.rawIndex)
    do {
      // libsecp256k1 rejects IL ≥ n and a zero sum, the two cases BIP-32 declares invalid.
      return (try key.adding(tweak: SecureBytesSlice.left(hmac)), SecureBytesSlice.right(hmac))
    } catch {
      throw .invalidChild(component)
    }
  }

  /// The public key `K = k·G` (a point multiplication on the first call, then cached).
  public var publicKey: Secp256k1.PublicKey {
    publicKeyCache.value.withLock { cached in
      if let cached { return cached }
      let key = privateKey.publicKey
      cached = key
      return key
    }
  }

  /// The Ethereum address of this key's public key, the 20 raw bytes with no text formatting.
  public var ethereumAddress: EthereumAddress { EthereumAddress(publicKey: publicKey) }

  /// The first 4 bytes of RIPEMD-160(SHA-256(compressed public key)).
  public var fingerprint: [UInt8] {
    ExtendedKeyEncoding.fingerprint(publicKey.compressedRepresentation)
  }

  /// The matching extended public key (BIP-32's neutering, N).
  public var extendedPublicKey: ExtendedPublicKey {
    ExtendedPublicKey(
      publicKey: publicKey, chainCode: chainCode.withUnsafeBytes { [UInt8]($0) }, depth: depth,
      parentFingerprint: parentFingerprint, childNumber: childNumber, network: network)
  }

  /// The xprv (or tprv) text as UTF-8. It is a secret: it holds the private key.
  public func serialized() -> SecureBytes {
    let payload = ExtendedKeyEncoding.payload(
      network: network, isPrivate: true, depth: depth, parentFingerprint: parentFingerprint,
      childNumber: childNumber, chainCode: chainCode
    ) { keyData in
      keyData[0] = 0x00
      privateKey.rawRepresentation.withUnsafeBytes {
        UnsafeMutableRawBufferPointer(rebasing: keyData[1...]).copyMemory(from: $0)
      }
    }
    return SecureBytes(utf8: ExtendedKeyEncoding.encode(payload))
  }

  /// The position in the tree, never the key.
  public var description: String {
    "ExtendedPrivateKey(depth: \(depth), child: \(DerivationPath.Component(rawIndex: childNumber)), redacted)"
  }
}

/// A public key computed once for an `ExtendedPrivateKey` and its copies. The public key is no
/// secret; the private key stays in its `SecureBytes`.
private final class PublicKeyCache: Sendable {
  let value = Mutex<Secp256k1.PublicKey?>(nil)
}

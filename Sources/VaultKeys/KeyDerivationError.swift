/// Why a BIP-32 or SLIP-0010 key could not be derived or an extended key could not be read.
public enum KeyDerivationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A BIP-32 seed must be 16 to 64 bytes.
  case invalidSeedLength(Int)
  /// The seed's HMAC gave a key that is zero or not below the group order (BIP-32: use another seed).
  case invalidMasterKey
  /// This child gives an invalid key (probability below 2^-127); BIP-32 says to skip to the next index.
  case invalidChild(DerivationPath.Component)
  /// A path would take the key beyond depth 255, the most an extended key can record.
  case depthExceeded
  /// An extended public key cannot derive a hardened child (1-based position in `path`).
  case hardenedFromPublicKey(position: Int, path: DerivationPath)
  /// Ed25519 (SLIP-0010) derives hardened children only (1-based position in `path`).
  case nonHardenedEd25519(position: Int, path: DerivationPath)
  /// The extended key text is longer than any 78-byte key can be (112 characters).
  case textTooLong(characters: Int)
  /// The extended key text has a character outside the Base58 alphabet (1-based position).
  case invalidCharacter(position: Int)
  /// The extended key's Base58Check checksum does not match: a character is wrong or missing.
  case checksumMismatch
  /// The decoded extended key is not 78 bytes.
  case invalidLength(Int)
  /// The version bytes are not those of xprv, xpub, tprv or tpub.
  case unknownVersion(UInt32)
  /// An extended private key was expected, but the text is an extended public key.
  case expectedPrivateKey
  /// An extended public key was expected, but the text is an extended private key.
  case expectedPublicKey
  /// A depth-0 (master) key names a parent fingerprint.
  case zeroDepthWithParentFingerprint
  /// A depth-0 (master) key has a non-zero child number.
  case zeroDepthWithChildNumber
  /// A private version (xprv/tprv) holds public key data (prefix 02 or 03).
  case publicKeyDataInPrivateKey
  /// A public version (xpub/tpub) holds private key data (prefix 00).
  case privateKeyDataInPublicKey
  /// The private key data does not start with 00.
  case invalidPrivateKeyPrefix(UInt8)
  /// The public key data does not start with 02 or 03.
  case invalidPublicKeyPrefix(UInt8)
  /// The private key is zero or not below the secp256k1 group order.
  case invalidPrivateKey
  /// The public key is not a point on secp256k1.
  case invalidPublicKey

  public var description: String {
    switch self {
    case .invalidSeedLength(let count):
      "a BIP-32 seed must be 16 to 64 bytes, got \(count)"
    case .invalidMasterKey:
      "this seed gives an invalid BIP-32 master key (zero or not below the group order): use another seed"
    case .invalidChild(let component):
      "child \(component) gives an invalid key (probability below 2^-127): BIP-32 says to use the next index"
    case .depthExceeded:
      "the derivation path is too long: an extended key can be at most 255 levels deep"
    case .hardenedFromPublicKey(let position, let path):
      "segment \(position) ('\(segment(position, path))') of \(path) is hardened: an extended "
        + "public key derives non-hardened children only — derive it from the extended private key"
    case .nonHardenedEd25519(let position, let path):
      "segment \(position) ('\(segment(position, path))') of \(path) is not hardened: Ed25519 "
        + "(SLIP-0010) supports hardened derivation only — write \(segment(position, path, hardened: true))"
    case .textTooLong(let count):
      "the extended key is \(count) characters long: an xprv or xpub has 111"
    case .invalidCharacter(let position):
      "character \(position) of the extended key is not Base58: check for 0, O, I, l or a stray symbol"
    case .checksumMismatch:
      "the extended key's checksum does not match: a character is mistyped, missing or extra"
    case .invalidLength(let count):
      "the extended key decodes to \(count) bytes instead of 78: it is truncated or not a BIP-32 key"
    case .unknownVersion(let version):
      "unknown extended key version 0x\(hex32(version)): expected xprv, xpub, tprv or tpub"
    case .expectedPrivateKey:
      "this is an extended public key (xpub/tpub): an extended private key (xprv/tprv) is needed"
    case .expectedPublicKey:
      "this is an extended private key (xprv/tprv): an extended public key (xpub/tpub) is needed"
    case .zeroDepthWithParentFingerprint:
      "the extended key is corrupt: a master key (depth 0) cannot have a parent fingerprint"
    case .zeroDepthWithChildNumber:
      "the extended key is corrupt: a master key (depth 0) cannot have a child number"
    case .publicKeyDataInPrivateKey:
      "the extended key is corrupt: its version says private (xprv) but it holds a public key"
    case .privateKeyDataInPublicKey:
      "the extended key is corrupt: its version says public (xpub) but it holds a private key"
    case .invalidPrivateKeyPrefix(let byte):
      "the extended key is corrupt: private key data must start with 00, not \(hex8(byte))"
    case .invalidPublicKeyPrefix(let byte):
      "the extended key is corrupt: public key data must start with 02 or 03, not \(hex8(byte))"
    case .invalidPrivateKey:
      "the extended key is corrupt: its private key is zero or not below the secp256k1 group order"
    case .invalidPublicKey:
      "the extended key is corrupt: its public key is not a point on secp256k1"
    }
  }
}

/// The component at 1-based `position` of `path`, optionally marked hardened.
private func segment(_ position: Int, _ path: DerivationPath, hardened: Bool = false) -> String {
  guard path.components.indices.contains(position - 1) else { return "?" }
  let component = path.components[position - 1]
  return hardened ? "\(component.index)'" : "\(component)"
}

private func hex8(_ byte: UInt8) -> String {
  let digits = String(byte, radix: 16)
  return byte < 0x10 ? "0" + digits : digits
}

private func hex32(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: 8 - digits.count) + digits
}

import CryptoPrimitives

/// A libp2p peer ID of an Ed25519 key, as kubo (IPFS) uses: the identity multihash of the
/// key's protobuf, since a 36-byte key is short enough to embed rather than hash.
public struct Libp2pPeerID: Sendable, Hashable, CustomStringConvertible {
  /// The peer's public key.
  public let publicKey: Ed25519.PublicKey

  /// `PublicKey { Type: Ed25519 (1), Data: 32 bytes }` in protobuf: field 1 varint, field 2 bytes.
  static let publicKeyProtobufPrefix: [UInt8] = [0x08, Libp2pKeyType.ed25519, 0x12, 0x20]
  /// The multihash code of the identity hash, which holds its input unchanged.
  static let identityMultihash: UInt8 = 0x00
  /// The multihash code of SHA2-256, which peer IDs of keys longer than 42 bytes (RSA) use.
  static let sha256Multihash: UInt8 = 0x12
  /// The CID version peer IDs use in multibase form.
  static let cidVersion: UInt8 = 0x01
  /// The multicodec of a CID naming a peer: `libp2p-key`.
  static let libp2pKeyCodec: UInt8 = 0x72

  /// The peer ID of `publicKey`.
  public init(publicKey: Ed25519.PublicKey) { self.publicKey = publicKey }

  /// The peer ID written in `text`: a base58btc multihash (`12D3KooW…`) or a multibase CIDv1 of
  /// codec `libp2p-key` (base36 `k51…`, as in IPNS names, or base58btc `z…`).
  public init(_ text: String) throws(Libp2pError) {
    let multihash: [UInt8]
    if text.hasPrefix("1") || text.hasPrefix("Qm") {
      // The spec's rule: these prefixes are bare base58btc multihashes, anything else a CID.
      guard let bytes = Base58.decode(text) else { throw .notAPeerID }
      multihash = bytes
    } else {
      guard let (_, cid) = Multibase.decode(text) else { throw .notAPeerID }
      guard cid.count >= 2, cid[0] == Self.cidVersion else { throw .notAPeerID }
      guard cid[1] == Self.libp2pKeyCodec else { throw .notALibp2pKeyCID }
      multihash = Array(cid.dropFirst(2))
    }
    try self.init(multihash: multihash)
  }

  private init(multihash: [UInt8]) throws(Libp2pError) {
    guard multihash.count >= 2 else { throw .malformed }
    guard multihash[0] != Self.sha256Multihash else { throw .hashedKey }
    guard multihash[0] == Self.identityMultihash else { throw .notAPeerID }
    let protobuf = multihash.dropFirst(2)
    guard Int(multihash[1]) == protobuf.count, protobuf.count >= 2 else { throw .malformed }
    let keyType = protobuf[protobuf.startIndex + 1]
    guard protobuf.first == 0x08, keyType < 0x80 else { throw .malformed }
    guard keyType == Libp2pKeyType.ed25519 else { throw .unsupportedKeyType(keyType) }
    guard protobuf.starts(with: Self.publicKeyProtobufPrefix),
      let key = try? Ed25519.PublicKey(rawRepresentation: Array(protobuf.dropFirst(4)))
    else { throw .malformed }
    publicKey = key
  }

  /// `08 01 12 20 ‖ public key`: the key as libp2p serialises it.
  public var publicKeyProtobuf: [UInt8] {
    Self.publicKeyProtobufPrefix + publicKey.rawRepresentation
  }

  /// The identity multihash of the key protobuf: `00 24 ‖ protobuf`.
  var multihash: [UInt8] {
    let protobuf = publicKeyProtobuf
    return [Self.identityMultihash, UInt8(protobuf.count)] + protobuf
  }

  /// The base58btc multihash, `12D3KooW…`: the form `ipfs id` prints and kubo's config holds.
  public var base58: String { Base58.encode(multihash) }

  /// The CIDv1 (`libp2p-key`) in multibase base36, `k51…`: the form of IPNS names.
  public var base36: String {
    Multibase.encode([Self.cidVersion, Self.libp2pKeyCodec] + multihash, as: .base36)
  }

  public var description: String { base58 }

  public static func == (lhs: Libp2pPeerID, rhs: Libp2pPeerID) -> Bool {
    lhs.publicKey == rhs.publicKey
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(publicKey.rawRepresentation) }
}

/// libp2p's `KeyType` protobuf enum values.
enum Libp2pKeyType {
  static let ed25519: UInt8 = 1

  /// The name of key type `value` for messages.
  static func name(_ value: UInt8) -> String {
    switch value {
    case 0: "RSA"
    case 1: "Ed25519"
    case 2: "Secp256k1"
    case 3: "ECDSA"
    default: "unknown type \(value)"
    }
  }
}

/// Why text or bytes are not a supported libp2p peer ID or private key.
public enum Libp2pError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text is neither a base58btc multihash nor a multibase CIDv1.
  case notAPeerID
  /// The text is a CID, but of content rather than of a key (codec not `libp2p-key`).
  case notALibp2pKeyCID
  /// The peer ID is a SHA-256 hash of its key (RSA keys); the key cannot be recovered from it.
  case hashedKey
  /// The key is not Ed25519 (for example secp256k1 `16Uiu2…` peer IDs).
  case unsupportedKeyType(UInt8)
  /// The embedded key protobuf is truncated or has unexpected fields.
  case malformed
  /// A private key protobuf was not `Type` and `Data` fields with a 64-byte Ed25519 key.
  case malformedPrivateKey
  /// An Ed25519 private key's data was not 64 bytes (seed ‖ public key).
  case wrongPrivateKeyLength(Int)
  /// The public key inside a private key does not belong to its seed.
  case publicKeyMismatch
  /// The private key text is not standard base64.
  case notBase64

  public var description: String {
    switch self {
    case .notAPeerID:
      "not a libp2p peer ID: expected base58btc (12D3KooW…) or a base36 CIDv1 (k51…)"
    case .notALibp2pKeyCID:
      "the CID names content, not a peer: a peer ID CID has codec libp2p-key (0x72)"
    case .hashedKey:
      "the peer ID (Qm…) is a SHA-256 hash of an RSA key; only Ed25519 peer IDs (12D3KooW…) work"
    case .unsupportedKeyType(let type):
      "the key is \(Libp2pKeyType.name(type)); only Ed25519 libp2p keys are supported"
    case .malformed:
      "the peer ID's embedded key is truncated or malformed; copy it again from its source"
    case .malformedPrivateKey:
      "the libp2p private key is not a key protobuf (08 01 12 40 …): use kubo's Identity.PrivKey"
    case .wrongPrivateKeyLength(let count):
      "an Ed25519 libp2p private key holds 64 bytes (seed and public key), this one \(count)"
    case .publicKeyMismatch:
      "the libp2p private key is corrupt: its embedded public key does not match its seed"
    case .notBase64:
      "the libp2p private key is not standard base64 text (kubo's Identity.PrivKey)"
    }
  }
}

import CryptoPrimitives

/// A Radicle node identity: an Ed25519 key written as a `did:key` (multibase base58btc of the
/// multicodec `ed25519-pub` key) and used by Radicle's SSH agent as an `ssh-ed25519` key.
public struct RadicleIdentity: Sendable, Equatable {
  /// The multicodec `ed25519-pub` (0xed) as an unsigned varint.
  static let ed25519PublicKeyCodec: [UInt8] = [0xed, 0x01]
  /// The prefix of a DID of method `key`.
  static let didPrefix = "did:key:"

  /// The node's public key.
  public let publicKey: Ed25519.PublicKey

  /// The identity of `publicKey`.
  public init(publicKey: Ed25519.PublicKey) { self.publicKey = publicKey }

  /// The identity written as a node ID (`z6Mk…`) or a DID (`did:key:z6Mk…`).
  public init(_ text: String) throws(RadicleIdentityError) {
    let nodeID =
      text.hasPrefix(Self.didPrefix) ? text.dropFirst(Self.didPrefix.count) : Substring(text)
    guard let (encoding, bytes) = Multibase.decode(nodeID), encoding == .base58btc else {
      throw .notANodeID
    }
    guard bytes.starts(with: Self.ed25519PublicKeyCodec) else { throw .notEd25519 }
    guard let key = try? Ed25519.PublicKey(rawRepresentation: Array(bytes.dropFirst(2))) else {
      throw .wrongKeyLength(bytes.count - Self.ed25519PublicKeyCodec.count)
    }
    publicKey = key
  }

  /// `z` ‖ base58btc(`ed 01` ‖ public key): the node ID `rad self --nid` prints.
  public var nodeID: String {
    Multibase.encode(Self.ed25519PublicKeyCodec + publicKey.rawRepresentation, as: .base58btc)
  }

  /// `did:key:` ‖ node ID: the form `rad self --did` prints.
  public var did: String { Self.didPrefix + nodeID }

  /// `ssh-ed25519 AAAA…`, without a comment.
  public var sshPublicKey: String { OpenSSH.authorizedKeyLine(publicKey) }

  /// `SHA256:…`, as `ssh-keygen -l` and `rad self --ssh-fingerprint` print it.
  public var sshFingerprint: String { OpenSSH.fingerprint(publicKey) }
}

/// Why text is not a Radicle node ID.
public enum RadicleIdentityError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text is not `z…` or `did:key:z…` in base58btc.
  case notANodeID
  /// The key is not marked as an Ed25519 public key (multicodec 0xed).
  case notEd25519
  /// The Ed25519 key did not have 32 bytes.
  case wrongKeyLength(Int)

  public var description: String {
    switch self {
    case .notANodeID:
      "not a Radicle node ID: expected z6Mk… or did:key:z6Mk… (base58btc)"
    case .notEd25519:
      "the did:key is not an Ed25519 key (a Radicle node ID starts with z6Mk)"
    case .wrongKeyLength(let count):
      "the node ID holds \(count) key bytes instead of 32; copy it again from its source"
    }
  }
}

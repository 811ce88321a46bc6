import CryptoPrimitives
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An `identity.json` as Ant itself would load it (`load_or_create_identity` in antd and
/// ant-ffi): the identity it holds, plus everything Ant would refuse or do differently from
/// what desktop Freedom and the iOS app expect.
///
/// Ant decodes the file with serde (member names match exactly, other members are ignored) and
/// the `hex` crate (`decode_to_slice`: no `0x` prefix, exactly 32 bytes). `libp2p_keypair`, when
/// present, is the hex of a libp2p `PrivateKey` protobuf and sets the node's PeerID; when absent
/// Ant derives a secp256k1 libp2p key from `signing_key`. `overlay_nonce` enters the overlay
/// address: keccak256(address ‖ network id (u64 LE) ‖ nonce).
public struct AntIdentityFile: Sendable {
  /// The identity the file holds (read leniently, as `AntIdentity(json:)` does).
  public let identity: AntIdentity
  /// What Ant would refuse or do differently, in file order; empty for a file as iOS writes it.
  public let problems: [AntIdentityProblem]

  /// The PeerID Ant uses for this file: from `libp2p_keypair` when it holds a readable key,
  /// else the one Ant derives from the signing key (nil for a key type it cannot name).
  public let peerID: String?

  /// Reads `json` (the bytes of an `identity.json`).
  public init(json: some ContiguousBytes) throws(AntIdentityError) {
    let identity = try AntIdentity(json: json)
    let derivedKeypair = Self.derivedLibp2pKeypair(identity.signingKey)
    let scan: Result<(problems: [AntIdentityProblem], peerID: String?), AntIdentityError> =
      json.withUnsafeBytes { raw in
        do throws(AntIdentityError) {
          return .success(try Self.scan(raw, identity: identity, derived: derivedKeypair))
        } catch {
          return .failure(error)
        }
      }
    let (problems, peerID) = try scan.get()
    self.identity = identity
    self.problems = problems
    self.peerID = peerID
  }

  /// Whether Ant would refuse to start on this file.
  public var antRefusesIt: Bool { problems.contains { $0.antRefusesIt } }

  /// The libp2p `PrivateKey` protobuf Ant derives from `signingKey` (`08 02 12 20 ‖ key`:
  /// KeyType Secp256k1 = 2, 32 data bytes), which it also writes as `libp2p_keypair` when it
  /// creates an identity itself.
  public static func derivedLibp2pKeypair(_ signingKey: Secp256k1.PrivateKey) -> SecureBytes {
    SecureBytes(count: 4 + Secp256k1.PrivateKey.byteCount) { out in
      var cursor = SecureByteCursor(out)
      cursor.append([0x08, 0x02, 0x12, 0x20])
      cursor.append(signingKey.rawRepresentation)
    }
  }

  /// The PeerID Ant derives from `signingKey`: base58btc of the identity multihash of
  /// `08 02 12 21 ‖ compressed public key` (`16Uiu2HA…`).
  public static func derivedPeerID(_ signingKey: Secp256k1.PublicKey) -> String {
    peerID(publicKeyProtobuf: [0x08, 0x02, 0x12, 0x21] + signingKey.compressedRepresentation)
  }

  private static func peerID(publicKeyProtobuf: [UInt8]) -> String {
    // libp2p inlines keys of at most 42 bytes as an identity multihash.
    Base58.encode([0x00, UInt8(publicKeyProtobuf.count)] + publicKeyProtobuf)
  }

  private static func scan(
    _ raw: UnsafeRawBufferPointer, identity: AntIdentity, derived: SecureBytes
  ) throws(AntIdentityError) -> (problems: [AntIdentityProblem], peerID: String?) {
    let root: JSONNode
    do {
      root = try JSONText.parse(raw)
    } catch {
      throw .invalidJSON(error.description)
    }
    guard case .object(let members) = root.kind else {
      throw .invalidJSON("the top level is not an object")
    }
    var problems: [AntIdentityProblem] = []
    for field in ["signing_key", "overlay_nonce"] {
      let exact = members.filter { $0.name == field }
      if exact.isEmpty { problems.append(.fieldNameCase(field: field)) }
      guard let node = exact.first?.value, JSONText.isString(node) else { continue }
      // Only the first two characters are looked at: the key itself is not copied.
      let start = node.range.lowerBound + 1
      if node.range.count >= 4, raw[start] == UInt8(ascii: "0"),
        raw[start + 1] | 0x20 == UInt8(ascii: "x")
      {
        problems.append(.hexPrefix(field: field))
      }
    }
    if identity.overlayNonce.contains(where: { $0 != 0 }) {
      let address = EthereumAddress(publicKey: identity.signingKey.publicKey)
      let overlay = try? SwarmOverlay(address: address, nonce: identity.overlayNonce)
      problems.append(.nonZeroNonce(overlay: overlay?.hex ?? ""))
    }

    let derivedPeerID = derivedPeerID(identity.signingKey.publicKey)
    let keypairs = members.filter { $0.name == "libp2p_keypair" }
    guard let node = keypairs.first?.value, !isNull(node) else {
      return (problems, derivedPeerID)
    }
    guard keypairs.count == 1, JSONText.isString(node),
      let protobuf = decodeHex(node, in: raw)
    else {
      problems.append(.unreadableLibp2pKeypair)
      return (problems, nil)
    }
    if protobuf == derived { return (problems, derivedPeerID) }
    let found = peerID(ofPrivateKeyProtobuf: protobuf)
    if found == nil, !problems.contains(.unreadableLibp2pKeypair) {
      problems.append(.unreadableLibp2pKeypair)
      return (problems, nil)
    }
    problems.append(.foreignLibp2pKeypair(peerID: found ?? "", derivedPeerID: derivedPeerID))
    return (problems, found)
  }

  private static func isNull(_ node: JSONNode) -> Bool {
    if case .null = node.kind { return true }
    return false
  }

  /// The hex string's bytes in a zeroizing buffer (the `hex` crate accepts both cases, no prefix).
  private static func decodeHex(_ node: JSONNode, in raw: UnsafeRawBufferPointer) -> SecureBytes? {
    var count = 0
    JSONText.decodeString(node, in: raw) { _ in count += 1 }
    let text = SecureBytes(count: count) { out in
      var cursor = SecureByteCursor(out)
      JSONText.decodeString(node, in: raw) { cursor.append($0) }
    }
    return text.withUnsafeBytes { digits -> SecureBytes? in
      guard digits.count % 2 == 0, digits.allSatisfy({ JSONText.hexValue($0) != nil }) else {
        return nil
      }
      return SecureBytes(count: digits.count / 2) { out in
        for k in 0..<out.count {
          out[k] = JSONText.hexValue(digits[2 * k])! << 4 | JSONText.hexValue(digits[2 * k + 1])!
        }
      }
    }
  }

  /// The PeerID of a libp2p `PrivateKey` protobuf (field 1 KeyType, field 2 Data), for the two
  /// key types whose public key fits an identity multihash: Ed25519 (Data = seed ‖ public key,
  /// 64 bytes) and secp256k1 (Data = 32-byte secret). Nil for anything else.
  private static func peerID(ofPrivateKeyProtobuf protobuf: SecureBytes) -> String? {
    protobuf.withUnsafeBytes { bytes -> String? in
      guard bytes.count >= 4, bytes[0] == 0x08, bytes[2] == 0x12,
        Int(bytes[3]) == bytes.count - 4
      else { return nil }
      let data = UnsafeRawBufferPointer(rebasing: bytes[4...])
      switch bytes[1] {
      case 0x01 where data.count == 64:
        return peerID(publicKeyProtobuf: [0x08, 0x01, 0x12, 0x20] + Array(data[32...]))
      case 0x02 where data.count == 32:
        guard let key = try? Secp256k1.PrivateKey(rawRepresentation: SecureBytes(data)) else {
          return nil
        }
        return derivedPeerID(key.publicKey)
      default:
        return nil
      }
    }
  }
}

/// One way an `identity.json` differs from what Ant, desktop Freedom and the iOS app agree on.
public enum AntIdentityProblem: Equatable, Sendable, CustomStringConvertible {
  /// A hex field starts with `0x`: Ant's hex decoder refuses it and the node does not start.
  case hexPrefix(field: String)
  /// The field is present only with other letter case: serde matches names exactly, so Ant
  /// reports it missing and does not start.
  case fieldNameCase(field: String)
  /// The overlay nonce is not zero: the node gets this overlay instead of the one desktop
  /// Freedom, bee and the iOS app compute.
  case nonZeroNonce(overlay: String)
  /// `libp2p_keypair` holds another key than the one Ant derives from the signing key: the node
  /// runs with that PeerID.
  case foreignLibp2pKeypair(peerID: String, derivedPeerID: String)
  /// `libp2p_keypair` is not a hex libp2p key Ant can load: the node does not start.
  case unreadableLibp2pKeypair

  /// Whether Ant refuses to start with this problem.
  public var antRefusesIt: Bool {
    switch self {
    case .hexPrefix, .fieldNameCase, .unreadableLibp2pKeypair: true
    case .nonZeroNonce, .foreignLibp2pKeypair: false
    }
  }

  public var description: String {
    switch self {
    case .hexPrefix(let field):
      "'\(field)' starts with 0x, which Ant refuses: the node will not start"
    case .fieldNameCase(let field):
      "'\(field)' is spelled with other letter case, so Ant does not find it: the node will not start"
    case .nonZeroNonce(let overlay):
      "the overlay nonce is not zero, so Ant's overlay is \(overlay), not the zero-nonce one"
    case .foreignLibp2pKeypair(let peerID, let derivedPeerID):
      "libp2p_keypair holds the key of \(peerID.isEmpty ? "another peer" : peerID), not the "
        + "\(derivedPeerID) Ant derives from the signing key"
    case .unreadableLibp2pKeypair:
      "libp2p_keypair is not a libp2p key Ant can read: the node will not start"
    }
  }
}

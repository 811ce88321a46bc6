import CryptoPrimitives
import VaultKeys

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
/// the `hex` crate (`decode_to_slice`: either letter case, exactly 32 bytes). antd takes every
/// field as it is; Ant's library (`AntIdentityReader.antLibrary`) first trims whitespace around
/// `signing_key` and drops one lowercase `0x` from it. `libp2p_keypair`, when present, is the hex
/// of a libp2p `PrivateKey` protobuf and sets the node's PeerID; when absent Ant derives a
/// secp256k1 libp2p key from `signing_key`. `overlay_nonce` enters the overlay address:
/// keccak256(address ‖ network id (u64 LE) ‖ nonce); a zero nonce and the one Ant's library
/// derives when it restores an identity from the key (`nonceOrigin`) are both expected, any
/// other is reported.
package struct AntIdentityFile: Sendable {
  /// The identity the file holds (read leniently, as `AntIdentity(json:)` does).
  package let identity: AntIdentity
  /// What Ant would refuse or do differently, in file order; empty for a file as iOS writes it.
  package let problems: [AntIdentityProblem]

  /// The PeerID Ant uses for this file: from `libp2p_keypair` when it holds a readable key,
  /// else the one Ant derives from the signing key (nil for a key type it cannot name).
  package let peerID: String?

  /// Where the overlay nonce came from: zero (as iOS, Android and desktop write it), derived
  /// from the key as Ant's library does when it restores an identity (`ant_identity_from_key`),
  /// or neither (reported as `nonZeroNonce`).
  package var nonceOrigin: AntIdentity.NonceOrigin { identity.nonceOrigin }

  /// Whether the file is an identity restored from the key as Ant's library does it: the
  /// derived nonce, and nothing any reader would refuse or do differently.
  package var isRestoredFromKeyAsAntLibraryDoes: Bool {
    nonceOrigin == .derivedFromKey && problems.isEmpty
  }

  /// The readers that start a node on this file (a `0x` or whitespace around `signing_key` is
  /// accepted by Ant's library only).
  package let acceptingReaders: Set<AntIdentityReader>

  /// Reads `json` (the bytes of an `identity.json`).
  package init(json: some ContiguousBytes) throws(AntIdentityError) {
    let identity = try AntIdentity(json: json)
    let derivedKeypair = Self.derivedLibp2pKeypair(identity.signingKey)
    let scan: Result<Scan, AntIdentityError> = json.withUnsafeBytes { raw in
      do throws(AntIdentityError) {
        return .success(try Self.scan(raw, identity: identity, derived: derivedKeypair))
      } catch {
        return .failure(error)
      }
    }
    let result = try scan.get()
    self.identity = identity
    self.problems = result.problems
    self.peerID = result.peerID
    var readers = Set<AntIdentityReader>()
    if !problems.contains(where: \.antRefusesIt) { readers.insert(.antd) }
    if !result.libraryRefusesIt { readers.insert(.antLibrary) }
    acceptingReaders = readers
  }

  /// Whether antd, the strictest reader, would refuse to start on this file.
  package var antRefusesIt: Bool { problems.contains { $0.antRefusesIt } }

  /// Whether `reader` starts a node on this file.
  package func isAccepted(by reader: AntIdentityReader) -> Bool {
    acceptingReaders.contains(reader)
  }

  /// The libp2p `PrivateKey` protobuf Ant derives from `signingKey` (`08 02 12 20 ‖ key`:
  /// KeyType Secp256k1 = 2, 32 data bytes), which it also writes as `libp2p_keypair` when it
  /// creates an identity itself.
  package static func derivedLibp2pKeypair(_ signingKey: Secp256k1.PrivateKey) -> SecureBytes {
    SecureBytes(count: 4 + Secp256k1.PrivateKey.byteCount) { out in
      var cursor = SecureByteCursor(out)
      cursor.append([0x08, 0x02, 0x12, 0x20])
      cursor.append(signingKey.rawRepresentation)
    }
  }

  /// The PeerID Ant derives from `signingKey`: base58btc of the identity multihash of
  /// `08 02 12 21 ‖ compressed public key` (`16Uiu2HA…`).
  package static func derivedPeerID(_ signingKey: Secp256k1.PublicKey) -> String {
    peerID(publicKeyProtobuf: [0x08, 0x02, 0x12, 0x21] + signingKey.compressedRepresentation)
  }

  private static func peerID(publicKeyProtobuf: [UInt8]) -> String {
    // libp2p inlines keys of at most 42 bytes as an identity multihash.
    Base58.encode([0x00, UInt8(publicKeyProtobuf.count)] + publicKeyProtobuf)
  }

  /// What a scan of the file found.
  private struct Scan {
    var problems: [AntIdentityProblem] = []
    var peerID: String?
    /// Whether Ant's library, more lenient than antd about `signing_key`, refuses the file.
    var libraryRefusesIt = false
  }

  private static func scan(
    _ raw: UnsafeRawBufferPointer, identity: AntIdentity, derived: SecureBytes
  ) throws(AntIdentityError) -> Scan {
    let found = try problems(raw, identity: identity, derived: derived)
    var scan = Scan(problems: found.problems, peerID: found.peerID)
    // Ant's library trims and drops a lowercase 0x from signing_key; all else as antd.
    scan.libraryRefusesIt =
      found.signingKeyHasUppercasePrefix
      || scan.problems.contains {
        switch $0 {
        case .hexPrefix(let field): field != "signing_key"
        case .whitespace: false
        default: $0.antRefusesIt
        }
      }
    return scan
  }

  private static func problems(
    _ raw: UnsafeRawBufferPointer, identity: AntIdentity, derived: SecureBytes
  ) throws(AntIdentityError) -> (
    problems: [AntIdentityProblem], peerID: String?, signingKeyHasUppercasePrefix: Bool
  ) {
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
    var uppercasePrefix = false
    for field in ["signing_key", "overlay_nonce"] {
      let exact = members.filter { $0.name == field }
      if exact.isEmpty { problems.append(.fieldNameCase(field: field)) }
      guard let node = exact.first?.value, JSONText.isString(node) else { continue }
      let shape = hexShape(node, in: raw)
      if shape.hasWhitespace { problems.append(.whitespace(field: field)) }
      if let prefix = shape.prefix {
        problems.append(.hexPrefix(field: field))
        if field == "signing_key", prefix == UInt8(ascii: "X") { uppercasePrefix = true }
      }
    }
    if identity.nonceOrigin == .other {
      problems.append(.nonZeroNonce(overlay: identity.overlay().hex))
    }

    let derivedPeerID = derivedPeerID(identity.signingKey.publicKey)
    let keypairs = members.filter { $0.name == "libp2p_keypair" }
    guard let node = keypairs.first?.value, !isNull(node) else {
      return (problems, derivedPeerID, uppercasePrefix)
    }
    guard keypairs.count == 1, JSONText.isString(node),
      let protobuf = decodeHex(node, in: raw)
    else {
      problems.append(.unreadableLibp2pKeypair)
      return (problems, nil, uppercasePrefix)
    }
    if protobuf == derived { return (problems, derivedPeerID, uppercasePrefix) }
    let found = peerID(ofPrivateKeyProtobuf: protobuf)
    if found == nil, !problems.contains(.unreadableLibp2pKeypair) {
      problems.append(.unreadableLibp2pKeypair)
      return (problems, nil, uppercasePrefix)
    }
    problems.append(.foreignLibp2pKeypair(peerID: found ?? "", derivedPeerID: derivedPeerID))
    return (problems, found, uppercasePrefix)
  }

  /// Whether a hex string has whitespace around it and which `0x` / `0X` it starts with after
  /// that (`x` or `X`, nil for none). The string is decoded into a zeroizing buffer: it may be
  /// the key.
  private static func hexShape(_ node: JSONNode, in raw: UnsafeRawBufferPointer) -> (
    hasWhitespace: Bool, prefix: UInt8?
  ) {
    var count = 0
    JSONText.decodeString(node, in: raw) { _ in count += 1 }
    let text = SecureBytes(count: count) { out in
      var cursor = SecureByteCursor(out)
      JSONText.decodeString(node, in: raw) { cursor.append($0) }
    }
    return text.withUnsafeBytes { bytes in
      var body = bytes[...]
      while let first = body.first, AntIdentity.isWhitespace(first) { body = body.dropFirst() }
      while let last = body.last, AntIdentity.isWhitespace(last) { body = body.dropLast() }
      let prefix: UInt8? =
        body.count >= 2 && body.first == UInt8(ascii: "0")
          && body[body.startIndex + 1] | 0x20 == UInt8(ascii: "x")
        ? body[body.startIndex + 1] : nil
      return (body.count != bytes.count, prefix)
    }
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

/// The programs that read an Ant `identity.json`, whose rules differ (freedom-hq/ant).
package enum AntIdentityReader: String, Sendable, CaseIterable {
  /// antd (`crates/antd`, `load_or_create_identity`): every hex field exactly as the `hex` crate
  /// decodes it — no `0x`, no whitespace.
  case antd
  /// Ant's library (`crates/ant-ffi`, `decode_identity`: the data directory's `identity.json` of
  /// `ant_init` and the host's document of `ant_init_with_identity`): `signing_key` is trimmed of
  /// whitespace and may start with a lowercase `0x`; the other fields as antd reads them.
  case antLibrary
}

/// One way an `identity.json` differs from what Ant, desktop Freedom and the iOS app agree on.
package enum AntIdentityProblem: Equatable, Sendable, CustomStringConvertible {
  /// A hex field starts with `0x`: antd's hex decoder refuses it and the node does not start;
  /// Ant's library accepts a lowercase `0x` on `signing_key` only.
  case hexPrefix(field: String)
  /// A hex field has whitespace around it: antd refuses it; Ant's library trims it from
  /// `signing_key` only.
  case whitespace(field: String)
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

  /// Whether antd, the strictest reader, refuses to start with this problem
  /// (`AntIdentityFile.isAccepted(by:)` answers for each reader).
  package var antRefusesIt: Bool {
    switch self {
    case .hexPrefix, .whitespace, .fieldNameCase, .unreadableLibp2pKeypair: true
    case .nonZeroNonce, .foreignLibp2pKeypair: false
    }
  }

  package var description: String {
    switch self {
    case .hexPrefix(let field) where field == "signing_key":
      "'signing_key' starts with 0x: antd refuses it and will not start; Ant's library accepts "
        + "a lowercase 0x"
    case .hexPrefix(let field):
      "'\(field)' starts with 0x, which Ant refuses: the node will not start"
    case .whitespace(let field) where field == "signing_key":
      "'signing_key' has spaces or line breaks around it, which antd refuses: the node will not "
        + "start (Ant's library trims them)"
    case .whitespace(let field):
      "'\(field)' has spaces or line breaks around it, which Ant refuses: the node will not start"
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

import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Ant's (the Rust Swarm client's) `identity.json`: the Swarm signing key and the overlay nonce,
/// both hex. A zero nonce gives the same overlay address as bee and desktop Freedom.
package struct AntIdentity: Sendable {
  /// Byte length of the overlay nonce.
  package static let overlayNonceByteCount = 32

  /// The Swarm secp256k1 signing key.
  package let signingKey: Secp256k1.PrivateKey
  /// The 32-byte overlay nonce.
  package let overlayNonce: [UInt8]

  /// An identity for `signingKey`, with an all-zero nonce unless one is given.
  package init(
    signingKey: Secp256k1.PrivateKey,
    overlayNonce: [UInt8] = [UInt8](repeating: 0, count: overlayNonceByteCount)
  ) throws(AntIdentityError) {
    guard overlayNonce.count == Self.overlayNonceByteCount else {
      throw .invalidLength(
        field: "overlay_nonce", expected: Self.overlayNonceByteCount, actual: overlayNonce.count)
    }
    self.signingKey = signingKey
    self.overlayNonce = overlayNonce
  }

  /// How an identity's overlay nonce is chosen when it is built from a key.
  package enum NonceRule: String, Sendable, CaseIterable {
    /// All zero: the overlay desktop Freedom, bee, iOS and Android compute.
    case zero
    /// keccak256("ant-ffi/overlay-nonce/v1" ‖ address): what Ant's library (`ant_identity_from_key`)
    /// gives an identity it rebuilds from a bare key.
    case derivedFromKey
  }

  /// Where an identity's overlay nonce came from, as far as its bytes tell.
  package enum NonceOrigin: Sendable, Equatable {
    /// All zero.
    case zero
    /// Derived from the address as Ant's library does when it restores an identity from the key.
    case derivedFromKey
    /// Anything else (a random nonce, as Ant mints for a new identity).
    case other
  }

  /// The domain separator of Ant's derived nonce (freedom-hq/ant `crates/ant-ffi/src/lib.rs`,
  /// `OVERLAY_NONCE_DOMAIN`).
  static let derivedNonceDomain = Array("ant-ffi/overlay-nonce/v1".utf8)

  /// The overlay nonce Ant's library derives for `address` when it rebuilds an identity from a
  /// bare key: keccak256 of the 24 ASCII bytes "ant-ffi/overlay-nonce/v1" followed by the 20
  /// address bytes (`identity_from_signing_key` in `crates/ant-ffi`).
  package static func derivedOverlayNonce(for address: EthereumAddress) -> [UInt8] {
    Keccak256.hash(derivedNonceDomain + address.rawRepresentation)
  }

  /// An identity for `signingKey` whose nonce follows `rule`.
  package init(signingKey: Secp256k1.PrivateKey, nonce rule: NonceRule) {
    let nonce =
      switch rule {
      case .zero: [UInt8](repeating: 0, count: Self.overlayNonceByteCount)
      case .derivedFromKey:
        Self.derivedOverlayNonce(for: EthereumAddress(publicKey: signingKey.publicKey))
      }
    self.signingKey = signingKey
    self.overlayNonce = nonce
  }

  /// Where this identity's nonce came from: zero, derived from the key's address as Ant's
  /// library does, or neither.
  package var nonceOrigin: NonceOrigin {
    if overlayNonce.allSatisfy({ $0 == 0 }) { return .zero }
    let derived = Self.derivedOverlayNonce(for: EthereumAddress(publicKey: signingKey.publicKey))
    return overlayNonce == derived ? .derivedFromKey : .other
  }

  /// The Swarm overlay this identity gives on `networkID` (mainnet unless told).
  package func overlay(networkID: UInt64 = SwarmOverlay.mainnet) -> SwarmOverlay {
    // The nonce is always 32 bytes (checked by every initializer).
    try! SwarmOverlay(
      address: EthereumAddress(publicKey: signingKey.publicKey), networkID: networkID,
      nonce: overlayNonce)
  }

  /// Reads an `identity.json`; other fields (such as `libp2p_keypair`) are ignored. As leniently
  /// as any of Ant's readers: `signing_key` may carry whitespace around it and a `0x` prefix
  /// (`AntIdentityFile` says which readers accept what).
  package init(json: some ContiguousBytes) throws(AntIdentityError) {
    let parsed: Result<(SecureBytes, [UInt8]), AntIdentityError> = json.withUnsafeBytes { raw in
      do throws(AntIdentityError) {
        return .success(try Self.fields(raw))
      } catch {
        return .failure(error)
      }
    }
    let (keyBytes, nonce) = try parsed.get()
    let key: Secp256k1.PrivateKey
    do {
      key = try Secp256k1.PrivateKey(rawRepresentation: keyBytes)
    } catch {
      throw .invalidSigningKey
    }
    try self.init(signingKey: key, overlayNonce: nonce)
  }

  private static func fields(_ raw: UnsafeRawBufferPointer) throws(AntIdentityError) -> (
    SecureBytes, [UInt8]
  ) {
    let root: JSONNode
    do {
      root = try JSONText.parse(raw)
    } catch {
      throw .invalidJSON(error.description)
    }
    guard case .object = root.kind else { throw .invalidJSON("the top level is not an object") }
    func stringNode(_ name: String) throws(AntIdentityError) -> JSONNode {
      let found = root.members(named: name)
      guard found.count <= 1 else { throw .duplicateField(name) }
      guard let node = found.first?.value else { throw .missingField(name) }
      guard JSONText.isString(node) else { throw .invalidHex(field: name) }
      return node
    }
    // The key is decoded from hex straight into a zeroizing buffer.
    let keyNode = try stringNode("signing_key")
    var count = 0
    JSONText.decodeString(keyNode, in: raw) { _ in count += 1 }
    let keyText = SecureBytes(count: count) { out in
      var cursor = SecureByteCursor(out)
      JSONText.decodeString(keyNode, in: raw) { cursor.append($0) }
    }
    guard let key = decodeHex(keyText) else { throw .invalidHex(field: "signing_key") }
    guard key.count == Secp256k1.PrivateKey.byteCount else {
      throw .invalidLength(
        field: "signing_key", expected: Secp256k1.PrivateKey.byteCount, actual: key.count)
    }
    guard let nonce = Hex.decode(JSONText.string(try stringNode("overlay_nonce"), in: raw)) else {
      throw .invalidHex(field: "overlay_nonce")
    }
    return (key, nonce)
  }

  /// Hex (whitespace around it and a `0x` allowed) decoded into a zeroizing buffer; nil unless
  /// valid.
  private static func decodeHex(_ text: SecureBytes) -> SecureBytes? {
    text.withUnsafeBytes { raw -> SecureBytes? in
      var digits = raw[...]
      while let first = digits.first, isWhitespace(first) { digits = digits.dropFirst() }
      while let last = digits.last, isWhitespace(last) { digits = digits.dropLast() }
      if digits.starts(with: "0x".utf8) || digits.starts(with: "0X".utf8) {
        digits = digits.dropFirst(2)
      }
      guard digits.count % 2 == 0, digits.allSatisfy({ JSONText.hexValue($0) != nil }) else {
        return nil
      }
      return SecureBytes(count: digits.count / 2) { out in
        var index = digits.startIndex
        for k in 0..<out.count {
          out[k] = JSONText.hexValue(digits[index])! << 4 | JSONText.hexValue(digits[index + 1])!
          index += 2
        }
      }
    }
  }

  /// The ASCII whitespace Rust's `str::trim` removes (it also removes Unicode spaces, which are
  /// not accepted here).
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }

  /// The file's bytes exactly as Freedom's iOS app writes them (`JSONEncoder` with
  /// `[.prettyPrinted, .sortedKeys]`): members sorted, two-space indentation, a space on each
  /// side of the colon and no final newline — 176 bytes for a 32-byte key and nonce:
  /// `{\n  "overlay_nonce" : "<hex>",\n  "signing_key" : "<hex>"\n}`.
  package var json: SecureBytes {
    let opening = Array("{\n  \"overlay_nonce\" : \"\(Hex.encode(overlayNonce))\",\n".utf8)
    let keyOpening = Array("  \"signing_key\" : \"".utf8)
    let closing = Array("\"\n}".utf8)
    let keyHexCount = 2 * Secp256k1.PrivateKey.byteCount
    return SecureBytes(count: opening.count + keyOpening.count + keyHexCount + closing.count) {
      out in
      var cursor = SecureByteCursor(out)
      cursor.append(opening)
      cursor.append(keyOpening)
      signingKey.rawRepresentation.withUnsafeBytes { cursor.appendHex($0) }
      cursor.append(closing)
    }
  }
}

/// Why an Ant `identity.json` could not be read.
package enum AntIdentityError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not valid JSON or not an object.
  case invalidJSON(String)
  /// A required field is absent.
  case missingField(String)
  /// A field appears twice.
  case duplicateField(String)
  /// A field is not a hex string.
  case invalidHex(field: String)
  /// A field has the wrong byte length.
  case invalidLength(field: String, expected: Int, actual: Int)
  /// `signing_key` is not a valid secp256k1 private key.
  case invalidSigningKey

  package var description: String {
    switch self {
    case .invalidJSON(let detail): "the Ant identity file is not valid JSON (\(detail))"
    case .missingField(let field): "the Ant identity file has no '\(field)' field"
    case .duplicateField(let field): "the Ant identity file has '\(field)' twice"
    case .invalidHex(let field): "'\(field)' in the Ant identity file must be a hex string"
    case .invalidLength(let field, let expected, let actual):
      "'\(field)' in the Ant identity file must be \(expected) bytes, got \(actual)"
    case .invalidSigningKey:
      "'signing_key' in the Ant identity file is not a valid secp256k1 private key"
    }
  }
}

import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The network an extended key is labelled for: its version bytes (xprv/xpub or tprv/tpub).
public enum ExtendedKeyNetwork: Sendable, Hashable {
  /// Bitcoin mainnet: `xprv` / `xpub`.
  case mainnet
  /// Bitcoin testnet: `tprv` / `tpub`.
  case testnet
}

/// The 78-byte BIP-32 serialization shared by extended private and public keys:
/// version(4) ‖ depth(1) ‖ parent fingerprint(4) ‖ child number(4) ‖ chain code(32) ‖ key data(33).
enum ExtendedKeyEncoding {
  static let payloadByteCount = 78
  /// The longest Base58Check text of a 78-byte payload (58^112 > 256^82).
  static let maximumTextLength = 112
  static let chainCodeByteCount = 32
  static let fingerprintByteCount = 4
  static let chainCodeOffset = 13
  static let keyDataOffset = 45

  private static let versions: [(UInt32, ExtendedKeyNetwork, isPrivate: Bool)] = [
    (0x0488_ADE4, .mainnet, true), (0x0488_B21E, .mainnet, false),
    (0x0435_8394, .testnet, true), (0x0435_87CF, .testnet, false),
  ]

  /// The version bytes of a key kind.
  static func version(_ network: ExtendedKeyNetwork, isPrivate: Bool) -> UInt32 {
    versions.first { $0.1 == network && $0.isPrivate == isPrivate }!.0
  }

  /// The first 4 bytes of RIPEMD-160(SHA-256(key)): BIP-32's key identifier prefix.
  static func fingerprint(_ key: some ContiguousBytes) -> [UInt8] {
    Array(RIPEMD160.hash(SHA256.hash(key)).prefix(fingerprintByteCount))
  }

  /// The fields before the chain code, validated as BIP-32 requires.
  struct Header {
    let network: ExtendedKeyNetwork
    let isPrivate: Bool
    let depth: UInt8
    let parentFingerprint: [UInt8]
    let childNumber: UInt32
    /// The first byte of the key data: 00 for a private key, 02/03 for a public key.
    let keyPrefix: UInt8
  }

  /// The 78-byte payload of Base58Check `text`, kept in a zeroizing buffer since it may hold a
  /// private key.
  static func decode(_ text: String) throws(KeyDerivationError) -> SecureBytes {
    // Base58 decoding is quadratic, so pasted junk is turned away before it.
    guard text.utf8.count <= maximumTextLength else { throw .textTooLong(characters: text.count) }
    guard var bytes = Base58.decodeCheck(text) else { throw diagnose(text) }
    defer { wipe(&bytes) }
    guard bytes.count == payloadByteCount else { throw .invalidLength(bytes.count) }
    return SecureBytes(bytes)
  }

  private static func diagnose(_ text: String) -> KeyDerivationError {
    guard var raw = Base58.decode(text) else {
      let position = text.firstIndex { Base58.decode(String($0)) == nil }.map {
        text.distance(from: text.startIndex, to: $0) + 1
      }
      return .invalidCharacter(position: position ?? 1)
    }
    defer { wipe(&raw) }
    return raw.count < 4 ? .invalidLength(0) : .checksumMismatch
  }

  /// Reads and checks the version, depth, parent fingerprint and child number of `payload`.
  static func header(of payload: SecureBytes) throws(KeyDerivationError) -> Header {
    let fields = payload.withUnsafeBytes { bytes in
      (
        version: bigEndian32(bytes, at: 0), depth: bytes[4], parentFingerprint: Array(bytes[5..<9]),
        childNumber: bigEndian32(bytes, at: 9), keyPrefix: bytes[keyDataOffset]
      )
    }
    guard let kind = versions.first(where: { $0.0 == fields.version }) else {
      throw .unknownVersion(fields.version)
    }
    if fields.depth == 0 {
      guard fields.parentFingerprint == [0, 0, 0, 0] else { throw .zeroDepthWithParentFingerprint }
      guard fields.childNumber == 0 else { throw .zeroDepthWithChildNumber }
    }
    return Header(
      network: kind.1, isPrivate: kind.isPrivate, depth: fields.depth,
      parentFingerprint: fields.parentFingerprint, childNumber: fields.childNumber,
      keyPrefix: fields.keyPrefix)
  }

  /// Writes the 78-byte payload; `keyData` is 33 bytes (00 ‖ private key, or a compressed point).
  static func payload(
    network: ExtendedKeyNetwork, isPrivate: Bool, depth: UInt8, parentFingerprint: [UInt8],
    childNumber: UInt32, chainCode: some ContiguousBytes,
    keyData: (UnsafeMutableRawBufferPointer) -> Void
  ) -> SecureBytes {
    SecureBytes(count: payloadByteCount) { out in
      storeBigEndian32(version(network, isPrivate: isPrivate), into: out, at: 0)
      out[4] = depth
      for (offset, byte) in parentFingerprint.enumerated() { out[5 + offset] = byte }
      storeBigEndian32(childNumber, into: out, at: 9)
      chainCode.withUnsafeBytes {
        UnsafeMutableRawBufferPointer(rebasing: out[chainCodeOffset..<keyDataOffset]).copyMemory(
          from: $0)
      }
      keyData(UnsafeMutableRawBufferPointer(rebasing: out[keyDataOffset...]))
    }
  }

  /// The Base58Check text of `payload`.
  ///
  /// `Base58` works on ordinary arrays and strings, so for an xprv the payload is copied into
  /// one (wiped afterwards) and the text exists briefly as a `String`.
  static func encode(_ payload: SecureBytes) -> String {
    var bytes = payload.withUnsafeBytes { [UInt8]($0) }
    defer { wipe(&bytes) }
    return Base58.encodeCheck(bytes)
  }

  static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  static func storeBigEndian32(
    _ value: UInt32, into out: UnsafeMutableRawBufferPointer, at offset: Int
  ) {
    for index in 0..<4 {
      out[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index))
    }
  }

  private static func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
  }
}

internal import CSecp256k1
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// secp256k1 keys over libsecp256k1, with the tweak operations BIP-32 needs.
public enum Secp256k1 {
  /// The library context: created and randomized once against side channels, then only read,
  /// which libsecp256k1 documents as safe from any thread.
  private final class Context: @unchecked Sendable {
    let pointer: OpaquePointer

    init() {
      guard let pointer = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE)) else {
        fatalError("libsecp256k1 could not create a context")
      }
      let seed = SecureRandom.secret(count: 32)
      let randomized = seed.withUnsafeBytes {
        secp256k1_context_randomize(pointer, $0.bytePointer)
      }
      precondition(randomized == 1, "libsecp256k1 could not randomize its context")
      self.pointer = pointer
    }
  }

  private static let shared = Context()
  fileprivate static var context: OpaquePointer { shared.pointer }

  /// A private key: 32 bytes, non-zero and below the group order.
  public struct PrivateKey: Sendable {
    /// The byte length of a private key.
    public static let byteCount = 32
    /// The big-endian scalar, in a zeroizing buffer.
    public let rawRepresentation: SecureBytes

    /// Validates `rawRepresentation` as a scalar in [1, n − 1].
    public init(rawRepresentation: SecureBytes) throws(CryptoError) {
      try requireLength("a secp256k1 private key", rawRepresentation.count, Self.byteCount)
      let valid = rawRepresentation.withUnsafeBytes {
        secp256k1_ec_seckey_verify(Secp256k1.context, $0.bytePointer)
      }
      guard valid == 1 else { throw .invalidPrivateKey }
      self.rawRepresentation = rawRepresentation
    }

    /// The matching public key.
    public var publicKey: PublicKey {
      var point = secp256k1_pubkey()
      let created = rawRepresentation.withUnsafeBytes {
        secp256k1_ec_pubkey_create(Secp256k1.context, &point, $0.bytePointer)
      }
      // The scalar was validated on construction, so creation cannot fail.
      precondition(created == 1, "secp256k1_ec_pubkey_create rejected a validated key")
      return PublicKey(point: point)
    }

    /// `(self + tweak) mod n`, the private half of a BIP-32 child derivation.
    public func adding(tweak: some ContiguousBytes) throws(CryptoError) -> PrivateKey {
      let tweakCount = tweak.withUnsafeBytes { $0.count }
      try requireLength("a secp256k1 tweak", tweakCount, 32)
      var ok: Int32 = 0
      let sum = SecureBytes(count: Self.byteCount) { out in
        rawRepresentation.withUnsafeBytes { out.copyMemory(from: $0) }
        ok = tweak.withUnsafeBytes {
          secp256k1_ec_seckey_tweak_add(
            Secp256k1.context, out.bytePointer,
            $0.bytePointer)
        }
      }
      guard ok == 1 else { throw .invalidTweak }
      return try PrivateKey(rawRepresentation: sum)
    }
  }

  /// A public key, a point on the curve.
  public struct PublicKey: Sendable, Equatable {
    /// The byte length of the compressed SEC1 encoding.
    public static let compressedByteCount = 33
    /// The byte length of the uncompressed SEC1 encoding.
    public static let uncompressedByteCount = 65

    /// The compressed SEC1 encoding, `02`/`03` ‖ x.
    public let compressedRepresentation: [UInt8]

    /// The uncompressed SEC1 encoding, `04` ‖ x ‖ y (kept so that addresses and tweaks never
    /// pay for decompressing the point again).
    public let uncompressedRepresentation: [UInt8]

    fileprivate init(point: secp256k1_pubkey) {
      compressedRepresentation = Self.serialize(point, compressed: true)
      uncompressedRepresentation = Self.serialize(point, compressed: false)
    }

    /// Parses a compressed (33-byte) or uncompressed (65-byte) SEC1 point.
    public init(sec1Representation bytes: some ContiguousBytes) throws(CryptoError) {
      let point = try Self.parse(bytes)
      self.init(point: point)
    }

    /// `self + tweak·G`, the public half of a BIP-32 child derivation.
    public func adding(tweak: some ContiguousBytes) throws(CryptoError) -> PublicKey {
      let tweakCount = tweak.withUnsafeBytes { $0.count }
      try requireLength("a secp256k1 tweak", tweakCount, 32)
      var point = try! Self.parse(uncompressedRepresentation)
      let ok = tweak.withUnsafeBytes {
        secp256k1_ec_pubkey_tweak_add(Secp256k1.context, &point, $0.bytePointer)
      }
      guard ok == 1 else { throw .invalidTweak }
      return PublicKey(point: point)
    }

    private static func parse(_ bytes: some ContiguousBytes) throws(CryptoError) -> secp256k1_pubkey
    {
      var point = secp256k1_pubkey()
      let ok = bytes.withUnsafeBytes { input -> Int32 in
        guard input.count == compressedByteCount || input.count == uncompressedByteCount else {
          return 0
        }
        return secp256k1_ec_pubkey_parse(
          Secp256k1.context, &point, input.bytePointer, input.count)
      }
      guard ok == 1 else { throw .invalidPublicKey }
      return point
    }

    private static func serialize(_ point: secp256k1_pubkey, compressed: Bool) -> [UInt8] {
      var point = point
      var length = compressed ? compressedByteCount : uncompressedByteCount
      var out = [UInt8](repeating: 0, count: length)
      let flags = UInt32(compressed ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED)
      let ok = secp256k1_ec_pubkey_serialize(Secp256k1.context, &out, &length, &point, flags)
      precondition(ok == 1, "secp256k1_ec_pubkey_serialize failed on a parsed point")
      return out
    }
  }
}

internal import CSodium

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Ed25519 keys from libsodium: a 32-byte seed (SLIP-0010's private key) and its public key.
public enum Ed25519 {
  /// An Ed25519 private key, kept as its 32-byte seed.
  public struct PrivateKey: Sendable {
    /// The byte length of the seed.
    public static let byteCount = 32
    /// The 32-byte seed (RFC 8032's private key).
    public let rawRepresentation: SecureBytes
    /// The 32-byte public key A.
    public let publicKey: PublicKey

    /// The key whose seed is `rawRepresentation`.
    public init(rawRepresentation: SecureBytes) throws(CryptoError) {
      try requireLength("an Ed25519 seed", rawRepresentation.count, Self.byteCount)
      _ = Sodium.ready
      var publicKey = [UInt8](repeating: 0, count: PublicKey.byteCount)
      // libsodium's 64-byte secret key (seed ‖ public key) is only needed transiently.
      _ = SecureBytes(count: Int(crypto_sign_ed25519_SECRETKEYBYTES)) { secretKey in
        rawRepresentation.withUnsafeBytes { seed in
          _ = crypto_sign_ed25519_seed_keypair(
            &publicKey, secretKey.bytePointer,
            seed.bytePointer)
        }
      }
      self.rawRepresentation = rawRepresentation
      self.publicKey = PublicKey(uncheckedBytes: publicKey)
    }
  }

  /// The 32-byte public key of the 32-byte seed at `seed`, written to `publicKey`, with no
  /// allocation (the recovery search's inner loop); libsodium's secret key is wiped.
  package static func publicKey(seed: UnsafeRawPointer, into publicKey: UnsafeMutableRawPointer) {
    _ = Sodium.ready
    withUnsafeTemporaryAllocation(
      byteCount: Int(crypto_sign_ed25519_SECRETKEYBYTES), alignment: 16
    ) { secretKey in
      _ = crypto_sign_ed25519_seed_keypair(
        publicKey.assumingMemoryBound(to: UInt8.self), secretKey.bytePointer,
        seed.assumingMemoryBound(to: UInt8.self))
      sodium_memzero(secretKey.baseAddress!, secretKey.count)
    }
  }

  /// An Ed25519 public key.
  public struct PublicKey: Sendable, Equatable {
    /// The byte length of a public key.
    public static let byteCount = 32
    /// The 32-byte encoded point.
    public let rawRepresentation: [UInt8]

    init(uncheckedBytes: [UInt8]) { rawRepresentation = uncheckedBytes }

    /// A public key from its 32-byte encoding (only the length is checked).
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
      try requireLength("an Ed25519 public key", rawRepresentation.count, Self.byteCount)
      self.rawRepresentation = rawRepresentation
    }
  }
}

internal import CSodium

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// SHA-256 (FIPS 180-4), from libsodium.
public enum SHA256 {
  /// The digest length in bytes.
  public static let byteCount = 32

  /// The SHA-256 digest of `data`.
  public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
    _ = Sodium.ready
    var digest = [UInt8](repeating: 0, count: byteCount)
    data.withUnsafeBytes { input in
      _ = crypto_hash_sha256(&digest, input.bytePointer, UInt64(input.count))
    }
    return digest
  }
}

/// SHA-512 (FIPS 180-4), from libsodium.
public enum SHA512 {
  /// The digest length in bytes.
  public static let byteCount = 64

  /// The SHA-512 digest of `data`.
  public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
    _ = Sodium.ready
    var digest = [UInt8](repeating: 0, count: byteCount)
    data.withUnsafeBytes { input in
      _ = crypto_hash_sha512(&digest, input.bytePointer, UInt64(input.count))
    }
    return digest
  }
}

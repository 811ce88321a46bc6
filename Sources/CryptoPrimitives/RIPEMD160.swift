internal import COpenSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// RIPEMD-160, from OpenSSL libcrypto (libsodium has none); BIP-32 fingerprints need it.
public enum RIPEMD160 {
  /// The digest length in bytes.
  public static let byteCount = 20

  /// The RIPEMD-160 digest of `data`.
  public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: byteCount)
    data.withUnsafeBytes { input in
      _ = COpenSSL.RIPEMD160(input.bytePointer, input.count, &digest)
    }
    return digest
  }
}

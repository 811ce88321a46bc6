internal import COpenSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// SHA3-256 (FIPS 202), from OpenSSL libcrypto. Not Ethereum's Keccak-256: the two differ in the
/// padding byte (`0x06` here, `0x01` there). Bee's key files written before 2022 used it for
/// the Web3 Secret Storage MAC.
public enum SHA3_256 {
  /// The digest length in bytes.
  public static let byteCount = 32

  /// The SHA3-256 digest of `data`.
  public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: byteCount)
    var written = 0
    let status = data.withUnsafeBytes { input in
      EVP_Q_digest(nil, "SHA3-256", nil, input.baseAddress, input.count, &digest, &written)
    }
    // The algorithm is built into OpenSSL 3's default provider; failing to fetch it means a
    // broken libcrypto installation, not bad input.
    precondition(
      status == 1 && written == byteCount, "OpenSSL has no SHA3-256 (EVP_Q_digest failed)")
    return digest
  }
}

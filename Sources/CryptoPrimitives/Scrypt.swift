internal import CSodium
import FoundationEssentials

/// scrypt (RFC 7914) from libsodium's `crypto_pwhash_scryptsalsa208sha256_ll`.
public enum Scrypt {
  /// The derived key for `password` and `salt` with cost `n` (a power of two), block size `r`
  /// and parallelism `p`.
  public static func deriveKey(
    password: some ContiguousBytes, salt: some ContiguousBytes, n: UInt64, r: UInt32, p: UInt32,
    keyByteCount: Int
  ) throws(CryptoError) -> SecureBytes {
    guard n > 1, n & (n - 1) == 0, r > 0, p > 0 else { throw .invalidScryptParameters }
    _ = Sodium.ready
    var status: Int32 = -1
    let key = SecureBytes(count: keyByteCount) { out in
      password.withUnsafeBytes { password in
        salt.withUnsafeBytes { salt in
          status = crypto_pwhash_scryptsalsa208sha256_ll(
            password.bytePointer, password.count,
            salt.bytePointer, salt.count, n, r, p,
            out.bytePointer, out.count)
        }
      }
    }
    guard status == 0 else { throw .invalidScryptParameters }
    return key
  }
}

/// Failures of the primitives: an input of the wrong shape, or a value the library rejects.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A key, IV or tweak had the wrong number of bytes.
  case invalidLength(what: String, expected: Int, actual: Int)
  /// A secp256k1 private key was zero or not below the curve order.
  case invalidPrivateKey
  /// Bytes did not encode a point on secp256k1.
  case invalidPublicKey
  /// A BIP-32 tweak produced an invalid key (probability below 2^-127; the index is skipped).
  case invalidTweak
  /// scrypt parameters were rejected (N must be a power of two above 1; memory must be available).
  case invalidScryptParameters
  /// scrypt would allocate `needed` bytes, more than the `limit` (counted as libsodium does).
  case scryptMemoryLimit(needed: UInt64, limit: UInt64)
  /// An authentication tag did not verify: wrong key or altered data.
  case authenticationFailed
  /// A library call failed unexpectedly.
  case libraryFailure(String)

  public var description: String {
    switch self {
    case .invalidLength(let what, let expected, let actual):
      "\(what) must be \(expected) bytes, got \(actual)"
    case .invalidPrivateKey: "the private key is zero or not below the secp256k1 group order"
    case .invalidPublicKey: "the bytes are not a valid secp256k1 public key"
    case .invalidTweak: "the derived key is invalid for this index (use the next index)"
    case .invalidScryptParameters:
      "scrypt parameters rejected: N must be a power of two greater than 1"
    case .scryptMemoryLimit(let needed, let limit):
      "scrypt needs \(needed >> 20) MiB of memory; the limit is \(limit >> 20) MiB"
    case .authenticationFailed: "authentication failed: wrong key or altered data"
    case .libraryFailure(let call): "\(call) failed"
    }
  }
}

/// Throws `invalidLength` unless `count == expected`.
func requireLength(_ what: String, _ count: Int, _ expected: Int) throws(CryptoError) {
  guard count == expected else {
    throw .invalidLength(what: what, expected: expected, actual: count)
  }
}

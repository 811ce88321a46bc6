internal import CSodium

/// Cryptographically secure random bytes from libsodium (`getrandom` on Linux).
public enum SecureRandom {
  /// `count` random bytes in a zeroizing buffer, for entropy and keys.
  public static func secret(count: Int) -> SecureBytes {
    _ = Sodium.ready
    return SecureBytes(count: count) { randombytes_buf($0.rawPointer, $0.count) }
  }

  /// `count` random bytes that are not secret (salts, IVs, UUIDs).
  public static func bytes(count: Int) -> [UInt8] {
    _ = Sodium.ready
    var out = [UInt8](repeating: 0, count: count)
    out.withUnsafeMutableBytes { randombytes_buf($0.rawPointer, $0.count) }
    return out
  }
}

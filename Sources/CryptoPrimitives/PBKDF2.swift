import Foundation
internal import CSodium

/// PBKDF2 (RFC 8018) over HMAC-SHA512 (BIP-39 seeds) and HMAC-SHA256 (keystores, vaults).
///
/// The password is keyed into the HMAC state once; every iteration copies that state, so an
/// iteration costs two hash compressions, the floor for PBKDF2.
public enum PBKDF2 {
  /// PBKDF2-HMAC-SHA512.
  public static func hmacSHA512(
    password: some ContiguousBytes, salt: some ContiguousBytes, iterations: Int, keyByteCount: Int
  ) -> SecureBytes {
    derive(OpenSSLHMACSHA512.self, password, salt, iterations, keyByteCount)
  }

  /// PBKDF2-HMAC-SHA256.
  public static func hmacSHA256(
    password: some ContiguousBytes, salt: some ContiguousBytes, iterations: Int, keyByteCount: Int
  ) -> SecureBytes {
    derive(SodiumHMACSHA256.self, password, salt, iterations, keyByteCount)
  }

  private static func derive<MAC: HMACState>(
    _: MAC.Type, _ password: some ContiguousBytes, _ salt: some ContiguousBytes,
    _ iterations: Int, _ keyByteCount: Int
  ) -> SecureBytes {
    precondition(iterations >= 1 && keyByteCount >= 0, "PBKDF2 needs at least one iteration")
    let h = MAC.byteCount
    var keyed = password.withUnsafeBytes { MAC(key: $0) }
    defer { keyed.wipe() }
    // u holds U_j, t the running XOR T_i; both are wiped on release.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * h, alignment: 16)
    defer {
      sodium_memzero(scratch.rawPointer, scratch.count)
      scratch.deallocate()
    }
    let u = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<h])
    let t = UnsafeMutableRawBufferPointer(rebasing: scratch[h..<2 * h])

    return SecureBytes(count: keyByteCount) { out in
      var offset = 0
      var block: UInt32 = 1
      while offset < keyByteCount {
        var state = keyed
        salt.withUnsafeBytes { state.update($0) }
        withUnsafeBytes(of: block.bigEndian) { state.update($0) }
        state.finalize(into: u)
        t.copyMemory(from: UnsafeRawBufferPointer(u))
        for _ in 1..<iterations {
          state = keyed
          state.update(UnsafeRawBufferPointer(u))
          state.finalize(into: u)
          for w in stride(from: 0, to: h, by: 8) {
            let x = t.load(fromByteOffset: w, as: UInt64.self) ^ u.load(fromByteOffset: w, as: UInt64.self)
            t.storeBytes(of: x, toByteOffset: w, as: UInt64.self)
          }
        }
        let take = min(h, keyByteCount - offset)
        UnsafeMutableRawBufferPointer(rebasing: out[offset..<offset + take])
          .copyMemory(from: UnsafeRawBufferPointer(rebasing: t[0..<take]))
        offset += take
        block += 1
      }
    }
  }
}

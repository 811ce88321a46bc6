internal import CSodium

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A keyed HMAC state whose value can be copied, so a key is processed once and reused
/// (PBKDF2 runs thousands of MACs under one key).
protocol HMACState {
  static var byteCount: Int { get }
  init(key: UnsafeRawBufferPointer)
  mutating func update(_ data: UnsafeRawBufferPointer)
  /// Writes the tag to `out` and wipes the state.
  mutating func finalize(into out: UnsafeMutableRawBufferPointer)
  mutating func wipe()
}

extension HMACState {
  static func authenticate(key: some ContiguousBytes, message: some ContiguousBytes) -> SecureBytes
  {
    SecureBytes(count: byteCount) { out in
      var state = key.withUnsafeBytes { Self(key: $0) }
      message.withUnsafeBytes { state.update($0) }
      state.finalize(into: out)
    }
  }
}

struct SodiumHMACSHA512: HMACState {
  static let byteCount = 64
  private var state = crypto_auth_hmacsha512_state()

  init(key: UnsafeRawBufferPointer) {
    _ = Sodium.ready
    crypto_auth_hmacsha512_init(&state, key.bytePointer, key.count)
  }
  mutating func update(_ data: UnsafeRawBufferPointer) {
    crypto_auth_hmacsha512_update(&state, data.bytePointer, UInt64(data.count))
  }
  mutating func finalize(into out: UnsafeMutableRawBufferPointer) {
    crypto_auth_hmacsha512_final(&state, out.bytePointer)
    wipe()
  }
  mutating func wipe() { sodium_memzero(&state, MemoryLayout.size(ofValue: state)) }
}

struct SodiumHMACSHA256: HMACState {
  static let byteCount = 32
  private var state = crypto_auth_hmacsha256_state()

  init(key: UnsafeRawBufferPointer) {
    _ = Sodium.ready
    crypto_auth_hmacsha256_init(&state, key.bytePointer, key.count)
  }
  mutating func update(_ data: UnsafeRawBufferPointer) {
    crypto_auth_hmacsha256_update(&state, data.bytePointer, UInt64(data.count))
  }
  mutating func finalize(into out: UnsafeMutableRawBufferPointer) {
    crypto_auth_hmacsha256_final(&state, out.bytePointer)
    wipe()
  }
  mutating func wipe() { sodium_memzero(&state, MemoryLayout.size(ofValue: state)) }
}

/// HMAC-SHA512 (RFC 2104), from libsodium. Its tags key BIP-32 and SLIP-0010 nodes, so they
/// are returned as secrets.
public enum HMACSHA512 {
  /// The tag length in bytes.
  public static let byteCount = 64

  /// HMAC-SHA512 of `message` under `key`.
  public static func authenticate(key: some ContiguousBytes, message: some ContiguousBytes)
    -> SecureBytes
  {
    SodiumHMACSHA512.authenticate(key: key, message: message)
  }
}

/// HMAC-SHA256 (RFC 2104), from libsodium.
public enum HMACSHA256 {
  /// The tag length in bytes.
  public static let byteCount = 32

  /// HMAC-SHA256 of `message` under `key`.
  public static func authenticate(key: some ContiguousBytes, message: some ContiguousBytes)
    -> SecureBytes
  {
    SodiumHMACSHA256.authenticate(key: key, message: message)
  }
}

internal import COpenSSL
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

extension HMACSHA512 {
  /// The byte length of a key's pad states: the SHA-512 chaining states after K ⊕ ipad and
  /// after K ⊕ opad, 64 bytes each.
  package static let padsByteCount = 128
  /// The longest message `authenticate(_:pads:into:)` takes: what one padded block holds.
  package static let maxOneBlockMessageByteCount = 111

  /// Keys an HMAC once for many short messages (a BIP-32 parent's children, every seed under
  /// "Bitcoin seed"): writes `key`'s pad states to `pads`. The compressions are OpenSSL's
  /// (assembly, about twice as fast as libsodium's portable C); the working block is wiped.
  package static func preparePads(key: UnsafeRawBufferPointer, into pads: UnsafeMutableRawPointer) {
    typealias H = OpenSSLSHA512
    withWorkspace { context, block in
      if key.count > H.blockByteCount {
        H.hash(key, into: block)
      } else if key.count > 0 {
        block.copyMemory(from: key.baseAddress!, byteCount: key.count)
      }
      // K ⊕ ipad, then (K ⊕ ipad) ⊕ (ipad ⊕ opad) = K ⊕ opad, a word at a time (the block is
      // 64-byte aligned); each compressed from the initial state.
      func compress(xoring pad: UInt64, into state: UnsafeMutableRawPointer) {
        for offset in stride(from: 0, to: H.blockByteCount, by: 8) {
          let word = block.load(fromByteOffset: offset, as: UInt64.self)
          block.storeBytes(of: word ^ pad, toByteOffset: offset, as: UInt64.self)
        }
        H.initialize(context)
        H.compress(context, block)
        state.copyMemory(
          from: UnsafeRawPointer(context) + H.stateOffset, byteCount: H.digestByteCount)
      }
      compress(xoring: 0x3636_3636_3636_3636, into: pads)
      compress(
        xoring: 0x3636_3636_3636_3636 ^ 0x5c5c_5c5c_5c5c_5c5c, into: pads + H.digestByteCount)
    }
  }

  /// HMAC-SHA512 of a message of at most `maxOneBlockMessageByteCount` bytes under the key
  /// whose `pads` `preparePads` wrote: two compressions, the 64-byte tag written to `tag`.
  package static func authenticate(
    _ message: UnsafeRawBufferPointer, pads: UnsafeRawPointer, into tag: UnsafeMutableRawPointer
  ) {
    typealias H = OpenSSLSHA512
    precondition(message.count <= maxOneBlockMessageByteCount, "the message exceeds one block")
    withWorkspace { context, block in
      // Inner: (K ⊕ ipad) is already compressed, so the message is the one block left.
      if message.count > 0 {
        block.copyMemory(from: message.baseAddress!, byteCount: message.count)
      }
      compressLast(context, block, state: pads, length: message.count, into: block)
      // Outer: the inner digest (now at the start of `block`), padded, after (K ⊕ opad).
      compressLast(
        context, block, state: pads + H.digestByteCount, length: H.digestByteCount, into: tag)
    }
  }

  /// Pads the `length` message bytes at the start of `block` as the second block of a hash
  /// whose first block left `state`, compresses it, and writes the digest to `digest` (which may
  /// be `block`).
  private static func compressLast(
    _ context: UnsafeMutablePointer<SHA512_CTX>, _ block: UnsafeMutableRawPointer,
    state: UnsafeRawPointer, length: Int, into digest: UnsafeMutableRawPointer
  ) {
    typealias H = OpenSSLSHA512
    (block + length).initializeMemory(
      as: UInt8.self, repeating: 0, count: H.blockByteCount - length)
    block.storeBytes(of: 0x80, toByteOffset: length, as: UInt8.self)
    let bits = UInt64(H.blockByteCount + length) * 8
    block.storeBytes(of: bits.bigEndian, toByteOffset: H.blockByteCount - 8, as: UInt64.self)
    let words = UnsafeMutableRawPointer(context) + H.stateOffset
    words.copyMemory(from: state, byteCount: H.digestByteCount)
    H.compress(context, block)
    for i in 0..<(H.digestByteCount / 8) {
      let word = words.load(fromByteOffset: 8 * i, as: UInt64.self)
      digest.storeBytes(of: word.bigEndian, toByteOffset: 8 * i, as: UInt64.self)
    }
  }

  /// A SHA-512 context and a one-block buffer on the stack, zeroed, wiped after `body`.
  private static func withWorkspace(
    _ body: (UnsafeMutablePointer<SHA512_CTX>, UnsafeMutableRawPointer) -> Void
  ) {
    let contextBytes = (MemoryLayout<SHA512_CTX>.stride + 63) & ~63
    withUnsafeTemporaryAllocation(
      byteCount: contextBytes + OpenSSLSHA512.blockByteCount, alignment: 64
    ) { buffer in
      let base = buffer.baseAddress!
      base.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
      defer { sodium_memzero(base, buffer.count) }
      body(base.bindMemory(to: SHA512_CTX.self, capacity: 1), base + contextBytes)
    }
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

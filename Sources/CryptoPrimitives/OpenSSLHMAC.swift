internal import COpenSSL
internal import CSodium

/// HMAC-SHA512 over OpenSSL's assembly SHA-512, for PBKDF2's hot loop: libsodium's portable C
/// SHA-512 measured ~1.6× slower here (see the benchmark).
struct OpenSSLHMACSHA512: HMACState {
  static let byteCount = 64
  private static let blockCount = 128
  private var inner = SHA512_CTX()
  private var outer = SHA512_CTX()

  init(key: UnsafeRawBufferPointer) {
    var block = [UInt8](repeating: 0, count: Self.blockCount)
    defer { sodium_memzero(&block, block.count) }
    if key.count > Self.blockCount {
      _ = COpenSSL.SHA512(key.bytePointer, key.count, &block)
    } else if key.count > 0 {
      block.withUnsafeMutableBytes { $0.copyMemory(from: key) }
    }
    for i in 0..<Self.blockCount { block[i] ^= 0x36 }
    SHA512_Init(&inner)
    SHA512_Update(&inner, block, block.count)
    for i in 0..<Self.blockCount { block[i] ^= 0x36 ^ 0x5c }
    SHA512_Init(&outer)
    SHA512_Update(&outer, block, block.count)
  }

  mutating func update(_ data: UnsafeRawBufferPointer) {
    SHA512_Update(&inner, data.baseAddress, data.count)
  }

  mutating func finalize(into out: UnsafeMutableRawBufferPointer) {
    SHA512_Final(out.bytePointer, &inner)
    SHA512_Update(&outer, out.baseAddress, Self.byteCount)
    SHA512_Final(out.bytePointer, &outer)
    wipe()
  }

  mutating func wipe() {
    sodium_memzero(&inner, MemoryLayout<SHA512_CTX>.size)
    sodium_memzero(&outer, MemoryLayout<SHA512_CTX>.size)
  }
}

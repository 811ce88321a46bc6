internal import CSodium

/// Keccak-256 as Ethereum uses it: the original Keccak submission with multi-rate padding
/// `0x01 … 0x80`, not FIPS 202 SHA3-256 (`0x06`). No system library here ships it, so it is
/// implemented from the Keccak reference specification.
public enum Keccak256 {
  /// The digest length in bytes.
  public static let byteCount = 32
  /// The sponge rate in bytes: 1600 − 2 × 256 bits.
  static let rate = 136

  /// The Keccak-256 digest of `data`.
  public static func hash(_ data: some Sequence<UInt8>) -> [UInt8] {
    if let digest = data.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) {
      return digest
    }
    return Array(data).withUnsafeBytes { hash($0) }
  }

  static func hash(_ data: UnsafeRawBufferPointer) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
      hash(data, into: UnsafeMutableRawPointer(out.baseAddress!))
      initialized = byteCount
    }
  }

  /// The digest of `data` written to the `byteCount` bytes at `digest`, with no allocation:
  /// the sponge runs over a state, a scratch and a padded last block on the stack, wiped
  /// afterwards (a keystore MAC absorbs key bytes).
  package static func hash(_ data: UnsafeRawBufferPointer, into digest: UnsafeMutableRawPointer) {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 25 + 25 + 5 + rate / 8) { buffer in
      let base = buffer.baseAddress!
      base.initialize(repeating: 0, count: buffer.count)
      defer { sodium_memzero(base, buffer.count * 8) }
      let state = base
      let scratch = base + 25
      let lastBlock = UnsafeMutableRawPointer(base + 55)
      var offset = 0
      while data.count - offset >= rate {
        absorb(UnsafeRawPointer(data.baseAddress!) + offset, into: state, scratch)
        offset += rate
      }
      let tail = data.count - offset
      if tail > 0 { lastBlock.copyMemory(from: data.baseAddress! + offset, byteCount: tail) }
      lastBlock.storeBytes(of: 0x01, toByteOffset: tail, as: UInt8.self)
      let last = lastBlock.load(fromByteOffset: rate - 1, as: UInt8.self)
      lastBlock.storeBytes(of: last | 0x80, toByteOffset: rate - 1, as: UInt8.self)
      absorb(UnsafeRawPointer(lastBlock), into: state, scratch)
      for lane in 0..<4 {
        digest.storeBytes(of: state[lane].littleEndian, toByteOffset: 8 * lane, as: UInt64.self)
      }
    }
  }

  /// XORs one `rate`-byte block into the state (lanes little-endian) and permutes.
  @inline(__always)
  private static func absorb(
    _ block: UnsafeRawPointer, into state: UnsafeMutablePointer<UInt64>,
    _ scratch: UnsafeMutablePointer<UInt64>
  ) {
    for i in 0..<(rate / 8) {
      state[i] ^= UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
    }
    permute(state, scratch)
  }

  private static let roundConstants: [UInt64] = [
    0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808A, 0x8000_0000_8000_8000,
    0x0000_0000_0000_808B, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
    0x0000_0000_0000_008A, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000A,
    0x0000_0000_8000_808B, 0x8000_0000_0000_008B, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
    0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800A, 0x8000_0000_8000_000A,
    0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
  ]

  /// Keccak-f[1600]: 24 rounds of θ, ρ, π, χ, ι over lanes indexed a[x + 5y]; `b` is 30
  /// words of scratch (B, then C).
  static func permute(_ a: UnsafeMutablePointer<UInt64>, _ b: UnsafeMutablePointer<UInt64>) {
    let c = b + 25
    for round in 0..<24 {
      for x in 0..<5 { c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] }
      for x in 0..<5 {
        let d = c[(x + 4) % 5] ^ rotate(c[(x + 1) % 5], 1)
        for y in stride(from: 0, to: 25, by: 5) { a[y + x] ^= d }
      }
      // ρ and π: B[y, 2x + 3y] = rot(A[x, y], r[x, y]), written out for each (x, y) with the
      // rotation offsets r of the reference specification.
      b[0] = a[0]
      b[16] = rotate(a[5], 36)
      b[7] = rotate(a[10], 3)
      b[23] = rotate(a[15], 41)
      b[14] = rotate(a[20], 18)
      b[10] = rotate(a[1], 1)
      b[1] = rotate(a[6], 44)
      b[17] = rotate(a[11], 10)
      b[8] = rotate(a[16], 45)
      b[24] = rotate(a[21], 2)
      b[20] = rotate(a[2], 62)
      b[11] = rotate(a[7], 6)
      b[2] = rotate(a[12], 43)
      b[18] = rotate(a[17], 15)
      b[9] = rotate(a[22], 61)
      b[5] = rotate(a[3], 28)
      b[21] = rotate(a[8], 55)
      b[12] = rotate(a[13], 25)
      b[3] = rotate(a[18], 21)
      b[19] = rotate(a[23], 56)
      b[15] = rotate(a[4], 27)
      b[6] = rotate(a[9], 20)
      b[22] = rotate(a[14], 39)
      b[13] = rotate(a[19], 8)
      b[4] = rotate(a[24], 14)
      for y in stride(from: 0, to: 25, by: 5) {
        for x in 0..<5 { a[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]) }
      }
      a[0] ^= roundConstants[round]
    }
  }

  @inline(__always)
  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value &<< count) | (value &>> (64 &- count))
  }
}

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
    var sponge = Sponge()
    sponge.absorb(data)
    return sponge.squeeze()
  }

  struct Sponge {
    private var state = [UInt64](repeating: 0, count: 25)
    private var block = [UInt8](repeating: 0, count: Keccak256.rate)
    private var filled = 0

    mutating func absorb(_ bytes: some Sequence<UInt8>) {
      for byte in bytes {
        block[filled] = byte
        filled += 1
        if filled == Keccak256.rate { absorbBlock() }
      }
    }

    mutating func squeeze() -> [UInt8] {
      for i in filled..<Keccak256.rate { block[i] = 0 }
      block[filled] |= 0x01
      block[Keccak256.rate - 1] |= 0x80
      absorbBlock()
      var out = [UInt8]()
      out.reserveCapacity(Keccak256.byteCount)
      for lane in state[0..<4] {
        withUnsafeBytes(of: lane.littleEndian) { out.append(contentsOf: $0) }
      }
      return out
    }

    private mutating func absorbBlock() {
      block.withUnsafeBytes { bytes in
        for i in 0..<(Keccak256.rate / 8) {
          state[i] ^= UInt64(
            littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
        }
      }
      filled = 0
      Keccak256.permute(&state)
    }
  }

  private static let roundConstants: [UInt64] = [
    0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808A, 0x8000_0000_8000_8000,
    0x0000_0000_0000_808B, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
    0x0000_0000_0000_008A, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000A,
    0x0000_0000_8000_808B, 0x8000_0000_0000_008B, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
    0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800A, 0x8000_0000_8000_000A,
    0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
  ]

  /// Rotation offsets r[x + 5y] of the ρ step.
  private static let rotations: [UInt64] = [
    0, 1, 62, 28, 27,
    36, 44, 6, 55, 20,
    3, 10, 43, 25, 39,
    41, 45, 15, 21, 8,
    18, 2, 61, 56, 14,
  ]

  /// Keccak-f[1600]: 24 rounds of θ, ρ, π, χ, ι over lanes indexed a[x + 5y].
  static func permute(_ a: inout [UInt64]) {
    var b = [UInt64](repeating: 0, count: 25)
    var c = [UInt64](repeating: 0, count: 5)
    for round in 0..<24 {
      for x in 0..<5 { c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] }
      for x in 0..<5 {
        let d = c[(x + 4) % 5] ^ rotate(c[(x + 1) % 5], 1)
        for y in stride(from: 0, to: 25, by: 5) { a[y + x] ^= d }
      }
      // ρ and π: B[y, 2x + 3y] = rot(A[x, y], r[x, y]).
      for x in 0..<5 {
        for y in 0..<5 {
          b[y + 5 * ((2 * x + 3 * y) % 5)] = rotate(a[x + 5 * y], rotations[x + 5 * y])
        }
      }
      for y in stride(from: 0, to: 25, by: 5) {
        for x in 0..<5 { a[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]) }
      }
      a[0] ^= roundConstants[round]
    }
  }

  @inline(__always)
  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    count == 0 ? value : (value << count) | (value >> (64 - count))
  }
}

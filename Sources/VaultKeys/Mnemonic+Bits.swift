import CryptoPrimitives

/// Entropy ↔ word indices: ENT bits of entropy followed by ENT/32 bits of SHA-256(entropy),
/// read as big-endian groups of 11 bits.
extension Mnemonic {
  /// Bits per word index (2048 = 2^11 words per list).
  static let bitsPerWord = 11

  /// Calls `body` with each word index of `entropy`, first word first.
  package static func forEachWordIndex(of entropy: SecureBytes, _ body: (Int) -> Void) {
    let checksum = checksumByte(of: entropy)
    entropy.withUnsafeBytes { bytes in
      let entropyBits = bytes.count * 8
      var value = 0
      for bit in 0..<(entropyBits + entropyBits / 32) {
        let byte = bit < entropyBits ? bytes[bit / 8] : checksum
        let position = bit < entropyBits ? bit % 8 : bit - entropyBits
        value = value << 1 | Int(byte >> (7 - position) & 1)
        if bit % bitsPerWord == bitsPerWord - 1 {
          body(value)
          value = 0
        }
      }
    }
  }

  /// The entropy that `indices` (a valid word count of them) encode, or nil if the checksum
  /// bits they carry do not match.
  package static func entropy(fromWordIndices indices: [Int]) -> SecureBytes? {
    let totalBits = indices.count * bitsPerWord
    let checksumBits = indices.count / 3
    let entropyBits = totalBits - checksumBits
    func bit(_ n: Int) -> UInt8 { UInt8(indices[n / bitsPerWord] >> (10 - n % bitsPerWord) & 1) }

    let entropy = SecureBytes(count: entropyBits / 8) { buffer in
      for n in 0..<entropyBits { buffer[n / 8] |= bit(n) << (7 - n % 8) }
    }
    var carried: UInt8 = 0
    for n in entropyBits..<totalBits { carried = carried << 1 | bit(n) }
    return checksumByte(of: entropy) >> (8 - checksumBits) == carried ? entropy : nil
  }

  /// The first byte of SHA-256(entropy); its top ENT/32 bits (at most 8) are the checksum.
  private static func checksumByte(of entropy: SecureBytes) -> UInt8 {
    var digest = SHA256.hash(entropy)
    defer { for index in digest.indices { digest[index] = 0 } }
    return digest[0]
  }
}

import VaultKeys

/// A set of word indices (0…2047) of one wordlist: sorted for enumeration, a bitmap for
/// membership tests on the hot path.
struct WordSet: Sendable, Equatable {
  /// The indices in increasing order.
  let indices: [UInt16]
  /// Bit i of word i / 64 is set when word i is in the set.
  let bits: [UInt64]

  init(_ members: some Sequence<Int>) {
    var bits = [UInt64](repeating: 0, count: Wordlist.wordCount / 64)
    for index in members { bits[index >> 6] |= 1 << UInt64(index & 63) }
    self.bits = bits
    var indices: [UInt16] = []
    for index in 0..<Wordlist.wordCount where bits[index >> 6] >> UInt64(index & 63) & 1 == 1 {
      indices.append(UInt16(index))
    }
    self.indices = indices
  }

  /// Every word of the list.
  static let all = WordSet(0..<Wordlist.wordCount)

  var count: Int { indices.count }

  @inline(__always)
  func contains(_ index: Int) -> Bool { bits[index >> 6] >> UInt64(index & 63) & 1 == 1 }

  /// The words not in this set.
  var complement: WordSet {
    WordSet((0..<Wordlist.wordCount).filter { !contains($0) })
  }

  /// Whether a word is in both sets.
  func intersects(_ other: WordSet) -> Bool {
    zip(bits, other.bits).contains { $0 & $1 != 0 }
  }
}

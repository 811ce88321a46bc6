import VaultKeys

/// A set of word indices (0…2047) of one wordlist: its members in the order a search
/// enumerates them, and a bitmap for membership tests on the hot path.
///
/// The order is increasing, or for close words closest first (`init(ranked:)`); two sets are
/// equal when they hold the same words, whatever their order.
struct WordSet: Sendable, Equatable {
  /// The indices in the order they are enumerated.
  let indices: [UInt16]
  /// Bit i of word i / 64 is set when word i is in the set.
  let bits: [UInt64]

  /// The members in increasing order.
  init(_ members: some Sequence<Int>) {
    let bits = Self.bitmap(members)
    var indices: [UInt16] = []
    for index in 0..<Wordlist.wordCount where bits[index >> 6] >> UInt64(index & 63) & 1 == 1 {
      indices.append(UInt16(index))
    }
    self.bits = bits
    self.indices = indices
  }

  /// The members in the order given (a repeated one kept where it first comes).
  init(ranked members: [Int]) {
    var bits = [UInt64](repeating: 0, count: Wordlist.wordCount / 64)
    var indices: [UInt16] = []
    for index in members where bits[index >> 6] >> UInt64(index & 63) & 1 == 0 {
      bits[index >> 6] |= 1 << UInt64(index & 63)
      indices.append(UInt16(index))
    }
    self.bits = bits
    self.indices = indices
  }

  private static func bitmap(_ members: some Sequence<Int>) -> [UInt64] {
    var bits = [UInt64](repeating: 0, count: Wordlist.wordCount / 64)
    for index in members { bits[index >> 6] |= 1 << UInt64(index & 63) }
    return bits
  }

  /// Every word of the list.
  static let all = WordSet(0..<Wordlist.wordCount)

  /// No word.
  static let empty = WordSet([])

  var count: Int { indices.count }

  @inline(__always)
  func contains(_ index: Int) -> Bool { bits[index >> 6] >> UInt64(index & 63) & 1 == 1 }

  /// The words not in this set, in increasing order.
  var complement: WordSet {
    WordSet((0..<Wordlist.wordCount).filter { !contains($0) })
  }

  /// Whether a word is in both sets.
  func intersects(_ other: WordSet) -> Bool {
    zip(bits, other.bits).contains { $0 & $1 != 0 }
  }

  /// The same words: the order of enumeration does not make another set.
  static func == (a: WordSet, b: WordSet) -> Bool { a.bits == b.bits }
}

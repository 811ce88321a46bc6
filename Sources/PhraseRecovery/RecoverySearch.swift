import VaultKeys

/// Every candidate phrase a damaged phrase may stand for under the damage models, numbered
/// 0..<candidateCount in a fixed order, so that a range of numbers is a well-defined part of
/// the search (a shard, a chunk, a checkpoint).
///
/// The candidates are the union of parts, each a product of word sets per position: one part
/// per choice of where the missing words go, whether and where two adjacent words were
/// exchanged, and which words (up to `typos`) are wrong — a wrong word ranges over the words
/// its position does *not* allow, so the parts of one such choice never overlap. Parts of
/// different choices may share candidates; a candidate is searched only in the first part that
/// holds it.
package struct RecoverySearch: Sendable {
  /// The phrase as remembered.
  package let phrase: DamagedPhrase
  /// Words left out at unknown positions.
  package let missingWords: Int
  /// Whether two adjacent words may have been exchanged (once).
  package let allowsSwap: Bool
  /// Up to this many words anywhere may be wrong.
  package let typos: Int
  /// The word count of every candidate.
  package let wordCount: Int
  let parts: [SearchPart]
  /// `partStarts[p]` is the number of the first candidate of part p; the last entry is the total.
  let partStarts: [UInt64]

  /// The number of candidates enumerated (a candidate held by two parts counts twice; it is
  /// checked once).
  package var candidateCount: UInt64 { partStarts.last ?? 0 }

  /// The number of checksum bits of a candidate: one in 2^bits passes.
  package var checksumBits: Int { wordCount / 3 }

  /// The expected number of candidates that pass the checksum.
  package var expectedChecksumValidCount: Double {
    Double(candidateCount) / Double(1 << checksumBits)
  }

  /// More parts than this, when they may overlap, are refused.
  static let maximumOverlappingParts = 6000

  package init(
    phrase: DamagedPhrase, missingWords: Int = 0, allowsSwap: Bool = false, typos: Int = 0
  ) throws(RecoveryError) {
    let length = phrase.words.count + missingWords
    guard missingWords >= 0, Mnemonic.validWordCounts.contains(length) else {
      throw .invalidWordCount(remembered: phrase.words.count, missing: max(0, missingWords))
    }
    guard typos >= 0, typos <= length else { throw .tooManyTypos(typos: typos, words: length) }
    self.phrase = phrase
    self.missingWords = missingWords
    self.allowsSwap = allowsSwap
    self.typos = typos
    wordCount = length

    var parts: [SearchPart] = []
    var family = 0
    for inserted in Self.combinations(of: length, choosing: missingWords) {
      var sets: [WordSet] = []
      var origins: [Int?] = []
      var next = 0
      for position in 0..<length {
        if inserted.contains(position) {
          sets.append(.all)
          origins.append(nil)
        } else {
          sets.append(phrase.sets[next])
          origins.append(next)
          next += 1
        }
      }
      let swaps: [Int?] = [nil] + (allowsSwap ? Array(0..<(length - 1)) : [])
      for swap in swaps {
        var swapped = sets
        var swappedOrigins = origins
        if let swap {
          // Exchanging two positions that allow the same words changes nothing.
          guard sets[swap] != sets[swap + 1] else { continue }
          swapped.swapAt(swap, swap + 1)
          swappedOrigins.swapAt(swap, swap + 1)
        }
        for wrong in Self.subsets(of: length, upTo: typos) {
          var final = swapped
          for position in wrong { final[position] = final[position].complement }
          guard final.allSatisfy({ $0.count > 0 }) else { continue }
          parts.append(
            SearchPart(
              sets: final, origins: swappedOrigins, swap: swap, wrong: wrong, family: family))
        }
        family += 1
        if family > 1, parts.count > Self.maximumOverlappingParts {
          throw .tooManyParts(parts.count)
        }
      }
    }
    // Parts of one family are disjoint; across families, note which earlier parts may overlap.
    if family > 1 {
      for later in parts.indices {
        parts[later].earlierOverlaps = parts.indices.prefix(later).filter { earlier in
          parts[earlier].family != parts[later].family
            && zip(parts[earlier].sets, parts[later].sets).allSatisfy { $0.intersects($1) }
        }
      }
    }
    var starts: [UInt64] = [0]
    for part in parts {
      let (sum, overflow) = starts.last!.addingReportingOverflow(part.count)
      guard !overflow, part.count != .max, sum < 1 << 63 else { throw .searchTooLarge }
      starts.append(sum)
    }
    self.parts = parts
    partStarts = starts
  }

  /// The part holding candidate `number`.
  func part(containing number: UInt64) -> Int {
    var low = 0
    var high = parts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if partStarts[middle] <= number { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// Whether a part before `part` that may overlap it holds the candidate `indices`: it is
  /// searched only in the first part that holds it.
  @inline(__always)
  func heldInEarlierPart(than part: Int, _ indices: UnsafeMutablePointer<UInt16>) -> Bool {
    for earlier in parts[part].earlierOverlaps where parts[earlier].contains(indices) {
      return true
    }
    return false
  }

  /// All sorted `choosing`-element subsets of 0..<count, in lexicographic order.
  static func combinations(of count: Int, choosing: Int) -> [[Int]] {
    guard choosing > 0 else { return [[]] }
    guard choosing <= count else { return [] }
    var result: [[Int]] = []
    var current = Array(0..<choosing)
    while true {
      result.append(current)
      var i = choosing - 1
      while i >= 0, current[i] == count - choosing + i { i -= 1 }
      if i < 0 { return result }
      current[i] += 1
      for j in (i + 1)..<choosing { current[j] = current[j - 1] + 1 }
    }
  }

  /// Every subset of 0..<count with at most `limit` elements, smallest first.
  static func subsets(of count: Int, upTo limit: Int) -> [[Int]] {
    (0...min(limit, count)).flatMap { combinations(of: count, choosing: $0) }
  }
}

/// One part of a search: a word set per position.
struct SearchPart: Sendable {
  let sets: [WordSet]
  /// For each position, the remembered word it comes from (nil: a missing word).
  let origins: [Int?]
  /// The position whose word was exchanged with the next one, if any.
  let swap: Int?
  /// The positions whose word is not the remembered one (typos).
  let wrong: [Int]
  /// Parts of one family (same missing positions and swap) never overlap.
  let family: Int
  /// Earlier parts that may hold some of this part's candidates.
  var earlierOverlaps: [Int] = []

  init(sets: [WordSet], origins: [Int?], swap: Int?, wrong: [Int], family: Int) {
    self.sets = sets
    self.origins = origins
    self.swap = swap
    self.wrong = wrong
    self.family = family
    var count: UInt64 = 1
    for set in sets {
      let (product, overflow) = count.multipliedReportingOverflow(by: UInt64(set.count))
      count = overflow ? .max : product
    }
    self.count = count
  }

  /// The number of candidates: the product of the set sizes (`.max` if it overflows).
  let count: UInt64

  /// Whether the candidate `indices` is in this part.
  @inline(__always)
  func contains(_ indices: UnsafeMutablePointer<UInt16>) -> Bool {
    for position in sets.indices where !sets[position].contains(Int(indices[position])) {
      return false
    }
    return true
  }
}

import VaultKeys

/// Every candidate phrase a damaged phrase may stand for under the damage models, numbered
/// 0..<candidateCount in a fixed order, so that a range of numbers is a well-defined part of
/// the search (a shard, a chunk, a checkpoint).
///
/// The candidates are the union of parts, each a product of word sets per position: one part
/// per choice of which written words are extra, where the missing words go, whether and where
/// two adjacent words were exchanged, and which words (up to `typos`) are wrong — a wrong word
/// ranges over the words its position does *not* allow (all of them, or only its close words,
/// closest first: `wrongWords`), so the parts of one such choice never overlap. Parts of different choices may share candidates; a candidate is searched only in
/// the first part that holds it.
///
/// The parts are counted before any is stored, so a search too large to count (2^63
/// candidates) or to hold (`maximumParts`) is refused with no memory spent on it.
package struct RecoverySearch: Sendable {
  /// What a wrong word may be replaced by.
  package enum WrongWords: Sendable, Equatable {
    /// Any word its position does not allow.
    case any
    /// Only the close words of what was written there (within two edits, or an English
    /// abbreviation within one), closest first: the likeliest wrong words.
    case close
  }

  /// The phrase as remembered.
  package let phrase: DamagedPhrase
  /// Words left out at unknown positions.
  package let missingWords: Int
  /// Written words that do not belong to the phrase, at unknown positions.
  package let extraWords: Int
  /// Whether two adjacent words may have been exchanged (once).
  package let allowsSwap: Bool
  /// Whether two adjacent words must have been exchanged (an automatic phase of swaps only).
  package let requiresSwap: Bool
  /// Up to this many words anywhere may be wrong.
  package let typos: Int
  /// At least this many words are wrong (an automatic phase of exactly `typos` wrong words).
  package let minimumTypos: Int
  /// What a wrong word ranges over.
  package let wrongWords: WrongWords
  /// The word count of every candidate.
  package let wordCount: Int
  /// The order-lost model, which replaces the damage models: the candidates are the orders of
  /// the written words (`PhraseOrder`), not parts.
  package let order: PhraseOrder?
  let parts: [SearchPart]
  /// `partStarts[p]` is the number of the first candidate of part p; the last entry is the total.
  let partStarts: [UInt64]

  /// The number of candidates enumerated (a candidate held by two parts counts twice; it is
  /// checked once).
  package var candidateCount: UInt64 { partStarts.last ?? 0 }

  /// The number of parts: memory grows with it (about a kilobyte each).
  package var partCount: Int { parts.count }

  /// The number of checksum bits of a candidate: one in 2^bits passes.
  package var checksumBits: Int { wordCount / 3 }

  /// The expected number of candidates that pass the checksum.
  package var expectedChecksumValidCount: Double {
    Double(candidateCount) / Double(1 << checksumBits)
  }

  /// Whether the search is exactly the phrase's own word sets (no damage model).
  package var isAsWritten: Bool {
    missingWords == 0 && extraWords == 0 && !allowsSwap && typos == 0 && order == nil
  }

  /// More parts than this, when they may overlap, are refused.
  static let maximumOverlappingParts = 6000
  /// More parts than this are refused: the memory of a search stays within a fixed budget.
  package static let maximumParts = 1 << 16

  package init(
    phrase: DamagedPhrase, missingWords: Int = 0, extraWords: Int = 0, allowsSwap: Bool = false,
    requiresSwap: Bool = false, typos: Int = 0, minimumTypos: Int = 0,
    wrongWords: WrongWords = .any
  ) throws(RecoveryError) {
    let written = phrase.words.count
    let length = written - extraWords + missingWords
    guard missingWords >= 0, extraWords >= 0, extraWords < written,
      Mnemonic.validWordCounts.contains(length)
    else {
      throw .invalidWordCount(
        remembered: written, missing: max(0, missingWords), extra: max(0, extraWords))
    }
    guard typos >= 0, typos <= length, (0...typos).contains(minimumTypos) else {
      throw .tooManyTypos(typos: typos, words: length)
    }
    self.phrase = phrase
    self.missingWords = missingWords
    self.extraWords = extraWords
    self.allowsSwap = allowsSwap || requiresSwap
    self.requiresSwap = requiresSwap
    self.typos = typos
    self.minimumTypos = minimumTypos
    self.wrongWords = wrongWords
    wordCount = length
    order = nil

    // Each remembered set's complement (or close words), computed once and shared by every
    // part (a wrong word at a missing word's place has no words left: such parts are empty).
    let replacements =
      typos == 0 ? [] : wrongWords == .any ? phrase.sets.map(\.complement) : phrase.closeSets
    let shape = Shape(
      sets: phrase.sets, replacements: replacements, length: length, missing: missingWords,
      extra: extraWords, swap: allowsSwap || requiresSwap, requiresSwap: requiresSwap,
      typos: minimumTypos...typos)

    // First only count: the total, the parts and the families, with nothing stored.
    var total: UInt64 = 0
    var partTotal = 0
    var families = 0
    try shape.forEachPart { (part: SearchPart) throws(RecoveryError) in
      let (sum, overflow) = total.addingReportingOverflow(part.count)
      guard !overflow, part.count != .max, sum < 1 << 63 else { throw .searchTooLarge }
      total = sum
      partTotal += 1
      families = max(families, part.family + 1)
      guard partTotal <= Self.maximumParts else { throw .tooManyParts(partTotal) }
      if families > 1, partTotal > Self.maximumOverlappingParts {
        throw .tooManyParts(partTotal)
      }
    }

    var parts: [SearchPart] = []
    parts.reserveCapacity(partTotal)
    shape.forEachPart { parts.append($0) }
    // Parts of one family are disjoint; across families, note which earlier parts may overlap.
    if families > 1 {
      for later in parts.indices {
        parts[later].earlierOverlaps = parts.indices.prefix(later).filter { earlier in
          parts[earlier].family != parts[later].family
            && zip(parts[earlier].sets, parts[later].sets).allSatisfy { $0.intersects($1) }
        }
      }
    }
    var starts: [UInt64] = [0]
    starts.reserveCapacity(parts.count + 1)
    for part in parts { starts.append(starts.last! + part.count) }
    self.parts = parts
    partStarts = starts
  }

  /// The search of every order of the words of `phrase`, the words at the 1-based
  /// `keptPositions` in their place: the order-lost model instead of the damage models.
  package init(phrase: DamagedPhrase, orderLostKeeping keptPositions: [Int])
    throws(RecoveryError)
  {
    let order = try PhraseOrder(phrase: phrase, keptPositions: keptPositions)
    self.phrase = phrase
    missingWords = 0
    extraWords = 0
    allowsSwap = false
    requiresSwap = false
    typos = 0
    minimumTypos = 0
    wrongWords = .any
    wordCount = phrase.words.count
    self.order = order
    parts = []
    partStarts = [0, order.candidateCount]
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

  /// Calls `body` with every sorted `choosing`-element subset of 0..<count, in lexicographic
  /// order, one at a time (none is kept).
  static func forEachCombination<E: Error>(
    of count: Int, choosing: Int, _ body: ([Int]) throws(E) -> Void
  ) throws(E) {
    guard choosing > 0 else { return try body([]) }
    guard choosing <= count else { return }
    var current = Array(0..<choosing)
    while true {
      try body(current)
      var i = choosing - 1
      while i >= 0, current[i] == count - choosing + i { i -= 1 }
      if i < 0 { return }
      current[i] += 1
      for j in (i + 1)..<choosing { current[j] = current[j - 1] + 1 }
    }
  }

  /// All sorted `choosing`-element subsets of 0..<count, in lexicographic order.
  static func combinations(of count: Int, choosing: Int) -> [[Int]] {
    var result: [[Int]] = []
    forEachCombination(of: count, choosing: choosing) { result.append($0) }
    return result
  }

  /// Every subset of 0..<count with at most `limit` elements, smallest first.
  static func subsets(of count: Int, upTo limit: Int) -> [[Int]] {
    (0...min(limit, count)).flatMap { combinations(of: count, choosing: $0) }
  }
}

/// The damage models of a search, enumerated part by part in the search's fixed order.
private struct Shape {
  let sets: [WordSet]
  /// What a wrong word at each written position ranges over (empty with no typos).
  let replacements: [WordSet]
  let length: Int
  let missing: Int
  let extra: Int
  let swap: Bool
  let requiresSwap: Bool
  let typos: ClosedRange<Int>

  /// Calls `body` with each non-empty part: extra words outermost, then missing positions, the
  /// swap and the wrong positions.
  func forEachPart<E: Error>(_ body: (SearchPart) throws(E) -> Void) throws(E) {
    var family = 0
    let written = sets.count
    try RecoverySearch.forEachCombination(of: written, choosing: extra) {
      (dropped: [Int]) throws(E) in
      let kept = (0..<written).filter { !dropped.contains($0) }
      try RecoverySearch.forEachCombination(of: length, choosing: missing) {
        (inserted: [Int]) throws(E) in
        var layout: [WordSet] = []
        var layoutReplacements: [WordSet?] = []
        var origins: [Int?] = []
        var next = 0
        for position in 0..<length {
          if inserted.contains(position) {
            layout.append(.all)
            layoutReplacements.append(nil)
            origins.append(nil)
          } else {
            layout.append(sets[kept[next]])
            layoutReplacements.append(replacements.isEmpty ? nil : replacements[kept[next]])
            origins.append(kept[next])
            next += 1
          }
        }
        let swaps: [Int?] = (requiresSwap ? [] : [nil]) + (swap ? Array(0..<(length - 1)) : [])
        for swap in swaps {
          var swapped = layout
          var swappedReplacements = layoutReplacements
          var swappedOrigins = origins
          if let swap {
            // Exchanging two positions that allow the same words changes nothing.
            guard layout[swap] != layout[swap + 1] else { continue }
            swapped.swapAt(swap, swap + 1)
            swappedReplacements.swapAt(swap, swap + 1)
            swappedOrigins.swapAt(swap, swap + 1)
          }
          for count in typos {
            try RecoverySearch.forEachCombination(of: length, choosing: count) {
              (wrong: [Int]) throws(E) in
              var final = swapped
              for position in wrong {
                guard let replacement = swappedReplacements[position], replacement.count > 0
                else { return }
                final[position] = replacement
              }
              guard final.allSatisfy({ $0.count > 0 }) else { return }
              try body(
                SearchPart(
                  sets: final, origins: swappedOrigins, swap: swap, wrong: wrong,
                  dropped: dropped, family: family))
            }
          }
          family += 1
        }
      }
    }
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
  /// The 0-based written positions of the words taken as extra.
  let dropped: [Int]
  /// Parts of one family (same extra words, missing positions and swap) never overlap.
  let family: Int
  /// Earlier parts that may hold some of this part's candidates.
  var earlierOverlaps: [Int] = []

  init(
    sets: [WordSet], origins: [Int?], swap: Int?, wrong: [Int], dropped: [Int] = [], family: Int
  ) {
    self.sets = sets
    self.origins = origins
    self.swap = swap
    self.wrong = wrong
    self.dropped = dropped
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

/// How a search's worker walks the candidates of a model, one after the other: the damage
/// model's parts (`PartsCursor`) or the orders of the written words (`OrderCursor`). The
/// worker's loop is generic over it, so each model's walk is compiled into the loop.
protocol CandidateCursor {
  /// Sets the cursor and `current` (a word index per position) to candidate `number` of the
  /// phrases (0..<candidateCount).
  mutating func seek(to number: UInt64, _ current: UnsafeMutablePointer<UInt16>)
  /// Moves to the next candidate; false, at candidate 0, after the last.
  mutating func advance(_ current: UnsafeMutablePointer<UInt16>) -> Bool
  /// Whether the candidate `current` (checksum-valid) was tried earlier in the search: it is
  /// skipped here.
  func triedEarlier(_ current: UnsafeMutablePointer<UInt16>) -> Bool
  /// The part of the search the candidate is in (what its match record names).
  var part: Int { get }
}

/// Walks the parts of a damage search: each a product of word sets, last position fastest.
struct PartsCursor: CandidateCursor {
  let search: RecoverySearch
  /// Per position, the index of the current word in its part's set.
  let digits: UnsafeMutablePointer<UInt16>
  private(set) var part = 0

  init(search: RecoverySearch, digits: UnsafeMutablePointer<UInt16>) {
    self.search = search
    self.digits = digits
  }

  mutating func seek(to number: UInt64, _ current: UnsafeMutablePointer<UInt16>) {
    part = search.part(containing: number)
    load(current, offset: number - search.partStarts[part])
  }

  /// Sets the digits and indices to candidate `offset` of `part`.
  private func load(_ current: UnsafeMutablePointer<UInt16>, offset: UInt64) {
    let sets = search.parts[part].sets
    var rest = offset
    for position in sets.indices.reversed() {
      let radix = UInt64(sets[position].count)
      digits[position] = UInt16(rest % radix)
      rest /= radix
      current[position] = sets[position].indices[Int(digits[position])]
    }
  }

  @inline(__always)
  mutating func advance(_ current: UnsafeMutablePointer<UInt16>) -> Bool {
    let sets = search.parts[part].sets
    var position = sets.count - 1
    while position >= 0 {
      let set = sets[position]
      let next = Int(digits[position]) + 1
      if next < set.count {
        digits[position] = UInt16(next)
        current[position] = set.indices[next]
        return true
      }
      digits[position] = 0
      current[position] = set.indices[0]
      position -= 1
    }
    part += 1
    let wrapped = part == search.parts.count
    if wrapped { part = 0 }
    load(current, offset: 0)
    return !wrapped
  }

  /// Whether an earlier part that overlaps this one holds the candidate (it was searched
  /// there).
  @inline(__always)
  func triedEarlier(_ current: UnsafeMutablePointer<UInt16>) -> Bool {
    search.heldInEarlierPart(than: part, current)
  }
}

extension OrderCursor: CandidateCursor {
  var part: Int { 0 }

  @inline(__always)
  func triedEarlier(_ current: UnsafeMutablePointer<UInt16>) -> Bool { triedEarlier() }
}

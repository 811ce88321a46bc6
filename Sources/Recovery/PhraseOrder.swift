import VaultKeys

/// The order-lost model: every written word is right, their order is not. Its candidates are
/// orders of the written words, numbered 0..<orderCount so that a range of numbers is a part
/// of the search (a shard, a chunk, a checkpoint) and a checkpoint stays a number.
///
/// The orders people produce come first (`Structured`): the phrase as written, a grid read the
/// other way for each shape, a grid's rows reversed, the two halves (cards) exchanged, one word
/// moved, two words exchanged, then any two of these one after the other, each distinct order
/// once. Then every order of the free positions (those not kept) in lexicographic order of the
/// written words, each distinct order once however often a word repeats (a multinomial count);
/// those already tried among the structured ones are skipped (and counted twice, as a
/// candidate held by two parts of a damage search is). With one `?` word, each order is tried
/// with each of its 2048 words, the unknown word's choice fastest.
package struct PhraseOrder: Sendable {
  /// The 1-based positions whose word is known to be in its place.
  package let keptPositions: [Int]
  /// The number of structured orders (the phrase as written among them).
  package let structuredCount: UInt64
  /// The number of distinct orders of the free positions; nil when more than can be counted
  /// with the structured ones (2^63): the search is then the structured orders only.
  package let allOrdersCount: UInt64?
  /// The words an order's unknown word ranges over: 2048 with one `?`, else 1.
  package let unknownChoices: UInt64

  /// The class of each written position: equal known words share one, `?` has its own.
  let classes: [UInt8]
  /// The word index of each class (the unknown word's class: `unknownClass`).
  let classWords: [UInt16]
  /// The class of the `?` word, if there is one.
  let unknownClass: UInt8?
  /// The 0-based free positions, ascending.
  let freePositions: [Int]
  /// Each structured order as the class at each position, packed (`Packed`).
  let structured: [Packed]
  /// The same, to tell in the all-orders phase an order tried before.
  let structuredSet: Set<Packed>

  /// The orders counted (structured and all), each with each of the unknown word's choices.
  package var candidateCount: UInt64 {
    (structuredCount + (allOrdersCount ?? 0)) * unknownChoices
  }

  /// The word count.
  package var wordCount: Int { classes.count }

  /// Orders of `phrase` keeping the words at the 1-based `keptPositions` in their place. Every
  /// word must be a known word, except at most one `?`.
  package init(phrase: DamagedPhrase, keptPositions: [Int]) throws(RecoveryError) {
    let count = phrase.words.count
    guard Mnemonic.validWordCounts.contains(count) else {
      throw .invalidWordCount(remembered: count, missing: 0)
    }
    var seen = Set<Int>()
    for position in keptPositions {
      guard (1...count).contains(position) else {
        throw .keptPositionOutOfRange(position: position, words: count)
      }
      guard seen.insert(position).inserted else { throw .keptPositionRepeated(position) }
    }
    var classes: [UInt8] = []
    var classWords: [UInt16] = []
    var unknownClass: UInt8?
    for (offset, word) in phrase.words.enumerated() {
      switch word {
      case .known(let index):
        if let existing = classWords.firstIndex(of: UInt16(index)),
          UInt8(existing) != unknownClass
        {
          classes.append(UInt8(existing))
        } else {
          classes.append(UInt8(classWords.count))
          classWords.append(UInt16(index))
        }
      case .unknown:
        guard unknownClass == nil else { throw .orderLostSecondUnknown(position: offset + 1) }
        unknownClass = UInt8(classWords.count)
        classes.append(UInt8(classWords.count))
        // Never a word index: the class of the unknown word is told by `unknownClass`.
        classWords.append(UInt16.max)
      default:
        throw .orderLostNeedsWords(position: offset + 1)
      }
    }
    self.keptPositions = keptPositions.sorted()
    self.classes = classes
    self.classWords = classWords
    self.unknownClass = unknownClass
    unknownChoices = unknownClass == nil ? 1 : UInt64(Wordlist.wordCount)
    let kept = Set(keptPositions.map { $0 - 1 })
    freePositions = (0..<count).filter { !kept.contains($0) }
    structured = Self.structuredOrders(classes: classes, kept: kept)
    structuredSet = Set(structured)
    structuredCount = UInt64(structured.count)
    let free = freePositions.map { classes[$0] }
    if let all = Self.multinomial(free),
      case (let sum, let overflow) = all.addingReportingOverflow(structuredCount), !overflow,
      case (let total, let overflow2) = sum.multipliedReportingOverflow(by: unknownChoices),
      !overflow2, total < 1 << 63
    {
      allOrdersCount = all
    } else {
      allOrdersCount = nil
    }
  }

  // MARK: - Counting

  /// The number of distinct orders of `classes`: n! / Π(m_i!), as a product of binomials;
  /// nil if it does not fit in 64 bits.
  static func multinomial(_ classes: [UInt8]) -> UInt64? {
    var counts: [UInt8: Int] = [:]
    for value in classes { counts[value, default: 0] += 1 }
    var result: UInt64 = 1
    var placed = 0
    for multiplicity in counts.values.sorted() {
      placed += multiplicity
      guard let choose = binomial(placed, multiplicity) else { return nil }
      let (product, overflow) = result.multipliedReportingOverflow(by: choose)
      guard !overflow else { return nil }
      result = product
    }
    return result
  }

  /// C(n, k), nil if it does not fit in 64 bits.
  static func binomial(_ n: Int, _ k: Int) -> UInt64? {
    let k = min(k, n - k)
    guard k >= 0 else { return 0 }
    var result: UInt64 = 1
    for i in 0..<k {
      // result · (n − i) / (i + 1) is exact: it is C(n, i + 1) · … and the division is whole.
      let (high, low) = result.multipliedFullWidth(by: UInt64(n - i))
      guard high < UInt64(i + 1) else { return nil }
      result = UInt64(i + 1).dividingFullWidth((high, low)).quotient
    }
    return result
  }

  // MARK: - Structured orders

  /// A sequence of classes, five bits each (at most 24 positions of 24 classes).
  struct Packed: Hashable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    init(_ classes: some Collection<UInt8>) {
      for (position, value) in classes.enumerated() {
        let shift = UInt64(position % 12) * 5
        if position < 12 { low |= UInt64(value) << shift } else { high |= UInt64(value) << shift }
      }
    }

    /// The class at `position`.
    @inline(__always)
    func value(at position: Int) -> UInt8 {
      let word = position < 12 ? low : high
      return UInt8(truncatingIfNeeded: word >> (UInt64(position % 12) * 5)) & 0x1F
    }
  }

  /// A rearrangement: position p of the result takes the word at `source[p]`.
  typealias Rearrangement = [Int]

  /// The rearrangements people make, likeliest first: a grid of each shape read the other way
  /// (written row by row, read column by column), its rows in reverse, the halves exchanged,
  /// one word moved, two words exchanged.
  static func singleRearrangements(count: Int) -> [Rearrangement] {
    var result: [Rearrangement] = []
    let shapes = (2...(count / 2)).filter { count % $0 == 0 }.map { ($0, count / $0) }
    for (rows, columns) in shapes {
      // Word k of the grid read by columns is in row k % rows, column k / rows of the grid
      // written by rows.
      result.append((0..<count).map { k in (k % rows) * columns + k / rows })
    }
    for (rows, columns) in shapes {
      result.append((0..<count).map { k in (rows - 1 - k / columns) * columns + k % columns })
    }
    result.append((0..<count).map { ($0 + count / 2) % count })
    for from in 0..<count {
      for to in 0..<count where to != from {
        var order = Array(0..<count)
        order.remove(at: from)
        order.insert(from, at: to)
        result.append(order)
      }
    }
    for first in 0..<count {
      for second in (first + 1)..<count {
        var order = Array(0..<count)
        order.swapAt(first, second)
        result.append(order)
      }
    }
    return result
  }

  /// The distinct structured orders of `classes` that leave the `kept` positions' words in
  /// place: as written, each single rearrangement, then each two of them one after the other.
  static func structuredOrders(classes: [UInt8], kept: Set<Int>) -> [Packed] {
    let singles = singleRearrangements(count: classes.count)
    var seen = Set<Packed>()
    var orders: [Packed] = []
    func add(_ order: [UInt8]) {
      for position in kept where order[position] != classes[position] { return }
      let packed = Packed(order)
      if seen.insert(packed).inserted { orders.append(packed) }
    }
    add(classes)
    var once: [[UInt8]] = []
    for single in singles {
      let order = single.map { classes[$0] }
      once.append(order)
      add(order)
    }
    var twice = [UInt8](repeating: 0, count: classes.count)
    for first in once {
      for second in singles {
        for position in twice.indices { twice[position] = first[second[position]] }
        add(twice)
      }
    }
    return orders
  }

  // MARK: - All orders

  /// The free positions' classes of all-orders number `rank` (lexicographic, each distinct
  /// order once), written into `order` at the free positions.
  func unrank(_ rank: UInt64, into order: inout [UInt8]) {
    var remaining: [UInt8: Int] = [:]
    for position in freePositions { remaining[classes[position], default: 0] += 1 }
    var rank = rank
    for position in freePositions {
      for value in remaining.keys.sorted() where remaining[value]! > 0 {
        remaining[value]! -= 1
        let rest = remaining.flatMap { Array(repeating: $0.key, count: $0.value) }
        let below = Self.multinomial(rest) ?? .max
        if rank < below {
          order[position] = value
          break
        }
        rank -= below
        remaining[value]! += 1
      }
    }
  }

  /// Moves the free positions of `order` to the next distinct order (lexicographic); false
  /// after the last.
  @inline(__always)
  func nextOrder(_ order: UnsafeMutablePointer<UInt8>) -> Bool {
    let free = freePositions
    var i = free.count - 2
    while i >= 0, order[free[i]] >= order[free[i + 1]] { i -= 1 }
    guard i >= 0 else { return false }
    var j = free.count - 1
    while order[free[j]] <= order[free[i]] { j -= 1 }
    swap(&order[free[i]], &order[free[j]])
    var low = i + 1
    var high = free.count - 1
    while low < high {
      swap(&order[free[low]], &order[free[high]])
      low += 1
      high -= 1
    }
    return true
  }

  // MARK: - Candidates

  /// Whether `indices` is a candidate: the written words in some order with the kept ones in
  /// place (the unknown word any word).
  package func contains(_ indices: [Int]) -> Bool {
    guard indices.count == classes.count else { return false }
    var left: [Int: Int] = [:]
    var wildcards = 0
    for position in 0..<classes.count {
      let value = classes[position]
      if keptPositions.contains(position + 1) {
        guard value == unknownClass || Int(classWords[Int(value)]) == indices[position] else {
          return false
        }
      } else if value == unknownClass {
        wildcards += 1
      } else {
        left[Int(classWords[Int(value)]), default: 0] += 1
      }
    }
    var unmatched = 0
    for position in freePositions {
      if let remaining = left[indices[position]], remaining > 0 {
        left[indices[position]] = remaining - 1
      } else {
        unmatched += 1
      }
    }
    return unmatched <= wildcards
  }

  /// For each position of `indices` (a candidate), the 1-based written position its word is
  /// taken from; equal words are taken in their written order, the unknown word last.
  package func writtenPositions(of indices: [Int]) -> [Int] {
    let kept = Set(keptPositions.map { $0 - 1 })
    var used = kept
    return indices.indices.map { position in
      if kept.contains(position) { return position + 1 }
      let source =
        freePositions.first { written in
          !used.contains(written) && classes[written] != unknownClass
            && Int(classWords[Int(classes[written])]) == indices[position]
        } ?? freePositions.first { !used.contains($0) && classes[$0] == unknownClass }
        ?? position
      used.insert(source)
      return source + 1
    }
  }
}

/// Walks the candidates of a `PhraseOrder` one after the other, as the search's worker does.
struct OrderCursor {
  let space: PhraseOrder
  /// The order tried now: a class per position.
  var order: [UInt8]
  /// Its number among the orders.
  var number: UInt64 = 0
  /// The unknown word's choice.
  var choice: UInt64 = 0
  /// The position of the unknown word in `order`.
  var unknownPosition = 0

  init(_ space: PhraseOrder) {
    self.space = space
    order = space.classes
  }

  /// Sets the cursor and `current` to candidate `candidate`.
  mutating func seek(to candidate: UInt64, _ current: UnsafeMutablePointer<UInt16>) {
    number = candidate / space.unknownChoices
    choice = candidate % space.unknownChoices
    load(current)
  }

  /// Loads order `number` into `order` and `current`.
  private mutating func load(_ current: UnsafeMutablePointer<UInt16>) {
    if number < space.structuredCount {
      let packed = space.structured[Int(number)]
      for position in order.indices { order[position] = packed.value(at: position) }
    } else {
      order = space.classes
      space.unrank(number - space.structuredCount, into: &order)
    }
    write(current)
  }

  private mutating func write(_ current: UnsafeMutablePointer<UInt16>) {
    for position in order.indices {
      let value = order[position]
      if value == space.unknownClass {
        unknownPosition = position
        current[position] = UInt16(choice)
      } else {
        current[position] = space.classWords[Int(value)]
      }
    }
  }

  /// Moves to the next candidate; false (at candidate 0) after the last.
  @inline(__always)
  mutating func advance(_ current: UnsafeMutablePointer<UInt16>) -> Bool {
    if choice + 1 < space.unknownChoices {
      choice += 1
      current[unknownPosition] = UInt16(choice)
      return true
    }
    choice = 0
    number += 1
    let orders = space.structuredCount + (space.allOrdersCount ?? 0)
    if number == orders {
      number = 0
      load(current)
      return false
    }
    if number > space.structuredCount {
      let moved = order.withUnsafeMutableBufferPointer { space.nextOrder($0.baseAddress!) }
      precondition(moved, "an order past the last was counted")
      write(current)
    } else {
      load(current)
    }
    return true
  }

  /// Whether the order tried now is a structured one tried before (in the all-orders phase).
  @inline(__always)
  func triedEarlier() -> Bool {
    number >= space.structuredCount && space.structuredSet.contains(PhraseOrder.Packed(order))
  }
}

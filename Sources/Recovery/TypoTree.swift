import CryptoPrimitives
import VaultKeys

/// The strings within K typos of a remembered one, numbered without being held: the levels
/// today's sets build in memory (level k: the typos of level k − 1's strings, in the order
/// made, before duplicates are dropped), counted exactly by walking the levels above the last
/// only (a string's typos are counted, not made: `TypoModel.typoCount`), string `i` made by
/// descending by subtree counts, and consecutive strings made depth-first with one string a
/// level held. Memory is constant in the count; a string may come twice (two chains of typos
/// may make it), as nothing is compared.
package struct TypoTree: Sendable {
  /// How a level's strings are made from another level's, in order: each parent's children
  /// in turn, a parent's children by `Rule`.
  package indirect enum Shape: Sendable, Equatable {
    /// The remembered string alone.
    case root
    /// The children of each string of `of`, in its order, by `Rule`.
    case children(of: Shape, Rule)
    /// The strings of one shape, then those of the other (of the same depth).
    case concat(Shape, Shape)

    /// How many typos or edits from the remembered string.
    var depth: Int {
      switch self {
      case .root: 0
      case .children(let parent, _): parent.depth + 1
      case .concat(let first, _): first.depth
      }
    }
  }

  /// Which children of a string a level takes; a string made by likely typos alone is
  /// "likely".
  package enum Rule: Sendable, Equatable {
    /// Its likely typos (`TypoModel.forEachTypo`).
    case typos
    /// Its likely typos when it is likely; none otherwise.
    case likelyTypos
    /// Its generic edits (`PassphraseSet.forEachEdit`).
    case edits
    /// Its generic edits when it is likely; its likely typos, then its edits, otherwise.
    case otherEdits

    func branches(likely: Bool) -> [Branch] {
      switch self {
      case .typos: Self.typosOnly
      case .likelyTypos: likely ? Self.typosOnly : []
      case .edits: Self.editsOnly
      case .otherEdits: likely ? Self.editsOnly : Self.both
      }
    }

    private static let typosOnly: [Branch] = [.typos]
    private static let editsOnly: [Branch] = [.edits]
    private static let both: [Branch] = [.typos, .edits]
  }

  /// The two ways a child is made.
  enum Branch: Equatable {
    case typos, edits
  }

  /// Where a string lies in a shape: the path a descent takes.
  indirect enum Position: Sendable {
    case root
    /// Child `ordinal` of branch `branch` (an index into the rule's branches) of the parent
    /// at `parent`.
    case child(parent: Position, branch: Int, ordinal: Int)
    /// In part `part` (0 or 1) of a concatenation.
    case part(Int, Position)
  }

  /// Where to start in a segment without walking what comes before: every `spacing`-th
  /// parent of its strings (at most `maximumSamples`), and how many strings come before its
  /// children.
  struct Samples: Sendable {
    var marks: [(before: Int, parent: Position)] = []
    var spacing = 1
  }

  /// The most samples a segment keeps: memory is bounded whatever the count, and a seek walks
  /// at most the parents between two samples (counting their children, not making them).
  static let maximumSamples = 1 << 12

  /// The remembered string (UTF-8), the root.
  private let remembered: SecureBytes
  private let length: Int
  package let model: TypoModel
  /// Whether combining marks a typo moved are put back in canonical order (a passphrase).
  private let canonicalOrder: Bool
  /// The levels in order, each the strings of its segments one after the other, and how
  /// many strings each level has.
  package let levels: [[Shape]]
  package let levelCounts: [Int]
  private let segmentCounts: [[Int]]
  private let samples: [[Samples]]
  /// The number of strings, all levels together.
  package let count: Int
  private let depth: Int

  /// Why a tree is not made.
  package enum Refusal: Error, Equatable {
    /// `remembered` is not UTF-8.
    case invalidUTF8
    /// The count may overflow `Int`.
    case overflow
    /// Counting would make more strings than `maximumWalk` (the levels above the last): the
    /// count, at most `atMost`, would take too long to reach before the search starts.
    case tooManyToCount(atMost: Int)
  }

  /// The most strings a count may make (the parents of the last level's strings, bounded by
  /// length alone): about a minute in a release build. Counting is linear in what it makes,
  /// so a wider tree is refused up front instead of counting for hours.
  package static let maximumWalk = 1 << 28

  /// The numbered levels of `levels` (each a list of segments) made from `remembered` (valid
  /// UTF-8; NFKD for a passphrase, with `canonicalOrder`); refused when their count may
  /// overflow `Int` or would take more than `maximumWalk` strings to count.
  package init(
    remembered: SecureBytes, levels: [[Shape]], model: TypoModel = TypoModel(),
    canonicalOrder: Bool
  ) throws(Refusal) {
    guard let length = remembered.withUnsafeBytes(ScalarBuffer.scalarCount) else {
      throw .invalidUTF8
    }
    self.remembered = remembered
    self.length = length
    self.model = model
    self.canonicalOrder = canonicalOrder
    self.levels = levels
    depth = levels.flatMap { $0.map(\.depth) }.max() ?? 0
    // A count is walked only when it cannot overflow: its bound (by length alone) fits.
    var bound = 0
    var walk = 0
    for segment in levels.joined() {
      guard let segmentBound = Self.bound(segment, length: length, model: model),
        let segmentWalk = Self.walkBound(segment, length: length, model: model)
      else { throw .overflow }
      let (sum, overflow) = bound.addingReportingOverflow(segmentBound)
      guard !overflow else { throw .overflow }
      bound = sum
      walk = walk.addingReportingOverflow(segmentWalk).overflow ? Int.max : walk + segmentWalk
    }
    guard walk <= Self.maximumWalk else { throw .tooManyToCount(atMost: bound) }
    var counts: [[Int]] = []
    var samples: [[Samples]] = []
    var overflowed = false
    Self.withWalker(remembered, length: length, depth: depth, model, canonicalOrder) { walker in
      for level in levels {
        var levelSamples: [Samples] = []
        var levelCounts: [Int] = []
        for segment in level {
          guard let (count, marks) = walker.count(segment) else {
            overflowed = true
            return
          }
          levelCounts.append(count)
          levelSamples.append(marks)
        }
        counts.append(levelCounts)
        samples.append(levelSamples)
      }
    }
    guard !overflowed else { throw .overflow }
    var total = 0
    var levelTotals: [Int] = []
    for level in counts {
      var sum = 0
      for count in level {
        let (next, overflow) = sum.addingReportingOverflow(count)
        guard !overflow else { throw .overflow }
        sum = next
      }
      let (next, overflow) = total.addingReportingOverflow(sum)
      guard !overflow else { throw .overflow }
      total = next
      levelTotals.append(sum)
    }
    segmentCounts = counts
    self.samples = samples
    levelCounts = levelTotals
    count = total
  }

  /// At most how many strings counting `shape` makes (the parents whose children are
  /// counted, and theirs), by length alone; nil when that bound overflows `Int`.
  static func walkBound(_ shape: Shape, length: Int, model: TypoModel) -> Int? {
    switch shape {
    case .root: return 0
    case .concat(let first, let second):
      guard let first = walkBound(first, length: length, model: model),
        let second = walkBound(second, length: length, model: model)
      else { return nil }
      let (sum, overflow) = first.addingReportingOverflow(second)
      return overflow ? nil : sum
    case .children(let parent, _):
      guard let parents = bound(parent, length: length, model: model),
        let above = walkBound(parent, length: length, model: model)
      else { return nil }
      let (sum, overflow) = parents.addingReportingOverflow(above)
      return overflow ? nil : sum
    }
  }

  /// At most how many strings `shape` has, by the length of the strings alone; nil when that
  /// bound overflows `Int`.
  static func bound(_ shape: Shape, length: Int, model: TypoModel) -> Int? {
    switch shape {
    case .root: return 1
    case .concat(let first, let second):
      guard let first = bound(first, length: length, model: model),
        let second = bound(second, length: length, model: model)
      else { return nil }
      let (sum, overflow) = first.addingReportingOverflow(second)
      return overflow ? nil : sum
    case .children(let parent, let rule):
      guard let parents = bound(parent, length: length, model: model) else { return nil }
      // The longest a parent is: each typo or edit adds at most one character.
      let longest = length + parent.depth
      let typos = model.typoBound(length: longest).reduce(0) { $0 + $1.count }
      // The alphabet: printable ASCII and at most every character of the remembered string.
      let alphabet = PassphraseSet.printableASCII.count + length
      let edits = 2 * longest + longest * alphabet + (longest + 1) * alphabet
      let children =
        switch rule {
        case .typos, .likelyTypos: typos
        case .edits: edits
        case .otherEdits: typos + edits
        }
      let (product, overflow) = parents.multipliedReportingOverflow(by: children)
      return overflow ? nil : product
    }
  }

  /// The level, segment and index in it of string `index`.
  private func locate(_ index: Int) -> (level: Int, segment: Int, index: Int) {
    precondition(index >= 0 && index < count, "string index out of range")
    var rest = index
    for (level, counts) in segmentCounts.enumerated() {
      for (segment, count) in counts.enumerated() {
        if rest < count { return (level, segment, rest) }
        rest -= count
      }
    }
    preconditionFailure("string index out of range")
  }

  /// Makes string `index` at its depth, in `walker`, and the typos that made it.
  private func make(_ index: Int, in walker: Walker) -> (depth: Int, edits: [PassphraseEdit]) {
    let (level, segment, rest) = locate(index)
    let shape = levels[level][segment]
    let position = walker.seek(shape, rest, samples[level][segment])
    var edits: [PassphraseEdit] = []
    _ = walker.materialize(shape, position, &edits)
    return (shape.depth, edits)
  }

  /// String `index` (UTF-8) in a new wiped buffer.
  package func string(at index: Int) -> SecureBytes {
    withWalker { walker in walker.utf8(make(index, in: walker).depth) }
  }

  /// The typos and edits that made string `index`, in the order made (none: the remembered).
  package func edits(at index: Int) -> [PassphraseEdit] {
    withWalker { walker in make(index, in: walker).edits }
  }

  /// Calls `body` with string `start` and each after it in turn (as scalars, valid only in the
  /// call), until `body` returns false or the last; one string a level is held at a time.
  package func forEach(from start: Int, _ body: (ScalarBuffer) -> Bool) {
    guard start < count else { return }
    let (firstLevel, firstSegment, rest) = locate(start)
    withWalker { walker in
      for level in firstLevel..<levels.count {
        for (segment, shape) in levels[level].enumerated() {
          if level == firstLevel, segment < firstSegment { continue }
          let position =
            level == firstLevel && segment == firstSegment
            ? walker.seek(shape, rest, samples[level][segment]) : nil
          let going = walker.walk(shape, from: position) { depth, _, _ in
            body(walker.buffers[depth])
          }
          if !going { return }
        }
      }
    }
  }

  /// Each string `range` holds, each in a wiped buffer of its own.
  package func strings(_ range: Range<Int>) -> [SecureBytes] {
    var strings: [SecureBytes] = []
    strings.reserveCapacity(range.count)
    guard !range.isEmpty else { return strings }
    forEach(from: range.lowerBound) { scalars in
      strings.append(Walker.utf8(scalars))
      return strings.count < range.count
    }
    return strings
  }

  private func withWalker<R>(_ body: (Walker) -> R) -> R {
    Self.withWalker(remembered, length: length, depth: depth, model, canonicalOrder, body)
  }

  private static func withWalker<R>(
    _ remembered: SecureBytes, length: Int, depth: Int, _ model: TypoModel,
    _ canonicalOrder: Bool, _ body: (Walker) -> R
  ) -> R {
    // Each typo or edit adds at most one character; one more for the scratch of a typo.
    let capacity = length + depth + 1
    return ScalarBuffer.withWiped(
      capacity: PassphraseSet.printableASCII.count + length
    ) { alphabet in
      // The edits' alphabet, as the sets make it: printable ASCII, then the string's others.
      for byte in PassphraseSet.printableASCII { alphabet.append(Unicode.Scalar(byte)) }
      // Valid UTF-8, checked when the tree was made.
      _ = remembered.withUnsafeBytes { raw in
        ScalarBuffer.forEachScalar(inUTF8: raw) { scalar in
          if !alphabet.contains(scalar) { alphabet.append(scalar) }
        }
      }
      return withBuffers(depth + 1, capacity: capacity, []) { buffers in
        var buffers = buffers
        remembered.withUnsafeBytes { buffers[0].append(utf8: $0) }
        let walker = Walker(
          buffers: buffers, alphabet: alphabet, model: model, canonicalOrder: canonicalOrder)
        return body(walker)
      }
    }
  }

  /// `count` wiped scalar buffers, one a level.
  private static func withBuffers<R>(
    _ count: Int, capacity: Int, _ made: [ScalarBuffer], _ body: ([ScalarBuffer]) -> R
  ) -> R {
    guard made.count < count else { return body(made) }
    return ScalarBuffer.withWiped(capacity: capacity) { buffer in
      withBuffers(count, capacity: capacity, made + [buffer], body)
    }
  }

  /// The walks over a tree, with one buffer a level (`buffers[d]`: the string at depth d now
  /// made); it lives only inside `withWalker`.
  final class Walker {
    var buffers: [ScalarBuffer]
    let alphabet: ScalarBuffer
    let model: TypoModel
    let canonicalOrder: Bool
    /// Set when a count overflowed `Int` (it is then `Int.max`).
    var overflowed = false

    init(buffers: [ScalarBuffer], alphabet: ScalarBuffer, model: TypoModel, canonicalOrder: Bool) {
      self.buffers = buffers
      self.alphabet = alphabet
      self.model = model
      self.canonicalOrder = canonicalOrder
    }

    /// The UTF-8 of the string at `depth`, in a new wiped buffer.
    func utf8(_ depth: Int) -> SecureBytes { Self.utf8(buffers[depth]) }

    static func utf8(_ scalars: ScalarBuffer) -> SecureBytes {
      var count = 0
      for index in 0..<scalars.count { count += UTF8.width(scalars[index]) }
      return SecureBytes(count: count) { scalars.encode(into: $0, at: 0) }
    }

    func childCount(_ branch: Branch, of depth: Int) -> Int {
      switch branch {
      case .typos: model.typoCount(of: buffers[depth])
      case .edits: PassphraseSet.editCount(of: buffers[depth], alphabet: alphabet)
      }
    }

    /// Makes child `ordinal` of `branch` of the string at `depth` at `depth + 1`.
    @discardableResult
    func makeChild(_ branch: Branch, _ ordinal: Int, of depth: Int) -> PassphraseEdit {
      let parent = buffers[depth]
      var child = buffers[depth + 1]
      defer { buffers[depth + 1] = child }
      switch branch {
      case .typos:
        return model.typo(of: parent, at: ordinal, into: &child, canonicalOrder: canonicalOrder)
      case .edits:
        return PassphraseSet.edit(
          of: parent, alphabet: alphabet, at: ordinal, into: &child,
          canonicalOrder: canonicalOrder)
      }
    }

    /// How many strings `segment` has, and its samples; nil when the count overflows.
    func count(_ segment: Shape) -> (Int, Samples)? {
      guard case .children(let parentShape, let rule) = segment else { return (1, Samples()) }
      var samples = Samples()
      var total = 0
      var parents = 0
      var overflowed = false
      let depth = parentShape.depth
      _ = walk(parentShape, from: nil) { _, likely, position in
        if parents % samples.spacing == 0 {
          if samples.marks.count == TypoTree.maximumSamples {
            samples.marks = samples.marks.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            samples.spacing *= 2
          }
          if parents % samples.spacing == 0 { samples.marks.append((total, position())) }
        }
        parents += 1
        for branch in rule.branches(likely: likely) {
          let (sum, overflow) = total.addingReportingOverflow(childCount(branch, of: depth))
          guard !overflow else {
            overflowed = true
            return false
          }
          total = sum
        }
        return true
      }
      return overflowed ? nil : (total, samples)
    }

    /// Where string `target` of `segment` lies: from the last sample before it, the parents
    /// are skipped by their children's count (none made) to the one that makes it.
    func seek(_ segment: Shape, _ target: Int, _ samples: Samples) -> Position {
      guard case .children(let parentShape, let rule) = segment else { return .root }
      var (low, high) = (0, samples.marks.count)
      while high - low > 1 {
        let middle = (low + high) / 2
        if samples.marks[middle].before <= target { low = middle } else { high = middle }
      }
      var rest = target - samples.marks[low].before
      let depth = parentShape.depth
      var found: Position?
      _ = walk(parentShape, from: samples.marks[low].parent) { _, likely, position in
        for (index, branch) in rule.branches(likely: likely).enumerated() {
          let children = childCount(branch, of: depth)
          if rest < children {
            found = .child(parent: position(), branch: index, ordinal: rest)
            return false
          }
          rest -= children
        }
        return true
      }
      guard let found else { preconditionFailure("a seek past the end of a typo tree") }
      return found
    }

    /// Makes the string at `position` of `shape` at its depth, appends the typos that made
    /// it to `edits`, and says whether it is likely.
    func materialize(_ shape: Shape, _ position: Position, _ edits: inout [PassphraseEdit])
      -> Bool
    {
      switch (shape, position) {
      case (.root, _):
        return true
      case (.concat(let first, let second), .part(let part, let inner)):
        return materialize(part == 0 ? first : second, inner, &edits)
      case (.children(let parentShape, let rule), .child(let parent, let branch, let ordinal)):
        let likely = materialize(parentShape, parent, &edits)
        let branch = rule.branches(likely: likely)[branch]
        edits.append(makeChild(branch, ordinal, of: parentShape.depth))
        return likely && branch == .typos
      default:
        preconditionFailure("a position of another shape")
      }
    }

    /// Calls `body` with the depth, likeliness and position (made when asked) of each string
    /// of `shape` from `start` (the first when nil), made at its depth; false when `body`
    /// stopped the walk.
    func walk(
      _ shape: Shape, from start: Position?, _ body: (Int, Bool, () -> Position) -> Bool
    ) -> Bool {
      switch shape {
      case .root:
        return body(0, true) { .root }
      case .concat(let first, let second):
        return withoutActuallyEscaping(body) { body in
          // A part's positions, wrapped in the part's number.
          func inPart(_ part: Int) -> (Int, Bool, () -> Position) -> Bool {
            { depth, likely, inner in
              withoutActuallyEscaping(inner) { inner in
                body(depth, likely) { .part(part, inner()) }
              }
            }
          }
          if case .part(1, let position) = start {
            return walk(second, from: position, inPart(1))
          }
          var inner: Position?
          if case .part(0, let position) = start { inner = position }
          return walk(first, from: inner, inPart(0)) && walk(second, from: nil, inPart(1))
        }
      case .children(let parentShape, let rule):
        var parentStart: Position?
        var (firstBranch, firstOrdinal) = (0, 0)
        if case .child(let parent, let branch, let ordinal) = start {
          (parentStart, firstBranch, firstOrdinal) = (parent, branch, ordinal)
        }
        let depth = parentShape.depth
        return walk(parentShape, from: parentStart) { _, likely, parent in
          defer { (firstBranch, firstOrdinal) = (0, 0) }
          let branches = rule.branches(likely: likely)
          for index in firstBranch..<max(firstBranch, branches.count) {
            let branch = branches[index]
            let children = childCount(branch, of: depth)
            let from = index == firstBranch ? firstOrdinal : 0
            guard from < children else { continue }
            for ordinal in from..<children {
              makeChild(branch, ordinal, of: depth)
              let made = withoutActuallyEscaping(parent) { parent in
                body(depth + 1, likely && branch == .typos) {
                  .child(parent: parent(), branch: index, ordinal: ordinal)
                }
              }
              guard made else { return false }
            }
          }
          return true
        }
      }
    }
  }
}

extension TypoTree {
  /// The levels a password search makes of the remembered password, in today's order: it;
  /// one likely typo; the one generic edit if asked (after the remembered alone without
  /// typos); two likely typos; and so on, each level the typos of the one before it.
  package static func passwordLevels(typos: Int, oneEdit: Bool) -> [(
    level: PasswordSet.Level, segments: [Shape]
  )] {
    var levels: [(PasswordSet.Level, [Shape])] = [(.remembered, [.root])]
    let edits: (PasswordSet.Level, [Shape]) = (.oneEdit, [.children(of: .root, .edits)])
    if oneEdit, typos == 0 { levels.append(edits) }
    var shape = Shape.root
    for typo in 0..<max(0, typos) {
      shape = .children(of: shape, .typos)
      levels.append((.likelyTypos(typo + 1), [shape]))
      if oneEdit, typo == 0 { levels.append(edits) }
    }
    return levels
  }

  /// The levels of a passphrase's typos, in today's order: the remembered one; then, level k,
  /// the likely typos of the strings likely typos alone made at level k − 1, then for each
  /// string of level k − 1 in turn its generic edits (made by likely typos alone) or its
  /// likely typos and then its generic edits (the others).
  package static func passphraseLevels(edits: Int) -> [[Shape]] {
    var levels: [[Shape]] = [[.root]]
    var shape = Shape.root
    for _ in 0..<max(0, edits) {
      let segments: [Shape] = [
        .children(of: shape, .likelyTypos), .children(of: shape, .otherEdits),
      ]
      levels.append(segments)
      shape = .concat(segments[0], segments[1])
    }
    return levels
  }
}

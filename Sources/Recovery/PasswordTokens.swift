import CryptoPrimitives
import VaultKeys

/// A token list as btcrecover reads one: each line holds alternatives (tokens separated by spaces
/// or tabs); a password is made of at most one token of each line, in any order; a line whose
/// first field is `+` is required (every password holds one of its tokens); a token written
/// `^abc` comes first in the password, `abc$` last. Blank lines and lines starting with `#` are
/// skipped. The file stays in its wiped buffer; tokens are ranges of it.
package struct PasswordTokens: Sendable {
  /// One token: its bytes in the file and its anchors.
  struct Token: Sendable {
    let range: Range<Int>
    /// Written `^…`: first in the password.
    let first: Bool
    /// Written `…$`: last in the password.
    let last: Bool

    /// The anchors it takes: 1 first, 2 last, 3 both.
    var anchors: Int { (first ? 1 : 0) | (last ? 2 : 0) }
  }

  /// One line of alternatives.
  struct Line: Sendable {
    /// The 1-based line of the file.
    let number: Int
    let required: Bool
    let tokens: [Token]
    /// The indexes of its tokens by the anchors they take (`Token.anchors`), each in line order.
    let byAnchors: [[Int]]
    /// The anchors its tokens take.
    let anchors: Anchors

    init(number: Int, required: Bool, tokens: [Token]) {
      self.number = number
      self.required = required
      self.tokens = tokens
      var byAnchors = [[Int]](repeating: [], count: 4)
      for (index, token) in tokens.enumerated() { byAnchors[token.anchors].append(index) }
      self.byAnchors = byAnchors
      anchors = Anchors((0..<4).filter { !byAnchors[$0].isEmpty })
    }
  }

  /// Which token of which line, 1-based, as a password's origin says it without quoting it.
  package struct Choice: Sendable, Equatable {
    package let line: Int
    package let token: Int
  }

  /// More lines than this are refused: every subset of them is searched.
  package static let maximumLines = 20

  private let file: SecureBytes
  let lines: [Line]

  /// Reads a token file (UTF-8).
  package init(file: SecureBytes) throws(PasswordRecoveryError) {
    guard file.withUnsafeBytes(ScalarBuffer.isValidUTF8) else { throw .invalidUTF8 }
    var lines: [Line] = []
    var invalid: Int?
    file.withUnsafeBytes { raw in
      for (index, range) in PassphraseSet.lines(raw).enumerated() {
        guard invalid == nil else { return }
        if raw[range].first == UInt8(ascii: "#") { continue }
        var fields: [Range<Int>] = []
        var start: Int?
        for position in range.lowerBound...range.upperBound {
          let blank =
            position == range.upperBound || raw[position] == 0x20 || raw[position] == 0x09
          if blank, let begin = start {
            fields.append(begin..<position)
            start = nil
          } else if !blank, start == nil {
            start = position
          }
        }
        let required = fields.first.map { $0.count == 1 && raw[$0.lowerBound] == 0x2B } ?? false
        if required { fields.removeFirst() }
        if fields.isEmpty {
          if required { invalid = index + 1 }
          continue
        }
        var tokens: [Token] = []
        for field in fields {
          let first = raw[field.lowerBound] == UInt8(ascii: "^")
          let last = raw[field.upperBound - 1] == UInt8(ascii: "$")
          let lower = field.lowerBound + (first ? 1 : 0)
          let upper = field.upperBound - (last ? 1 : 0)
          guard lower < upper else {
            invalid = index + 1
            return
          }
          tokens.append(Token(range: lower..<upper, first: first, last: last))
        }
        lines.append(Line(number: index + 1, required: required, tokens: tokens))
      }
    }
    if let invalid { throw .invalidTokenLine(invalid) }
    guard !lines.isEmpty else { throw .noPasswords }
    guard lines.count <= Self.maximumLines else { throw .tooManyTokenLines(lines.count) }
    self.file = file
    self.lines = lines
  }

  /// The most bytes a password made of these tokens has.
  var maximumByteCount: Int {
    lines.reduce(0) { $0 + ($1.tokens.map(\.range.count).max() ?? 0) }
  }

  /// The number of passwords the tokens make, exactly, or nil when above `limit`. Counted
  /// without making them, line by line: the ways to take a token of each line or none, by the
  /// anchors taken and the number of lines, then the orders of each.
  func count(limit: Int) -> Int? {
    // Every sum and product is kept at most `limit + 1`: above it, the exact number is not needed.
    let cap = limit + 1
    func add(_ a: Int, _ b: Int) -> Int {
      let (sum, overflow) = a.addingReportingOverflow(b)
      return overflow ? cap : min(cap, sum)
    }
    func multiply(_ a: Int, _ b: Int) -> Int {
      let (product, overflow) = a.multipliedReportingOverflow(by: b)
      return overflow ? cap : min(cap, product)
    }
    let requiredLines = lines.filter(\.required).count
    // One token alone, whatever its anchors: any line's when none is required, else the
    // required line's.
    var total = 0
    if requiredLines <= 1 {
      for line in lines where requiredLines == 0 || line.required {
        total = add(total, line.tokens.count)
      }
    }
    // Two or more (a token anchored both ways makes none): ways[anchors][lines taken].
    var ways = [[Int]](repeating: [Int](repeating: 0, count: lines.count + 1), count: 4)
    ways[0][0] = 1
    for line in lines {
      var next = ways
      if line.required {
        for anchors in 0..<4 { next[anchors] = [Int](repeating: 0, count: lines.count + 1) }
      }
      for taken in 0..<4 {
        for count in 0..<lines.count where ways[taken][count] > 0 {
          for anchors in 0..<3 where taken & anchors == 0 && !line.byAnchors[anchors].isEmpty {
            next[taken | anchors][count + 1] = add(
              next[taken | anchors][count + 1],
              multiply(ways[taken][count], line.byAnchors[anchors].count))
          }
        }
      }
      ways = next
    }
    for taken in 0..<4 {
      for count in 0...lines.count where count >= 2 && ways[taken][count] > 0 {
        // The tokens not anchored, in any order between the first and the last.
        let free = count - taken.nonzeroBitCount
        let orders = free < 2 ? 1 : (2...free).reduce(1, multiply)
        total = add(total, multiply(ways[taken][count], orders))
      }
    }
    return total > limit ? nil : total
  }

  /// Calls `body` with each password's tokens in order, fewest lines first (then by the
  /// lines taken, the tokens taken, the order), each once; `false` stops. Only choices that
  /// make a password are visited: a line or token whose anchor cannot fit with those taken
  /// and some choice of the lines after it is never tried, so the time is linear in the
  /// passwords made.
  func forEachPassword(_ body: ([Choice], [Range<Int>]) -> Bool) {
    let requiredLines = lines.filter(\.required).count
    for size in max(1, requiredLines)...lines.count {
      // A token anchored both ways is a password alone, never with another.
      let usable = lines.map { size == 1 ? $0.anchors : $0.anchors.removing(3) }
      // reach[i][m]: the anchors a token of each of m lines of lines[i...] can take, every
      // required one of them among those m.
      var reach = [[Anchors]](
        repeating: [Anchors](repeating: Anchors([]), count: size + 1), count: lines.count + 1)
      reach[lines.count][0] = Anchors([0])
      for index in lines.indices.reversed() {
        for taken in 0...size {
          var anchors = lines[index].required ? Anchors([]) : reach[index + 1][taken]
          if taken > 0 { anchors.formUnion(reach[index + 1][taken - 1].adding(usable[index])) }
          reach[index][taken] = anchors
        }
      }
      var subset: [Int] = []
      func chooseLines(from start: Int, taking anchors: Anchors) -> Bool {
        guard subset.count < size else {
          return chooseTokens(of: subset, usable: usable, body)
        }
        let left = size - subset.count
        var index = start
        while index <= lines.count - left {
          let taken = anchors.adding(usable[index])
          if taken.fits(reach[index + 1][left - 1]) {
            subset.append(index)
            let going = chooseLines(from: index + 1, taking: taken)
            subset.removeLast()
            if !going { return false }
          }
          // A required line is never left out.
          if lines[index].required { break }
          index += 1
        }
        return true
      }
      if !chooseLines(from: 0, taking: Anchors([0])) { return }
    }
  }

  /// Calls `body` with each password made of one token of each line of `subset` (which makes
  /// one at least), the tokens of the first line slowest, then each order of those tokens.
  private func chooseTokens(
    of subset: [Int], usable: [Anchors], _ body: ([Choice], [Range<Int>]) -> Bool
  ) -> Bool {
    // after[q]: the anchors a token of each of subset[q...] can take.
    var after = [Anchors](repeating: Anchors([0]), count: subset.count + 1)
    for position in subset.indices.reversed() {
      after[position] = after[position + 1].adding(usable[subset[position]])
    }
    var picks = [Int](repeating: 0, count: subset.count)
    func choose(_ position: Int, taken: Int) -> Bool {
      guard position < subset.count else { return arrange(subset, picks, body) }
      let line = lines[subset[position]]
      // The anchors this token may take, and a cursor in the line's tokens of each.
      var cursors = [Int?](repeating: nil, count: 4)
      for anchors in 0..<4
      where usable[subset[position]].contains(anchors) && taken & anchors == 0
        && after[position + 1].admits(taken | anchors)
      {
        cursors[anchors] = 0
      }
      // The tokens of those anchors, merged in line order.
      while true {
        var next: (anchors: Int, token: Int)?
        for anchors in 0..<4 {
          guard let cursor = cursors[anchors], cursor < line.byAnchors[anchors].count else {
            continue
          }
          let token = line.byAnchors[anchors][cursor]
          if next.map({ token < $0.token }) ?? true { next = (anchors, token) }
        }
        guard let next else { return true }
        cursors[next.anchors]! += 1
        picks[position] = next.token
        if !choose(position + 1, taken: taken | next.anchors) { return false }
      }
    }
    return choose(0, taken: 0)
  }

  /// Calls `body` with each order of the tokens `picks` of the lines `subset`: the one
  /// anchored first, the free ones in each order, the one anchored last.
  private func arrange(
    _ subset: [Int], _ picks: [Int], _ body: ([Choice], [Range<Int>]) -> Bool
  ) -> Bool {
    let tokens = zip(subset, picks).map { lines[$0].tokens[$1] }
    let chosen = zip(subset, picks).map { Choice(line: lines[$0].number, token: $1 + 1) }
    let firsts = tokens.indices.filter { tokens[$0].first }
    let lasts = tokens.indices.filter { tokens[$0].last }
    var free = tokens.indices.filter { !tokens[$0].first && !tokens[$0].last }
    repeat {
      let order = tokens.count == 1 ? [0] : firsts + free + lasts
      if !body(order.map { chosen[$0] }, order.map { tokens[$0].range }) { return false }
    } while Self.nextPermutation(&free)
    return true
  }

  /// The bytes of `ranges` one after the other, written at `offset` of `target`.
  func write(_ ranges: [Range<Int>], into target: UnsafeMutableRawBufferPointer, at offset: Int)
    -> Int
  {
    var cursor = offset
    file.withUnsafeBytes { raw in
      for range in ranges {
        UnsafeMutableRawBufferPointer(rebasing: target[cursor..<(cursor + range.count)])
          .copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[range]))
        cursor += range.count
      }
    }
    return cursor
  }

  /// The next arrangement of `values` in lexicographic order; false after the last.
  private static func nextPermutation(_ values: inout [Int]) -> Bool {
    guard values.count > 1 else { return false }
    var i = values.count - 2
    while i >= 0, values[i] >= values[i + 1] { i -= 1 }
    if i < 0 { return false }
    var j = values.count - 1
    while values[j] <= values[i] { j -= 1 }
    values.swapAt(i, j)
    values[(i + 1)...].reverse()
    return true
  }

  /// A set of the anchors tokens may take (0 none, 1 first, 2 last, 3 both), as 4 bits.
  struct Anchors: Sendable, Equatable {
    private var bits: UInt8

    init(_ members: [Int]) {
      bits = members.reduce(0) { $0 | 1 << $1 }
    }

    func contains(_ anchors: Int) -> Bool { bits & 1 << anchors != 0 }

    func removing(_ anchors: Int) -> Anchors {
      var set = self
      set.bits &= ~(1 << anchors)
      return set
    }

    mutating func formUnion(_ other: Anchors) { bits |= other.bits }

    /// The anchors taken after one more token whose anchors are in `token` (each anchor
    /// taken once at most).
    func adding(_ token: Anchors) -> Anchors {
      var set = Anchors([])
      for taken in 0..<4 where contains(taken) {
        for anchors in 0..<4 where token.contains(anchors) && taken & anchors == 0 {
          set.bits |= 1 << (taken | anchors)
        }
      }
      return set
    }

    /// Whether tokens taking `anchors` leave room for one of these.
    func admits(_ anchors: Int) -> Bool {
      (0..<4).contains { contains($0) && $0 & anchors == 0 }
    }

    /// Whether one of these leaves room for one of `other`.
    func fits(_ other: Anchors) -> Bool {
      (0..<4).contains { contains($0) && other.admits($0) }
    }
  }
}

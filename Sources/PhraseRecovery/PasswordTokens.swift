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
  }

  /// One line of alternatives.
  struct Line: Sendable {
    /// The 1-based line of the file.
    let number: Int
    let required: Bool
    let tokens: [Token]
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
  /// without making them: per choice of lines, the choices of tokens by how many are anchored.
  func count(limit: Int) -> Int? {
    var total = 0
    var exceeded = false
    forEachSubset { subset in
      // The choices of one token a line, by how many are anchored first, last and both (each
      // counted up to 2: two of a kind make no password).
      var states = [State: Int]()
      states[State()] = 1
      for line in subset.map({ lines[$0] }) {
        var next = [State: Int]()
        for (state, ways) in states {
          for token in line.tokens {
            let key = state.adding(token)
            next[key] = min(limit + 1, (next[key] ?? 0) + ways)
          }
        }
        states = next
      }
      for (state, ways) in states {
        let (product, overflow) = ways.multipliedReportingOverflow(
          by: state.orders(of: subset.count))
        total = overflow ? limit + 1 : min(limit + 1, total + product)
        if total > limit {
          exceeded = true
          return false
        }
      }
      return true
    }
    return exceeded ? nil : total
  }

  /// Calls `body` with each password's tokens in order, fewest lines first; `false` stops.
  func forEachPassword(_ body: ([Choice], [Range<Int>]) -> Bool) {
    forEachSubset { subset in
      var picks = [Int](repeating: 0, count: subset.count)
      while true {
        let tokens = zip(subset, picks).map { lines[$0].tokens[$1] }
        let chosen = zip(subset, picks).map { Choice(line: lines[$0].number, token: $1 + 1) }
        let firsts = tokens.indices.filter { tokens[$0].first }
        let lasts = tokens.indices.filter { tokens[$0].last }
        let valid =
          firsts.count <= 1 && lasts.count <= 1
          && (tokens.count == 1 || Set(firsts).isDisjoint(with: lasts))
        if valid {
          var free = tokens.indices.filter { !tokens[$0].first && !tokens[$0].last }
          repeat {
            let order = tokens.count == 1 ? [0] : firsts + free + lasts
            if !body(order.map { chosen[$0] }, order.map { tokens[$0].range }) { return false }
          } while Self.nextPermutation(&free)
        }
        // The next choice of tokens, the last line's fastest.
        var position = subset.count - 1
        while position >= 0 {
          picks[position] += 1
          if picks[position] < lines[subset[position]].tokens.count { break }
          picks[position] = 0
          position -= 1
        }
        if position < 0 { return true }
      }
    }
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

  /// Each set of lines a password may take a token of (every required one in each), fewest
  /// first, in line order; `false` stops.
  private func forEachSubset(_ body: ([Int]) -> Bool) {
    let required = lines.indices.filter { lines[$0].required }
    for size in max(1, required.count)...lines.count {
      var subset = Array(0..<size)
      while true {
        if required.allSatisfy(subset.contains), !body(subset) { return }
        // The next combination of `size` lines.
        var position = size - 1
        while position >= 0, subset[position] == lines.count - size + position { position -= 1 }
        if position < 0 { break }
        subset[position] += 1
        for next in (position + 1)..<size { subset[next] = subset[next - 1] + 1 }
      }
    }
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

  /// How many tokens of a choice are anchored, each count kept up to 2.
  private struct State: Hashable {
    var first = 0
    var last = 0
    var both = 0

    func adding(_ token: Token) -> State {
      var state = self
      switch (token.first, token.last) {
      case (true, true): state.both = min(2, both + 1)
      case (true, false): state.first = min(2, first + 1)
      case (false, true): state.last = min(2, last + 1)
      case (false, false): break
      }
      return state
    }

    /// The orders of `count` tokens with these anchors: the free ones in any order between
    /// the first and the last.
    func orders(of count: Int) -> Int {
      if both > 0 { return both == 1 && count == 1 ? 1 : 0 }
      guard first <= 1, last <= 1 else { return 0 }
      return (1...max(1, count - first - last)).reduce(1) { $0 * $1 }
    }
  }
}

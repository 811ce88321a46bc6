import CryptoPrimitives
import VaultKeys

/// A token list as btcrecover reads one: each line holds alternatives (tokens separated by spaces
/// or tabs); a password is made of at most one token of each line, in any order; a line whose
/// first field is `+` is required (every password holds one of its tokens). Anchors: `^abc`
/// comes first, `abc$` last, `^3^abc` third, `^2,4^abc` second to fourth and never first or
/// last (`^,^`, `^3,^`, `^,4^`: either bound left out). Wildcards expand in place: `%d` a digit,
/// `%4d` four, `%1,3d` one to three (`%0,2d`: none too); `%a` `%A` `%n` `%N` `%s` `%l` `%r`
/// `%R` `%t` `%T` `%w` `%W` `%y` `%Y` `%p` `%P` as btcrecover names them, `%[chars]` one of the
/// characters (`a-f` a range), `i` after the count for either case (`%ia`, `%2i[0-9a-f]`);
/// `%%`, `%^` and `%S` are a `%`, a `^` and a `$`. Blank lines and lines starting with `#` are
/// skipped.
///
/// The passwords are a space numbered 0..<count, counted exactly without making any: fewest
/// tokens first, then the lines taken (in order), the tokens taken (the first line's slowest),
/// the order of the tokens, and the wildcards' characters (the first wildcard slowest, each
/// shortest first). `password(at:)` makes the password of a number directly, so a part of the
/// space is searched without making what comes before it, in memory independent of the count.
/// The same password may come more than once (two tokens, or a token and a wildcard, can spell
/// the same text). The file stays in its wiped buffer; tokens are ranges of it.
package struct PasswordTokens: Sendable {
  /// Which token of which line, 1-based, as a password's origin says it without quoting it.
  package struct Choice: Sendable, Equatable {
    package let line: Int
    package let token: Int
  }

  /// Where a token may stand among the tokens of a password (1-based positions).
  struct Placement: Sendable, Equatable {
    /// `^…`: first.
    var first = false
    /// `…$`: last.
    var last = false
    /// `^N^…`: N-th.
    var position: Int?
    /// `^N,M^…`: from N to M (nil: to the last but one), never first or last.
    var middle: (low: Int, high: Int?)?

    static func == (lhs: Self, rhs: Self) -> Bool {
      (lhs.first, lhs.last, lhs.position) == (rhs.first, rhs.last, rhs.position)
        && lhs.middle?.low == rhs.middle?.low && lhs.middle?.high == rhs.middle?.high
        && (lhs.middle == nil) == (rhs.middle == nil)
    }

    /// Where the token may stand among `size` tokens.
    func kind(size: Int) -> Kind {
      if let middle {
        let low = max(2, middle.low)
        let high = min(size - 1, middle.high ?? size - 1)
        return low <= high ? .between(low, high) : .never
      }
      var fixed: Int?
      for (holds, at) in [(first, 1), (last, size), (position != nil, position ?? 0)] where holds {
        if let fixed, fixed != at { return .never }
        fixed = at
      }
      guard let fixed else { return .free }
      return (1...size).contains(fixed) ? .at(fixed) : .never
    }
  }

  /// A token's place among `size` tokens.
  enum Kind: Hashable {
    case free
    case at(Int)
    case between(Int, Int)
    case never
  }

  /// One wildcard: `minimum` to `maximum` characters of a set (ranges of `alphabet`).
  struct Wildcard: Sendable {
    let members: Range<Int>
    let minimum: Int
    let maximum: Int
    /// Σ members^length over the lengths (saturated at `Int.max`).
    let count: Int
  }

  enum Piece: Sendable {
    /// Bytes of the file.
    case literal(Range<Int>)
    case wildcard(Wildcard)
  }

  struct Token: Sendable {
    let pieces: [Piece]
    let placement: Placement
    /// The texts its wildcards make (1 without any; saturated at `Int.max`).
    let weight: Int
  }

  /// One line of alternatives.
  struct Line: Sendable {
    /// The 1-based line of the file.
    let number: Int
    let required: Bool
    let tokens: [Token]
  }

  /// More lines than this are refused: every subset of them is searched.
  package static let maximumLines = 20
  /// A wildcard of more characters than this is refused.
  static let maximumWildcardLength = 64

  private let file: SecureBytes
  /// The characters of every wildcard set, UTF-8, one after the other; `members` are ranges of
  /// it.
  private let alphabet: SecureBytes
  private let members: [Range<Int>]
  let lines: [Line]
  /// The passwords of `size` tokens, by size (index 0 unused), and the counts the numbering
  /// walks (`Key` → passwords the rest of the lines complete).
  private let sizeCounts: [Int]
  private let completions: [Key: Int]
  /// `kinds(of:size:)` of each line, by size then line, made once.
  private let lineKinds: [[[(Kind, Int)]]]

  /// The number of passwords (duplicates possible).
  package let count: Int

  /// Reads a token file (UTF-8); refuses it, naming the line and never a token, where a token
  /// is not one this reader knows, and when the passwords are more than `Int.max`.
  package init(file: SecureBytes) throws(PasswordRecoveryError) {
    guard file.withUnsafeBytes(ScalarBuffer.isValidUTF8) else { throw .invalidUTF8 }
    // Parsed twice: first to size the wildcards' alphabet, then to fill it.
    var sets: [(spec: SetSpec, line: Int)] = []
    var parsed: [(number: Int, required: Bool, tokens: [ParsedToken])] = []
    var failure: PasswordRecoveryError?
    file.withUnsafeBytes { raw in
      for (index, range) in PassphraseSet.lines(raw).enumerated() {
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
          if required {
            failure = .invalidTokenLine(index + 1)
            return
          }
          continue
        }
        var tokens: [ParsedToken] = []
        for field in fields {
          switch Self.parse(raw, field) {
          case .success(let token):
            tokens.append(token)
            for piece in token.pieces {
              if case .wildcard(let spec, _, _) = piece { sets.append((spec, index + 1)) }
            }
          case .failure(let reason):
            failure =
              reason == .anchorOnly ? .invalidTokenLine(index + 1) : .unsupportedToken(index + 1)
            return
          }
        }
        parsed.append((index + 1, required, tokens))
      }
    }
    if let failure { throw failure }
    guard !parsed.isEmpty else { throw .noPasswords }
    guard parsed.count <= Self.maximumLines else { throw .tooManyTokenLines(parsed.count) }

    // The alphabet: every set's characters, in one wiped buffer.
    var byteCount = 0
    var memberCount = 0
    for (spec, line) in sets {
      var members = 0
      file.withUnsafeBytes { raw in
        spec.forEachMember(raw) { scalar in
          byteCount += Self.utf8Width(scalar)
          members += 1
        }
      }
      guard members > 0 else { throw .unsupportedToken(line) }
      memberCount += members
    }
    var memberRanges: [Range<Int>] = []
    memberRanges.reserveCapacity(memberCount)
    let alphabet = SecureBytes(count: byteCount) { target in
      var cursor = 0
      file.withUnsafeBytes { raw in
        for (spec, _) in sets {
          spec.forEachMember(raw) { scalar in
            let start = cursor
            JSONText.encodeUTF8(scalar) { byte in
              target[cursor] = byte
              cursor += 1
            }
            memberRanges.append(start..<cursor)
          }
        }
      }
    }
    var setIndex = 0
    var setStart = 0
    var lines: [Line] = []
    for line in parsed {
      var tokens: [Token] = []
      for token in line.tokens {
        var pieces: [Piece] = []
        var weight = 1
        for piece in token.pieces {
          switch piece {
          case .literal(let range):
            pieces.append(.literal(range))
          case .wildcard(_, let minimum, let maximum):
            var end = setStart
            file.withUnsafeBytes { raw in
              sets[setIndex].spec.forEachMember(raw) { _ in end += 1 }
            }
            let size = end - setStart
            var count = 0
            for length in minimum...maximum {
              count = Self.add(count, Self.power(size, length))
            }
            pieces.append(
              .wildcard(
                Wildcard(
                  members: setStart..<end, minimum: minimum, maximum: maximum, count: count)))
            weight = Self.multiply(weight, count)
            setStart = end
            setIndex += 1
          }
        }
        tokens.append(Token(pieces: pieces, placement: token.placement, weight: weight))
      }
      lines.append(Line(number: line.number, required: line.required, tokens: tokens))
    }
    self.file = file
    self.alphabet = alphabet
    members = memberRanges
    self.lines = lines

    // Count: for each size, the passwords every choice of lines and tokens makes.
    var completions: [Key: Int] = [:]
    var sizeCounts = [0]
    var total = 0
    for size in 1...lines.count {
      let made = Self.complete(
        lines, Key(size: size, line: 0, taken: 0, state: State()), &completions)
      sizeCounts.append(made)
      total = Self.add(total, made)
    }
    guard total < Int.max else { throw .tooManyPasswords(UInt64(Int.max)) }
    self.sizeCounts = sizeCounts
    self.completions = completions
    // Size 0 is no password: no line takes a place in it.
    lineKinds = (0...lines.count).map { size in
      size == 0 ? [] : lines.map { Self.kinds(of: $0, size: size) }
    }
    count = total
  }

  /// The token file as read: what defines the numbering, for a search's hash.
  var fileBytes: SecureBytes { file }

  /// Calls `body` with each password in order and the tokens that made it; `false` stops.
  func forEachPassword(_ body: ([Choice], SecureBytes) -> Bool) {
    var cursor = Cursor(self, at: 0)
    while let (choices, password) = cursor.next() {
      if !body(choices, password) { return }
    }
  }

  /// Password `index` (0 ≤ index < count) and the tokens that made it, in order.
  func password(at index: Int) -> ([Choice], SecureBytes) {
    let made = decode(index)
    return (made.choices, write(made))
  }

  /// The passwords from a number on, made one after the other: within one choice and order of
  /// tokens the next is its wildcards' next characters; past it, the next number is found anew.
  struct Cursor {
    private let tokens: PasswordTokens
    private var index: Int
    private var made: Made?

    init(_ tokens: PasswordTokens, at index: Int) {
      self.tokens = tokens
      self.index = index
    }

    mutating func next() -> ([Choice], SecureBytes)? {
      guard index < tokens.count else { return nil }
      // Advanced in place: a copy would copy its arrays for each password.
      if made == nil || !made!.advance() { made = tokens.decode(index) }
      index += 1
      // Just set.
      return (made!.choices, tokens.write(made!))
    }
  }

  // MARK: - Numbering

  /// A password as numbers: its tokens in order and each wildcard's characters.
  struct Made {
    /// The tokens in the password's order: (line index, token index).
    var order: [(line: Int, token: Int)]
    var choices: [Choice]
    /// For each wildcard of the tokens in order: its members, its length, and the member of
    /// each of its characters.
    var wildcards: [(wildcard: Wildcard, length: Int, digits: [Int])]

    /// The next characters of the wildcards (the last fastest, each shortest first); false
    /// after the last.
    mutating func advance() -> Bool {
      var position = wildcards.count - 1
      while position >= 0 {
        let wildcard = wildcards[position].wildcard
        let size = wildcard.members.count
        var place = wildcards[position].digits.count - 1
        while place >= 0 {
          wildcards[position].digits[place] += 1
          if wildcards[position].digits[place] < size { return true }
          wildcards[position].digits[place] = 0
          place -= 1
        }
        if wildcards[position].length < wildcard.maximum {
          wildcards[position].length += 1
          wildcards[position].digits = [Int](repeating: 0, count: wildcards[position].length)
          return true
        }
        wildcards[position].length = wildcard.minimum
        wildcards[position].digits = [Int](repeating: 0, count: wildcard.minimum)
        position -= 1
      }
      return false
    }
  }

  /// The tokens and characters of password `index`.
  func decode(_ index: Int) -> Made {
    var rest = index
    var size = 1
    while rest >= sizeCounts[size] {
      rest -= sizeCounts[size]
      size += 1
    }
    // The lines: taking line j comes before leaving it out. `ways` holds the states the lines
    // taken so far reach, each with the number of ways (weights) it is reached.
    var ways: [State: Int] = [State(): 1]
    var taken: [Int] = []
    for line in lines.indices {
      guard taken.count < size else { break }
      var next: [State: Int] = [:]
      var take = 0
      for (state, number) in ways {
        for (kind, weight) in lineKinds[size][line] {
          guard let reached = state.adding(kind) else { continue }
          let ways = Self.multiply(number, weight)
          next[reached, default: 0] = Self.add(next[reached, default: 0], ways)
          let key = Key(size: size, line: line + 1, taken: taken.count + 1, state: reached)
          take = Self.add(take, Self.multiply(ways, completions[key] ?? 0))
        }
      }
      if rest < take {
        taken.append(line)
        ways = next
      } else {
        rest -= take
      }
    }
    // The tokens, the first line's slowest.
    var picksMemo: [PicksKey: Int] = [:]
    func picks(_ position: Int, _ state: State) -> Int {
      if position == taken.count { return state.orders(size: size) }
      let key = PicksKey(position: position, state: state)
      if let known = picksMemo[key] { return known }
      var total = 0
      for (kind, weight) in lineKinds[size][taken[position]] {
        guard let reached = state.adding(kind) else { continue }
        total = Self.add(total, Self.multiply(weight, picks(position + 1, reached)))
      }
      picksMemo[key] = total
      return total
    }
    var state = State()
    var weight = 1
    var chosen: [Int] = []
    var kinds: [Kind] = []
    for (position, line) in taken.enumerated() {
      for (number, token) in lines[line].tokens.enumerated() {
        let kind = token.placement.kind(size: size)
        guard let reached = state.adding(kind) else { continue }
        let passwords = Self.multiply(
          Self.multiply(weight, token.weight), picks(position + 1, reached))
        if rest < passwords {
          chosen.append(number)
          kinds.append(kind)
          state = reached
          weight = Self.multiply(weight, token.weight)
          break
        }
        rest -= passwords
      }
    }
    // The order, then the wildcards' characters.
    let order = State.order(kinds, size: size, index: rest / weight)
    var made = Made(order: [], choices: [], wildcards: [])
    for slot in order {
      let (line, token) = (taken[slot], chosen[slot])
      made.order.append((line, token))
      made.choices.append(Choice(line: lines[line].number, token: token + 1))
    }
    var characters = rest % weight
    var wildcards: [Wildcard] = []
    for (line, token) in made.order {
      for case .wildcard(let wildcard) in lines[line].tokens[token].pieces {
        wildcards.append(wildcard)
      }
    }
    var digits = [(Int, [Int])](repeating: (0, []), count: wildcards.count)
    for position in wildcards.indices.reversed() {
      let wildcard = wildcards[position]
      var within = characters % wildcard.count
      characters /= wildcard.count
      var length = wildcard.minimum
      while within >= Self.power(wildcard.members.count, length) {
        within -= Self.power(wildcard.members.count, length)
        length += 1
      }
      var places = [Int](repeating: 0, count: length)
      for place in places.indices.reversed() {
        places[place] = within % wildcard.members.count
        within /= wildcard.members.count
      }
      digits[position] = (length, places)
    }
    made.wildcards = zip(wildcards, digits).map { ($0, $1.0, $1.1) }
    return made
  }

  /// The bytes of `made`, in a new wiped buffer.
  private func write(_ made: Made) -> SecureBytes {
    var length = 0
    var wildcard = 0
    for (line, token) in made.order {
      for piece in lines[line].tokens[token].pieces {
        switch piece {
        case .literal(let range): length += range.count
        case .wildcard(let set):
          for digit in made.wildcards[wildcard].digits {
            length += members[set.members.lowerBound + digit].count
          }
          wildcard += 1
        }
      }
    }
    return SecureBytes(count: length) { target in
      var cursor = 0
      var wildcard = 0
      file.withUnsafeBytes { raw in
        alphabet.withUnsafeBytes { characters in
          func copy(_ source: UnsafeRawBufferPointer, _ range: Range<Int>) {
            UnsafeMutableRawBufferPointer(rebasing: target[cursor..<(cursor + range.count)])
              .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[range]))
            cursor += range.count
          }
          for (line, token) in made.order {
            for piece in lines[line].tokens[token].pieces {
              switch piece {
              case .literal(let range): copy(raw, range)
              case .wildcard(let set):
                for digit in made.wildcards[wildcard].digits {
                  copy(characters, members[set.members.lowerBound + digit])
                }
                wildcard += 1
              }
            }
          }
        }
      }
    }
  }

  /// A line's tokens grouped by where they may stand among `size` tokens: each place and the
  /// sum of its tokens' weights, in the order first met.
  static func kinds(of line: Line, size: Int) -> [(Kind, Int)] {
    var kinds: [(Kind, Int)] = []
    for token in line.tokens {
      let kind = token.placement.kind(size: size)
      guard kind != .never else { continue }
      if let index = kinds.firstIndex(where: { $0.0 == kind }) {
        kinds[index].1 = add(kinds[index].1, token.weight)
      } else {
        kinds.append((kind, token.weight))
      }
    }
    return kinds
  }

  /// Where the numbering stands: among `size` tokens, lines before `line` decided, `taken` of
  /// them taken, their places `state`.
  struct Key: Hashable {
    let size: Int
    let line: Int
    let taken: Int
    let state: State
  }

  private struct PicksKey: Hashable {
    let position: Int
    let state: State
  }

  /// The passwords the lines from `key.line` on complete (each way of taking the rest).
  private static func complete(_ lines: [Line], _ key: Key, _ memo: inout [Key: Int]) -> Int {
    if let known = memo[key] { return known }
    var total = 0
    if key.taken == key.size && lines[key.line...].allSatisfy({ !$0.required }) {
      total = key.state.orders(size: key.size)
    } else if key.line < lines.count, key.taken + lines.count - key.line >= key.size,
      key.taken < key.size || !lines[key.line].required
    {
      let line = lines[key.line]
      if !line.required {
        total = complete(
          lines, Key(size: key.size, line: key.line + 1, taken: key.taken, state: key.state),
          &memo)
      }
      if key.taken < key.size {
        for (kind, weight) in kinds(of: line, size: key.size) {
          guard let reached = key.state.adding(kind) else { continue }
          let next = Key(size: key.size, line: key.line + 1, taken: key.taken + 1, state: reached)
          total = add(total, multiply(weight, complete(lines, next, &memo)))
        }
      }
    }
    memo[key] = total
    return total
  }

  /// The places the tokens taken hold: the fixed positions, and the ranges of those between.
  struct State: Hashable {
    /// Bit p − 1: position p is held.
    var fixed: UInt32 = 0
    /// Each middle token's range, low << 8 | high, sorted.
    var middles: [UInt16] = []
    var free = 0

    func adding(_ kind: Kind) -> State? {
      var state = self
      switch kind {
      case .never: return nil
      case .free: state.free += 1
      case .at(let position):
        let bit = UInt32(1) << (position - 1)
        guard fixed & bit == 0 else { return nil }
        state.fixed |= bit
      case .between(let low, let high):
        let packed = UInt16(low << 8 | high)
        let at = middles.firstIndex { $0 > packed } ?? middles.count
        state.middles.insert(packed, at: at)
      }
      return state
    }

    /// The orders of `size` tokens so placed: the middle tokens' positions (among those not
    /// fixed) times the free tokens' orders.
    func orders(size: Int) -> Int {
      let suffix = Self.assignments(fixed, middles, size: size)
      return PasswordTokens.multiply(suffix[1][0], PasswordTokens.factorial(free))
    }

    /// ways[p][mask]: the ways to fill positions p...size with the middle tokens not in
    /// `mask` (each within its range, on a position not fixed) and free tokens.
    static func assignments(_ fixed: UInt32, _ middles: [UInt16], size: Int) -> [[Int]] {
      let full = (1 << middles.count) - 1
      var ways = [[Int]](repeating: [Int](repeating: 0, count: full + 1), count: size + 2)
      ways[size + 1][full] = 1
      if size >= 1 {
        for position in stride(from: size, through: 1, by: -1) {
          let held = fixed & UInt32(1) << (position - 1) != 0
          for mask in 0...full {
            var total = ways[position + 1][mask]
            if !held {
              for (index, packed) in middles.enumerated() where mask & 1 << index == 0 {
                let (low, high) = (Int(packed >> 8), Int(packed & 0xFF))
                if (low...high).contains(position) {
                  total = PasswordTokens.add(total, ways[position + 1][mask | 1 << index])
                }
              }
            }
            ways[position][mask] = total
          }
        }
      }
      return ways
    }

    /// Order `index` of tokens of these `kinds` among `size`: for each position, which token
    /// (by its place in `kinds`) stands there. Positions not fixed take, in turn, a free token
    /// (before) or a middle one (in the order of `kinds`); the free tokens then in each order
    /// (lexicographic).
    static func order(_ kinds: [Kind], size: Int, index: Int) -> [Int] {
      var fixed: UInt32 = 0
      var middles: [(packed: UInt16, token: Int)] = []
      var free: [Int] = []
      var at = [Int?](repeating: nil, count: size + 1)
      for (token, kind) in kinds.enumerated() {
        switch kind {
        case .at(let position):
          fixed |= UInt32(1) << (position - 1)
          at[position] = token
        case .between(let low, let high): middles.append((UInt16(low << 8 | high), token))
        default: free.append(token)
        }
      }
      let ways = assignments(fixed, middles.map(\.packed), size: size)
      let orders = factorial(free.count)
      var rest = index / orders
      var permutation = index % orders
      var mask = 0
      var slots: [Int] = []
      for position in 1...size where at[position] == nil {
        if ways[position + 1][mask] > rest, slots.count < free.count {
          // A free token here: the ways the rest is filled with this mask.
          slots.append(position)
          continue
        }
        if slots.count < free.count { rest -= ways[position + 1][mask] }
        for (index, middle) in middles.enumerated() where mask & 1 << index == 0 {
          let (low, high) = (Int(middle.packed >> 8), Int(middle.packed & 0xFF))
          guard (low...high).contains(position) else { continue }
          let number = ways[position + 1][mask | 1 << index]
          if rest < number {
            at[position] = middle.token
            mask |= 1 << index
            break
          }
          rest -= number
        }
      }
      // The free tokens in order `permutation` (lexicographic), on their slots.
      var left = free
      for slot in slots {
        let step = factorial(left.count - 1)
        at[slot] = left.remove(at: permutation / step)
        permutation %= step
      }
      return (1...size).map { at[$0]! }
    }
  }

  // MARK: - Reading a token

  /// A wildcard's set, read from the file when asked (never copied out of it).
  enum SetSpec {
    /// One of btcrecover's named sets (ASCII), either case with `i`.
    case named(UInt8, caseless: Bool)
    /// `%[…]`: the characters between the brackets (bytes of the file), `a-z` a range.
    case listed(Range<Int>, caseless: Bool)

    static let namedSets: [UInt8: [UInt8]] = {
      let digits = Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
      let lower = Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
      let upper = Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
      let symbols = (UInt8(0x21)...0x7E).filter {
        !digits.contains($0) && !lower.contains($0) && !upper.contains($0)
      }
      let (space, lineFeed, carriage, tab): (UInt8, UInt8, UInt8, UInt8) = (0x20, 0x0A, 0x0D, 0x09)
      let printable = digits + lower + upper + symbols
      return [
        UInt8(ascii: "d"): digits, UInt8(ascii: "a"): lower, UInt8(ascii: "A"): upper,
        UInt8(ascii: "n"): digits + lower, UInt8(ascii: "N"): digits + upper,
        UInt8(ascii: "s"): [space], UInt8(ascii: "l"): [lineFeed], UInt8(ascii: "r"): [carriage],
        UInt8(ascii: "R"): [lineFeed, carriage], UInt8(ascii: "t"): [tab],
        UInt8(ascii: "T"): [space, tab], UInt8(ascii: "w"): [space, lineFeed, carriage],
        UInt8(ascii: "W"): [space, lineFeed, carriage, tab], UInt8(ascii: "y"): symbols,
        UInt8(ascii: "Y"): digits + symbols, UInt8(ascii: "p"): printable,
        UInt8(ascii: "P"): printable + [space, lineFeed, carriage, tab],
        UInt8(ascii: "%"): [UInt8(ascii: "%")], UInt8(ascii: "^"): [UInt8(ascii: "^")],
        UInt8(ascii: "S"): [UInt8(ascii: "$")],
      ]
    }()

    /// Calls `body` with each character of the set, in order: the set's own, then (with
    /// `i`) the other case of each ASCII letter of it (named sets: those not in it already).
    func forEachMember(_ raw: UnsafeRawBufferPointer, _ body: (UInt32) -> Void) {
      func other(_ scalar: UInt32) -> UInt32? {
        switch scalar {
        case 0x41...0x5A: scalar + 0x20
        case 0x61...0x7A: scalar - 0x20
        default: nil
        }
      }
      switch self {
      case .named(let name, let caseless):
        let set = Self.namedSets[name] ?? []
        for byte in set { body(UInt32(byte)) }
        if caseless {
          for byte in set {
            if let swapped = other(UInt32(byte)), !set.contains(UInt8(swapped)) { body(swapped) }
          }
        }
      case .listed(let range, let caseless):
        for pass in caseless ? [false, true] : [false] {
          Self.forEachListed(raw, range) { scalar in
            if !pass {
              body(scalar)
            } else if let swapped = other(scalar) {
              body(swapped)
            }
          }
        }
      }
    }

    /// The characters of `%[…]`'s inside: each one, `a-z` every one from a to z (a `-` first
    /// or last is itself).
    private static func forEachListed(
      _ raw: UnsafeRawBufferPointer, _ range: Range<Int>, _ body: (UInt32) -> Void
    ) {
      var scalars: [UInt32] = []
      // Bounded by the brackets' few characters; wiped below.
      defer { for index in scalars.indices { scalars[index] = 0 } }
      _ = ScalarBuffer.forEachScalar(inUTF8: UnsafeRawBufferPointer(rebasing: raw[range])) {
        scalars.append($0.value)
      }
      var index = 0
      while index < scalars.count {
        if index + 2 < scalars.count, scalars[index + 1] == 0x2D,
          scalars[index] <= scalars[index + 2]
        {
          for value in scalars[index]...scalars[index + 2] where Unicode.Scalar(value) != nil {
            body(value)
          }
          index += 3
        } else {
          body(scalars[index])
          index += 1
        }
      }
    }
  }

  enum ParsedPiece {
    case literal(Range<Int>)
    case wildcard(SetSpec, minimum: Int, maximum: Int)
  }

  struct ParsedToken {
    let pieces: [ParsedPiece]
    let placement: Placement
  }

  enum ParseFailure: Error {
    /// Nothing but anchors.
    case anchorOnly
    /// An anchor or wildcard this reader does not know.
    case unsupported
  }

  /// One token of the file (`field`): its anchors, then its text and wildcards.
  static func parse(_ raw: UnsafeRawBufferPointer, _ field: Range<Int>) -> Result<
    ParsedToken, ParseFailure
  > {
    var placement = Placement()
    var start = field.lowerBound
    var end = field.upperBound
    func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    func number(_ range: Range<Int>) -> Int? {
      guard !range.isEmpty, range.count <= 4 else { return range.isEmpty ? nil : Int.max }
      return range.reduce(0) { $0 * 10 + Int(raw[$1] - 0x30) }
    }
    if raw[start] == UInt8(ascii: "^") {
      // ^N^, ^N,M^ (either number left out), ^rN^: a positional, middle or relative anchor.
      var cursor = start + 1
      let relative =
        cursor < end && (raw[cursor] == UInt8(ascii: "r") || raw[cursor] == UInt8(ascii: "R"))
      if relative { cursor += 1 }
      let lowStart = cursor
      while cursor < end, isDigit(raw[cursor]) { cursor += 1 }
      let lowRange = lowStart..<cursor
      var comma = false
      var highRange = cursor..<cursor
      if cursor < end, raw[cursor] == UInt8(ascii: ",") {
        comma = true
        cursor += 1
        let highStart = cursor
        while cursor < end, isDigit(raw[cursor]) { cursor += 1 }
        highRange = highStart..<cursor
      }
      let closed = cursor < end && raw[cursor] == UInt8(ascii: "^")
      if closed, relative || comma || !lowRange.isEmpty {
        guard !relative else { return .failure(.unsupported) }
        if comma {
          let low = number(lowRange) ?? 2
          let high = number(highRange)
          guard low >= 2, high.map({ $0 >= low }) ?? true, low <= 255, (high ?? 0) <= 255 else {
            return .failure(.unsupported)
          }
          placement.middle = (low, high)
        } else {
          guard let position = number(lowRange), (1...maximumLines).contains(position) else {
            return .failure(.unsupported)
          }
          placement.position = position
        }
        start = cursor + 1
      } else {
        placement.first = true
        start += 1
      }
    }
    if end > start, raw[end - 1] == UInt8(ascii: "$") {
      placement.last = true
      end -= 1
      // A middle token is never last.
      if placement.middle != nil { return .failure(.unsupported) }
    }
    guard start < end else { return .failure(.anchorOnly) }
    var pieces: [ParsedPiece] = []
    var literal = start
    var cursor = start
    while cursor < end {
      guard raw[cursor] == UInt8(ascii: "%") else {
        cursor += 1
        continue
      }
      if literal < cursor { pieces.append(.literal(literal..<cursor)) }
      cursor += 1
      // %N or %N,M, then i, then the set.
      let lowStart = cursor
      while cursor < end, isDigit(raw[cursor]) { cursor += 1 }
      var minimum = number(lowStart..<cursor) ?? 1
      var maximum = minimum
      if cursor < end, raw[cursor] == UInt8(ascii: ","), !(lowStart..<cursor).isEmpty {
        cursor += 1
        let highStart = cursor
        while cursor < end, isDigit(raw[cursor]) { cursor += 1 }
        guard let high = number(highStart..<cursor) else { return .failure(.unsupported) }
        maximum = high
      } else if (lowStart..<cursor).isEmpty {
        (minimum, maximum) = (1, 1)
      }
      guard minimum <= maximum, maximum >= 1, maximum <= maximumWildcardLength else {
        return .failure(.unsupported)
      }
      var caseless = false
      if cursor < end, raw[cursor] == UInt8(ascii: "i") {
        caseless = true
        cursor += 1
      }
      guard cursor < end else { return .failure(.unsupported) }
      let spec: SetSpec
      if raw[cursor] == UInt8(ascii: "[") {
        let open = cursor + 1
        var close = open
        while close < end, raw[close] != UInt8(ascii: "]") { close += 1 }
        guard close < end, close > open else { return .failure(.unsupported) }
        spec = .listed(open..<close, caseless: caseless)
        cursor = close + 1
      } else {
        guard SetSpec.namedSets[raw[cursor]] != nil else { return .failure(.unsupported) }
        spec = .named(raw[cursor], caseless: caseless)
        cursor += 1
      }
      pieces.append(.wildcard(spec, minimum: minimum, maximum: maximum))
      literal = cursor
    }
    if literal < end { pieces.append(.literal(literal..<end)) }
    return .success(ParsedToken(pieces: pieces, placement: placement))
  }

  // MARK: - Arithmetic (saturated at Int.max: above it, the exact number is refused)

  static func add(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
  }

  static func multiply(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? Int.max : product
  }

  static func power(_ base: Int, _ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { result, _ in multiply(result, base) }
  }

  static func factorial(_ n: Int) -> Int {
    n < 2 ? 1 : (2...n).reduce(1, multiply)
  }

  static func utf8Width(_ scalar: UInt32) -> Int {
    scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
  }
}

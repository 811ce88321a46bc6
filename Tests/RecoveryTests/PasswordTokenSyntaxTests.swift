import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// btcrecover's token syntax: wildcards, positional and middle anchors, against a reference that
/// makes every arrangement and expansion and keeps those whose anchors hold; the numbering
/// (password i made directly) against the passwords made one after the other; exact counts; a
/// space of any size numbered without being made.
@Suite("recover: password token syntax")
struct PasswordTokenSyntaxTests {
  typealias E = PasswordTokenEnumerationTests

  /// A token as the reference reads it: its text, the texts its wildcard makes, its anchors.
  struct Token {
    let text: String
    let wildcard: (written: String, made: [String])
    let first: Bool
    let last: Bool
    let position: Int?
    let middle: (low: Int?, high: Int?)?

    var written: String {
      var anchor = first ? "^" : ""
      if let position { anchor = "^\(position)^" }
      if let middle {
        anchor = "^\(middle.low.map(String.init) ?? ""),\(middle.high.map(String.init) ?? "")^"
      }
      return anchor + text + wildcard.written + (last ? "$" : "")
    }

    func fits(_ position: Int, of size: Int) -> Bool {
      if first, position != 1 { return false }
      if last, position != size { return false }
      if let at = self.position, position != at { return false }
      if let middle {
        let low = max(2, middle.low ?? 2)
        let high = min(size - 1, middle.high ?? size - 1)
        return (low...max(low, high)).contains(position) && low <= high
      }
      return true
    }
  }

  static let wildcards: [(String, [String])] = [
    ("", [""]), ("%[xy]", ["x", "y"]), ("%0,2[q]", ["", "q", "qq"]), ("%i[b]", ["b", "B"]),
  ]

  /// Every password and the tokens that made it, by brute force.
  static func reference(_ lines: [(required: Bool, tokens: [Token])]) -> [String] {
    var made: [String] = []
    let required = lines.indices.filter { lines[$0].required }
    for mask in 1..<(1 << lines.count) {
      let subset = lines.indices.filter { mask & 1 << $0 != 0 }
      guard required.allSatisfy(subset.contains) else { continue }
      var picks = [[Int]]([[]])
      for line in subset {
        picks = picks.flatMap { pick in lines[line].tokens.indices.map { pick + [$0] } }
      }
      for pick in picks {
        for order in E.permutations(subset.count) {
          let tokens = order.map { lines[subset[$0]].tokens[pick[$0]] }
          guard tokens.indices.allSatisfy({ tokens[$0].fits($0 + 1, of: tokens.count) }) else {
            continue
          }
          let choices = order.map { "\(subset[$0] + 1).\(pick[$0] + 1)" }.joined(separator: ",")
          var texts = [""]
          for token in tokens {
            texts = texts.flatMap { text in token.wildcard.made.map { text + token.text + $0 } }
          }
          made += texts.map { choices + " " + $0 }
        }
      }
    }
    return made
  }

  static func made(_ tokens: PasswordTokens) -> [String] {
    var made: [String] = []
    tokens.forEachPassword { choices, password in
      let text = password.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
      made.append(choices.map { "\($0.line).\($0.token)" }.joined(separator: ",") + " " + text)
      return true
    }
    return made
  }

  static func text(_ password: SecureBytes) -> String {
    password.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  @Test func randomListsMakeWhatTheReferenceMakes() throws {
    for seed in UInt64(1)...250 {
      var random = E.SplitMix(state: seed)
      var lines: [(required: Bool, tokens: [Token])] = []
      for line in 0..<Int.random(in: 1...4, using: &random) {
        let tokens = (0..<Int.random(in: 1...2, using: &random)).map { index in
          let kind = Int.random(in: 0..<10, using: &random)
          let middles: [(Int?, Int?)] = [(2, 3), (nil, nil), (3, nil), (nil, 3)]
          return Token(
            text: "l\(line)t\(index)",
            wildcard: Self.wildcards[Int.random(in: 0..<4, using: &random)],
            first: kind == 1 || kind == 3, last: kind == 2 || kind == 3 || kind == 5,
            position: kind == 4 || kind == 5 ? Int.random(in: 1...3, using: &random) : nil,
            middle: kind == 6 || kind == 7 ? middles[Int.random(in: 0..<4, using: &random)] : nil)
        }
        lines.append((Int.random(in: 0..<4, using: &random) == 0, tokens))
      }
      let file =
        lines.map { line in
          (line.required ? "+ " : "") + line.tokens.map(\.written).joined(separator: " ")
        }.joined(separator: "\n") + "\n"
      let tokens = try PasswordTokens(file: SecureBytes(utf8: file))
      let expected = Self.reference(lines)
      let made = Self.made(tokens)
      #expect(made.sorted() == expected.sorted(), "seed \(seed): \(file)")
      #expect(tokens.count == expected.count, "seed \(seed): \(file)")
      // Password i made directly is the i-th made one after the other.
      for index in made.indices {
        let (choices, password) = tokens.password(at: index)
        let text = choices.map { "\($0.line).\($0.token)" }.joined(separator: ",")
        #expect(text + " " + Self.text(password) == made[index], "seed \(seed): \(index)")
      }
    }
  }

  /// Each wildcard's characters, counted and made in order: btcrecover's names.
  @Test(arguments: [
    ("%d", 10, "0", "9"), ("%4d", 10_000, "0000", "9999"), ("%1,3d", 1_110, "0", "999"),
    ("%0,2d", 111, "", "99"), ("%a", 26, "a", "z"), ("%A", 26, "A", "Z"), ("%n", 36, "0", "z"),
    ("%N", 36, "0", "Z"), ("%ia", 52, "a", "Z"), ("%in", 62, "0", "Z"), ("%s", 1, " ", " "),
    ("%l", 1, "\n", "\n"), ("%r", 1, "\r", "\r"), ("%R", 2, "\n", "\r"), ("%t", 1, "\t", "\t"),
    ("%T", 2, " ", "\t"), ("%w", 3, " ", "\r"), ("%W", 4, " ", "\t"), ("%y", 32, "!", "~"),
    ("%Y", 42, "0", "~"), ("%p", 94, "0", "~"), ("%P", 98, "0", "\t"), ("%%", 1, "%", "%"),
    ("%^", 1, "^", "^"), ("%S", 1, "$", "$"), ("%[!?#]", 3, "!", "#"),
    ("%[0-9a-f]", 16, "0", "f"), ("%2i[0-9a-f]", 484, "00", "FF"), ("%[-z]", 2, "-", "z"),
    ("%[é-ë]", 3, "é", "ë"), ("x%dy", 10, "x0y", "x9y"),
  ])
  func wildcard(token: String, count: Int, first: String, last: String) throws {
    let tokens = try PasswordTokens(file: SecureBytes(utf8: token + "\n"))
    #expect(tokens.count == count)
    #expect(Self.text(tokens.password(at: 0).1) == first)
    #expect(Self.text(tokens.password(at: count - 1).1) == last)
  }

  /// "Freedom, then a year, then a symbol": found where the numbering says.
  @Test func freedomThenAYearThenASymbol() throws {
    let tokens = try PasswordTokens(file: SecureBytes(utf8: "^Freedom\n%4d\n%[!?#]$\n"))
    // Alone: Freedom, 10,000 years, 3 symbols; two: Freedom and a year, Freedom and a symbol,
    // a year and a symbol (one order each: the anchors hold it); all three.
    let expected = 1 + 10_000 + 3 + 10_000 + 3 + 30_000 + 30_000
    #expect(tokens.count == expected)
    let set = try PasswordSet(remembered: nil, tokens: tokens)
    let found = try (0..<set.count).first { Self.text(try set.password($0)) == "Freedom1987?" }
    let index = try #require(found)
    #expect(index == 1 + 10_000 + 3 + 10_000 + 3 + 30_000 + 1987 * 3 + 1)
    #expect(
      set.origin(index)
        == .tokens([.init(line: 1, token: 1), .init(line: 2, token: 1), .init(line: 3, token: 1)]))
  }

  /// A hundred million passwords numbered, not made: the last made directly, a batch from the
  /// middle made one after the other, the count exact.
  @Test func aHundredMillionAreNumberedNotHeld() throws {
    let tokens = try PasswordTokens(file: SecureBytes(utf8: "+ ^pin\n%8d\n"))
    #expect(tokens.count == 100_000_001)
    let set = try PasswordSet(remembered: SecureBytes(utf8: "remembered"), tokens: tokens)
    #expect(set.count == 100_000_002)
    #expect(set.mayRepeat)
    #expect(try Self.text(set.password(0)) == "remembered")
    #expect(try Self.text(set.password(1)) == "pin")
    #expect(try Self.text(set.password(100_000_001)) == "pin99999999")
    let batch = try set.passwords(50_000_000..<50_000_004).map(Self.text)
    #expect(batch == ["pin49999998", "pin49999999", "pin50000000", "pin50000001"])
    #expect(
      set.origin(100_000_001) == .tokens([.init(line: 1, token: 1), .init(line: 2, token: 1)]))
  }

  /// Parts cut by `SearchSplit` take ranges of the numbering: together, every password once, in
  /// order, across the typos', the tokens' and the lines'.
  @Test(arguments: [1, 3, 7])
  func partsTakeRangesOfTheNumbering(parts: Int) throws {
    let tokens = try PasswordTokens(file: SecureBytes(utf8: "a %[xy]\n^3^b c%0,1d$\n+ ^,^d\n"))
    let set = try PasswordSet(
      remembered: SecureBytes(utf8: "pw"), typos: 1, tokens: tokens,
      candidates: SecureBytes(utf8: "line1\nline2\n"))
    let whole = try set.passwords(0..<set.count).map(Self.text)
    #expect(whole.count == set.count)
    let cut = try (1...parts).flatMap { part in
      try set.passwords(SearchSplit.range(of: 0..<set.count, part: part, of: parts)).map(Self.text)
    }
    #expect(cut == whole)
    let one = try (0..<set.count).map { Self.text(try set.password($0)) }
    #expect(one == whole)
    #expect(whole.suffix(2) == ["line1", "line2"])
    #expect(set.origin(set.count - 1) == .line(2))
  }

  /// Tokens this reader does not know are refused naming their line, never the token.
  @Test(arguments: [
    "%b", "%c", "%C", "%ic", "x%-", "^r1^x", "%,3d", "%0d", "%65d", "%3,2d", "^2,3^x$", "^1,3^x",
    "^0^x", "^21^x", "%[]x", "%", "x%i", "%[ab",
  ])
  func unsupportedTokensAreRefused(token: String) throws {
    #expect(throws: PasswordRecoveryError.unsupportedToken(2)) {
      try PasswordTokens(file: SecureBytes(utf8: "fine\n" + token + " other\n"))
    }
    #expect(!PasswordRecoveryError.unsupportedToken(2).description.contains(token))
  }

  /// A space whose count overflows is refused with the bound, not wrapped.
  @Test func anOverflowingCountIsRefused() {
    #expect(throws: PasswordRecoveryError.tooManyPasswords(UInt64(Int.max))) {
      try PasswordTokens(file: SecureBytes(utf8: "%10p\n%10p\n"))
    }
    // 94^9 fits.
    #expect(
      (try? PasswordTokens(file: SecureBytes(utf8: "%9p\n")))?.count == 572_994_802_228_616_704)
  }

  /// A checkpoint kept in memory.
  final class Kept: PasswordCheckpointStore {
    var checkpoint: PasswordCheckpoint?
    init(_ checkpoint: PasswordCheckpoint?) { self.checkpoint = checkpoint }
    func load() throws -> PasswordCheckpoint? { checkpoint }
    func save(_ checkpoint: PasswordCheckpoint) throws { self.checkpoint = checkpoint }
  }

  /// A token search's checkpoint is a number: resumed below the match it finds it, numbered as
  /// before; resumed past it, the passwords below are not tried again (nothing is found). Two
  /// lists of the same count are other searches.
  @Test func aTokenSearchResumesFromANumber() throws {
    let json = try DesktopVault.encrypt(
      mnemonic: SecureBytes(
        utf8: "legal winner thank year wave sausage worth useful legal winner thank yellow"),
      password: SecureBytes(utf8: "Correct horse battery stapl"), iterations: 1_000)
    let target = PasswordTarget.vault(try DesktopVault(json: json))
    func session(_ list: String) throws -> PasswordSession {
      let tokens = try PasswordTokens(file: SecureBytes(utf8: list))
      let set = try PasswordSet(remembered: nil, tokens: tokens)
      return try PasswordSession(
        PasswordSearch(target: target, passwords: set, threads: 2), automatic: false,
        hashed: true)
    }
    let list = "+ Correct%shorse%sbattery%sstap%[a-z]\n"
    let search = try session(list)
    let hash = try search.search.searchHash()
    #expect(try session(list).search.searchHash() == hash)
    #expect(try session("+ Correct%shorse%sbattery%sstap%[b-z!]\n").search.searchHash() != hash)
    var resumed: [Int] = []
    let below = try search.run(
      checkpoint: Kept(PasswordCheckpoint(search: hash, doneBelow: 5)),
      onEvent: { event in
        if case .resuming(let tried) = event { resumed.append(tried) }
      })
    #expect(resumed == [5])
    // "…stapl": l is letter 12.
    #expect(below.outcome.found?.index == 11)
    #expect(search.search.passwords.origin(11) == .tokens([.init(line: 1, token: 1)]))
    let past = try search.run(checkpoint: Kept(PasswordCheckpoint(search: hash, doneBelow: 12)))
    #expect(past.outcome.found == nil)
    #expect(past.outcome.isComplete)
    #expect(past.searched == 14)
  }
}

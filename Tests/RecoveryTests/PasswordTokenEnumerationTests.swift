import CryptoPrimitives
import Testing

@testable import Recovery

/// Token lists against a reference that makes every arrangement of every choice and keeps
/// those whose anchors hold: the passwords, their order and their count are the same.
@Suite("recover: password tokens")
struct PasswordTokenEnumerationTests {
  /// A small deterministic generator (SplitMix64), so a failure names a seed that repeats.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// A token as the reference reads it.
  struct Token {
    let text: String
    let first: Bool
    let last: Bool
  }

  /// Every password, in the order documented by `forEachPassword`: fewest lines first, the
  /// sets of lines in order, the tokens (the last line's fastest), then every order of them
  /// in lexicographic order, kept when each token anchored first is first and each anchored
  /// last is last.
  static func reference(_ lines: [(required: Bool, tokens: [Token])]) -> [[PasswordTokens.Choice]] {
    var made: [[PasswordTokens.Choice]] = []
    let required = lines.indices.filter { lines[$0].required }
    for size in 1...lines.count {
      // The sets of `size` lines in lexicographic order.
      var sets: [[Int]] = []
      func build(_ start: Int, _ chosen: [Int]) {
        if chosen.count == size {
          sets.append(chosen)
          return
        }
        guard start < lines.count else { return }
        for line in start..<lines.count { build(line + 1, chosen + [line]) }
      }
      build(0, [])
      for subset in sets where required.allSatisfy(subset.contains) {
        var picks = [[Int]]([[]])
        for line in subset {
          picks = picks.flatMap { pick in lines[line].tokens.indices.map { pick + [$0] } }
        }
        for pick in picks {
          for order in permutations(size) {
            let tokens = order.map { lines[subset[$0]].tokens[pick[$0]] }
            let holds = tokens.indices.allSatisfy { position in
              (!tokens[position].first || position == 0)
                && (!tokens[position].last || position == size - 1)
            }
            if holds {
              made.append(order.map { .init(line: subset[$0] + 1, token: pick[$0] + 1) })
            }
          }
        }
      }
    }
    return made
  }

  /// Every order of 0..<count, in lexicographic order.
  static func permutations(_ count: Int) -> [[Int]] {
    guard count > 0 else { return [[]] }
    var result: [[Int]] = []
    func build(_ prefix: [Int]) {
      if prefix.count == count {
        result.append(prefix)
        return
      }
      for value in 0..<count where !prefix.contains(value) { build(prefix + [value]) }
    }
    build([])
    return result
  }

  static func made(_ tokens: PasswordTokens) -> [([PasswordTokens.Choice], String)] {
    var made: [([PasswordTokens.Choice], String)] = []
    // Test tokens only: no secret is held here.
    tokens.forEachPassword { choices, password in
      made.append((choices, password.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }))
      return true
    }
    return made
  }

  @Test func randomListsMakeWhatTheReferenceMakes() throws {
    for seed in UInt64(1)...300 {
      var random = SplitMix(state: seed)
      let lineCount = Int.random(in: 1...5, using: &random)
      var lines: [(required: Bool, tokens: [Token])] = []
      for line in 0..<lineCount {
        let tokens = (0..<Int.random(in: 1...3, using: &random)).map { index in
          // Anchors weighted so that every kind and clash comes.
          let kind = Int.random(in: 0..<6, using: &random)
          return Token(
            text: "l\(line)t\(index)", first: kind == 1 || kind == 3, last: kind == 2 || kind == 3)
        }
        lines.append((Int.random(in: 0..<5, using: &random) == 0, tokens))
      }
      let file =
        lines.map { line in
          (line.required ? "+ " : "")
            + line.tokens.map { ($0.first ? "^" : "") + $0.text + ($0.last ? "$" : "") }
            .joined(separator: " ")
        }.joined(separator: "\n") + "\n"
      let tokens = try PasswordTokens(file: SecureBytes(utf8: file))
      let expected = Self.reference(lines)
      let made = Self.made(tokens)
      #expect(made.map(\.0) == expected, "seed \(seed): \(file)")
      let texts = expected.map { choices in
        choices.map { lines[$0.line - 1].tokens[$0.token - 1].text }.joined()
      }
      #expect(made.map(\.1) == texts, "seed \(seed)")
      #expect(tokens.count == expected.count, "seed \(seed): \(file)")
    }
  }

  /// Twenty lines of three tokens each anchored first: only the 60 tokens alone make a
  /// password (two anchored first never do), and they are made without trying the 4^20
  /// choices of tokens.
  @Test func anchoredLinesAreNotTriedTogether() throws {
    let file = (1...20).map { line in
      (1...3).map { "^line\(line)token\($0)" }.joined(separator: " ")
    }.joined(separator: "\n")
    let tokens = try PasswordTokens(file: SecureBytes(utf8: file + "\n"))
    #expect(tokens.count == 60)
    let made = Self.made(tokens)
    #expect(made.map(\.1) == (1...20).flatMap { line in (1...3).map { "line\(line)token\($0)" } })
    #expect(
      made.map(\.0) == (1...20).flatMap { line in (1...3).map { [.init(line: line, token: $0)] } })
    let set = try PasswordSet(remembered: nil, tokens: tokens)
    #expect(set.count == 60)
    #expect(set.origin(59) == .tokens([.init(line: 20, token: 3)]))
  }

  /// A required line anchored first with lines anchored last and free: the last-anchored
  /// tokens never come two together, and the search ends in the count's time.
  @Test func anchorsPruneWithRequiredLines() throws {
    var lines = ["+ ^start"]
    lines += (1...19).map { line in "e\(line)$ f\(line)$ g\(line)$" }
    let tokens = try PasswordTokens(file: SecureBytes(utf8: lines.joined(separator: "\n")))
    // "start" alone, then "start" with one of the 57 last-anchored tokens.
    #expect(tokens.count == 58)
    let made = Self.made(tokens)
    #expect(made.count == 58)
    #expect(made.first?.1 == "start")
    #expect(made[1].1 == "starte1" && made.last?.1 == "startg19")
  }
}

import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

@testable import Recovery

/// The password search, in process, against real files: desktop's vault fixtures (checked with
/// Node's WebCrypto, Tests/GoldenVectors/Vectors/vaults), keystores written by eth-keyfile
/// (Tests/GoldenVectors/Vectors/keystores) and by our own writer.
@Suite("recover: passwords")
struct PasswordRecoveryTests {
  /// The fixtures' password (a published one).
  static let vaultPassword = "correct horse battery staple"
  /// The Web3 Secret Storage Definition's test password, which the eth-keyfile fixtures use.
  static let keystorePassword = "testpassword"
  static let keystoreAddress = "008aeeda4d805471df9b2a5b0f38a0c3bcba786b"

  static func vector(_ path: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("GoldenVectors/Vectors/\(path)")
    return Array(try Data(contentsOf: url))
  }

  static func secret(_ text: String) -> SecureBytes { SecureBytes(utf8: text) }

  /// Every password of `set`, as text (only ever test passwords).
  static func texts(_ set: PasswordSet) -> [String] {
    (0..<set.count).map {
      try! set.password($0).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
  }

  static func search(
    _ target: PasswordTarget, remembered: String?, typos: Int = 0, candidates: String? = nil
  ) throws -> (PasswordSet, PasswordSearch.Outcome) {
    let set = try PasswordSet(
      remembered: remembered.map(secret), typos: typos, candidates: candidates.map(secret))
    return (set, try PasswordSearch(target: target, passwords: set, threads: 2).run())
  }

  // MARK: - The candidates

  @Test func theRememberedComesFirstThenItsLikeliestTypos() throws {
    let set = try PasswordSet(remembered: Self.secret("ab1"), typos: 1)
    let texts = Self.texts(set)
    #expect(Array(texts.prefix(8)) == ["ab1", "AB1", "Ab1", "aB1", "b1", "a1", "ab", "aab1"])
    #expect(set.origin(0) == .remembered)
    #expect(set.origin(1) == .typos([.capsLock]))
    #expect(set.origin(2) == .typos([.caseFlipped(at: 1)]))
    #expect(set.origin(4) == .typos([.deleted(at: 1)]))
    #expect(Set(texts).count == texts.count, "a password comes twice")
    #expect(set.typoLevels == [0..<1, 1..<set.count])
    // Doubled (3), neighbours (a: q w s z, b: g h v n, 1: ` 2 q), exchanges (2), 44 added at
    // each end, less the doubled ones made twice: the count is the distinct ones.
    #expect(texts.contains("qb1") && texts.contains("ba1") && texts.contains("ab1!"))
    #expect(texts.contains("#ab1") && !texts.contains("ab1ab1"))
  }

  /// No normalisation: a precomposed é stays one scalar, as typed, in every typo.
  @Test func passwordsAreTheBytesAsTyped() throws {
    let set = try PasswordSet(remembered: Self.secret("Caf\u{E9}"), typos: 1)
    let texts = Self.texts(set)
    #expect(texts[0].unicodeScalars.map(\.value) == [0x43, 0x61, 0x66, 0xE9])
    #expect(texts[1].unicodeScalars.map(\.value) == [0x63, 0x41, 0x46, 0xC9])
    #expect(!texts.contains { $0.unicodeScalars.contains("\u{301}") })
  }

  @Test func candidateLinesFollowAndDuplicatesAreDropped() throws {
    let set = try PasswordSet(
      remembered: Self.secret("abc"), typos: 0, candidates: Self.secret("x\r\nabc\n\ny\n"))
    #expect(Self.texts(set) == ["abc", "x", "", "y"])
    #expect(set.origin(1) == .line(1))
    #expect(set.origin(2) == .line(3))
    #expect(set.origin(3) == .line(4))
  }

  @Test func refusals() {
    #expect(throws: PasswordRecoveryError.noPasswords) {
      try PasswordSet(remembered: nil, candidates: Self.secret(""))
    }
    #expect(throws: PasswordRecoveryError.invalidUTF8) {
      try PasswordSet(remembered: nil, candidates: SecureBytes([0x61, 0x0A, 0xC3]))
    }
    // Four typos of a 28-character password: far more than 2^23, refused before any is made.
    #expect(throws: PasswordRecoveryError.self) {
      try PasswordSet(remembered: Self.secret(Self.vaultPassword), typos: 4)
    }
  }

  // MARK: - Token lists

  @Test func tokensMakeEveryOrderOfOneTokenALine() throws {
    let tokens = try PasswordTokens(file: Self.secret("test Test\n+ password pass\n# a note\n^x\n"))
    let set = try PasswordSet(remembered: nil, tokens: tokens)
    let texts = Self.texts(set)
    #expect(Array(texts.prefix(4)) == ["password", "pass", "testpassword", "passwordtest"])
    // {2}: 2; {1, 2}: 4 choices, 2 orders; {2, 4}: 2, x first; {1, 2, 4}: 4 choices, 2 orders.
    #expect(texts.count == 20)
    #expect(Set(texts).count == 20)
    #expect(texts.contains("xTestpass") && texts.contains("xpasswordtest"))
    #expect(!texts.contains { $0.contains("x") && !$0.hasPrefix("x") })
    #expect(texts.allSatisfy { $0.contains("pass") })
    #expect(set.origin(2) == .tokens([.init(line: 1, token: 1), .init(line: 2, token: 1)]))
    #expect(set.origin(3) == .tokens([.init(line: 2, token: 1), .init(line: 1, token: 1)]))
  }

  /// The count made without making them is the number every arrangement whose anchors hold
  /// makes (1,087, counted by brute force), anchors and all.
  @Test func tokenCountIsExact() throws {
    let tokens = try PasswordTokens(file: Self.secret("a ^b c$\nd$ e\n+ f\n^g$ h\ni j k\n"))
    #expect(tokens.count == 1_087)
    var made = 0
    tokens.forEachPassword { _, _ in
      made += 1
      return true
    }
    #expect(made == 1_087)
  }

  @Test func tokenListRefusals() {
    #expect(throws: PasswordRecoveryError.invalidTokenLine(2)) {
      try PasswordTokens(file: Self.secret("a\n+\n"))
    }
    #expect(throws: PasswordRecoveryError.invalidTokenLine(1)) {
      try PasswordTokens(file: Self.secret("a ^ b\n"))
    }
    #expect(throws: PasswordRecoveryError.tooManyTokenLines(21)) {
      try PasswordTokens(
        file: Self.secret((1...21).map { "t\($0)" }.joined(separator: "\n")))
    }
    #expect(throws: PasswordRecoveryError.noPasswords) {
      try PasswordTokens(file: Self.secret("# only a comment\n\n"))
    }
  }

  /// eth-keyfile's pbkdf2 keystore from a token list.
  @Test func keystoreFromTokens() throws {
    let keystore = try Web3Keystore(json: try Self.vector("keystores/eth-keyfile-pbkdf2.json"))
    let tokens = try PasswordTokens(file: Self.secret("Test test\n+ pass password\n123 !\n"))
    let set = try PasswordSet(remembered: nil, tokens: tokens)
    let outcome = try PasswordSearch(target: .keystore(keystore), passwords: set, threads: 2).run()
    let found = try #require(outcome.found)
    #expect(
      set.origin(found.index) == .tokens([.init(line: 1, token: 2), .init(line: 2, token: 2)]))
  }

  // MARK: - Checkpoints

  @Test func checkpointReadsWhatItWrites() throws {
    let search = Array(repeating: UInt8(7), count: 32)
    for found in [nil, 5] as [Int?] {
      let checkpoint = PasswordCheckpoint(search: search, doneBelow: 64, found: found)
      #expect(try PasswordCheckpoint(json: checkpoint.jsonBytes()) == checkpoint)
    }
    for bad in [
      "{}",
      "{\"format\": \"freedom-keys password checkpoint 1\", \"search\": \"07\", \"doneBelow\": 1}",
      String(decoding: PasswordCheckpoint(search: search, doneBelow: 1).jsonBytes(), as: UTF8.self)
        .replacingOccurrences(of: "\"doneBelow\": 1", with: "\"doneBelow\": -1"),
    ] {
      #expect(throws: PasswordRecoveryError.malformedCheckpoint) {
        try PasswordCheckpoint(json: Array(bad.utf8))
      }
    }
  }

  /// The search hash tells other passwords and other files apart, and is the same for the same.
  @Test func searchHashTellsSearchesApart() throws {
    let keystore = try Web3Keystore(json: try Self.vector("keystores/eth-keyfile-pbkdf2.json"))
    func hash(_ lines: String, _ target: PasswordTarget) throws -> [UInt8] {
      let set = try PasswordSet(remembered: nil, candidates: Self.secret(lines))
      return try PasswordSearch(target: target, passwords: set, threads: 1).searchHash()
    }
    let vault = try DesktopVault(json: try Self.vector("vaults/legacy-no-keymetadata.json"))
    let one = try hash("a\nb\n", .keystore(keystore))
    #expect(try hash("a\nb\n", .keystore(keystore)) == one)
    #expect(try hash("a\nc\n", .keystore(keystore)) != one)
    #expect(try hash("a\nb\n", .vault(vault)) != one)
  }

  // MARK: - Desktop's vault

  /// The Node-checked legacy vault (10,000 iterations): the password typed with caps lock on.
  @Test func capsLockedVaultPassword() throws {
    let vault = try DesktopVault(json: try Self.vector("vaults/legacy-no-keymetadata.json"))
    let (set, outcome) = try Self.search(
      .vault(vault), remembered: Self.vaultPassword.uppercased(), typos: 1)
    let found = try #require(outcome.found)
    #expect(set.origin(found.index) == .typos([.capsLock]))
    #expect(found.opened == .vault(words: 24))
    #expect(outcome.isComplete)
  }

  /// A vault whose password was typed with shift on the first key and its last key dropped.
  @Test func shiftedAndTruncatedVaultPassword() throws {
    let json = try DesktopVault.encrypt(
      mnemonic: Self.secret(
        "legal winner thank year wave sausage worth useful legal winner thank yellow"),
      password: Self.secret("Correct horse battery stapl"), iterations: 1_000)
    let (set, outcome) = try Self.search(
      .vault(try DesktopVault(json: json)), remembered: Self.vaultPassword, typos: 2)
    let found = try #require(outcome.found)
    #expect(set.origin(found.index) == .typos([.caseFlipped(at: 1), .deleted(at: 28)]))
    // Each level holds the passwords first made there: the match is two typos away.
    let levels = set.typoLevels
    #expect(levels.count == 3 && levels[2].contains(found.index))
    #expect(levels[0] == 0..<1 && levels[1].upperBound == levels[2].lowerBound)
    #expect(levels[2].upperBound == set.count)
    #expect(found.opened == .vault(words: 12))
  }

  @Test func exhaustedVaultSearchChecksEveryPassword() throws {
    let vault = try DesktopVault(json: try Self.vector("vaults/legacy-no-keymetadata.json"))
    let (set, outcome) = try Self.search(
      .vault(vault), remembered: nil, candidates: "wrong one\nwrong two\nCorrect horse\n")
    #expect(outcome.found == nil)
    #expect(outcome.isComplete)
    #expect(outcome.progress.searched == UInt64(set.count))
    #expect(set.count == 3)
  }

  // MARK: - Keystores

  /// eth-keyfile's scrypt keystore, the password remembered with a neighbouring key.
  @Test func scryptKeystoreFromANeighbouringKey() throws {
    let keystore = try Web3Keystore(json: try Self.vector("keystores/eth-keyfile-scrypt.json"))
    let (set, outcome) = try Self.search(.keystore(keystore), remembered: "testpasswprd", typos: 1)
    let found = try #require(outcome.found)
    #expect(set.origin(found.index) == .typos([.neighbour(at: 10)]))
    #expect(found.opened == .keystore(address: try Self.address(Self.keystoreAddress)))
  }

  /// eth-keyfile's pbkdf2 keystore, from a list of candidates (batched PBKDF2).
  @Test func pbkdf2KeystoreFromCandidates() throws {
    let keystore = try Web3Keystore(json: try Self.vector("keystores/eth-keyfile-pbkdf2.json"))
    let lines = (1...40).map { "guess \($0)" } + [Self.keystorePassword, "after"]
    let (set, outcome) = try Self.search(
      .keystore(keystore), remembered: nil, candidates: lines.joined(separator: "\n"))
    let found = try #require(outcome.found)
    #expect(set.origin(found.index) == .line(41))
    #expect(found.opened == .keystore(address: try Self.address(Self.keystoreAddress)))
  }

  /// A keystore our writer made (bee's layout, a small n), two exchanged characters.
  @Test func ownKeystoreFromAnExchange() throws {
    let key = try Secp256k1.PrivateKey(
      rawRepresentation: SecureBytes(Array(repeating: 7, count: 32)))
    let json = try Web3Keystore.encrypt(
      privateKey: key, password: Self.secret("bee node password"), scryptN: 1024)
    let (set, outcome) = try Self.search(
      .keystore(try Web3Keystore(json: json)), remembered: "bee ndoe password", typos: 1)
    let found = try #require(outcome.found)
    #expect(set.origin(found.index) == .typos([.exchanged(at: 6)]))
    #expect(found.opened == .keystore(address: EthereumAddress(publicKey: key.publicKey)))
  }

  static func address(_ hex: String) throws -> EthereumAddress {
    try EthereumAddress(rawRepresentation: try #require(Hex.decode(hex)))
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// The passphrase sets: UTF-8 checked, NFKD applied, and the same passphrases in the same order
/// (pinned by digest) whatever the code that builds them.
@Suite("recover: passphrase sets")
struct PassphraseSetTests {
  /// SHA-256 over every passphrase (its length, then its bytes) and its origin, in order.
  static func fingerprint(_ set: PassphraseSet) -> String {
    var message: [UInt8] = []
    for index in 0..<set.count {
      let passphrase = try! set.passphrase(index)
      withUnsafeBytes(of: UInt32(passphrase.count).littleEndian) { message += $0 }
      passphrase.withUnsafeBytes { message += $0 }
      message += Array("\(set.origin(index))\n".utf8)
    }
    return Hex.encode(SHA256.hash(message))
  }

  static func bytes(_ values: [UInt8]) -> SecureBytes { SecureBytes(values) }

  @Test func invalidUTF8IsRefused() {
    // A lone continuation byte, an overlong slash, a surrogate, past U+10FFFF, a cut sequence.
    let invalid: [[UInt8]] = [
      [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x61, 0xC3],
    ]
    for sample in invalid {
      #expect(throws: RecoveryError.invalidUTF8) {
        try PassphraseSet(candidates: Self.bytes(Array("ok\n".utf8) + sample + [0x0A]))
      }
      #expect(throws: RecoveryError.invalidUTF8) {
        try PassphraseSet(remembered: Self.bytes(sample), edits: 1)
      }
      #expect(throws: RecoveryError.invalidUTF8) {
        try PassphraseSet(remembered: Self.bytes(Array("é".utf8) + sample), edits: 0)
      }
    }
  }

  @Test func passphrasesAreDecomposed() throws {
    // U+00E9 and e + U+0301 are one passphrase; U+FB01 is "fi"; U+212B is A + U+030A.
    let file = "caf\u{E9}\ncafe\u{301}\n\u{FB01}\n\u{212B}\nplain\n"
    let set = try PassphraseSet(candidates: SecureBytes(utf8: file))
    #expect(set.count == 4)
    #expect(
      try text(set.passphrase(0)).unicodeScalars.map(\.value) == [0x63, 0x61, 0x66, 0x65, 0x301])
    #expect(try text(set.passphrase(1)) == "fi")
    #expect(try text(set.passphrase(2)).unicodeScalars.map(\.value) == [0x41, 0x30A])
    #expect(try text(set.passphrase(3)) == "plain")
    #expect((0..<4).map(set.origin) == [.line(1), .line(3), .line(4), .line(5)])

    let single = PassphraseSet(passphrase: SecureBytes(utf8: "\u{1E9B}\u{323}"))
    #expect(try text(single.passphrase(0)).unicodeScalars.map(\.value) == [0x73, 0x323, 0x307])

    // The remembered passphrase is decomposed, and an edit that puts a mark of a lower class
    // after one of a higher class is put back in canonical order.
    let typos = try PassphraseSet(remembered: SecureBytes(utf8: "\u{1EA1}\u{301}"), edits: 1)
    #expect(try text(typos.passphrase(0)).unicodeScalars.map(\.value) == [0x61, 0x323, 0x301])
    let swapped = try (0..<typos.count).first {
      text(try typos.passphrase($0)).unicodeScalars.map(\.value) == [0x61, 0x301, 0x323]
    }
    #expect(swapped == nil)
  }

  /// Computed with the String-based code of 1fbfeca, then again when the likely typos came
  /// first (each level's likely typos, then its generic edits; an origin is the typos that made
  /// it): any change in which passphrases are made, their bytes, their order or their origins
  /// changes these. "\u{F1}\u{E9}Zz" gained one passphrase, caps lock (four edits).
  @Test func theSetsAreUnchangedByteForByte() throws {
    let marks = try PassphraseSet(remembered: SecureBytes(utf8: "a\u{323}\u{301}"), edits: 1)
    #expect(marks.count == 676)
    #expect(
      Self.fingerprint(marks)
        == "4d15566206663446ff2a0de315759dbcff86e479de82b6a65e85809b86c2e992")
    let twice = try PassphraseSet(remembered: SecureBytes(utf8: "\u{E9}"), edits: 2)
    #expect(twice.count == 100324)
    #expect(
      Self.fingerprint(twice)
        == "b7121178a2b0448665456eeec9108c1e80acf2d648430660dac0b5c8bda47569")
    let accented = try PassphraseSet(remembered: SecureBytes(utf8: "\u{F1}\u{E9}Zz"), edits: 1)
    #expect(accented.count == 1262)
    #expect(
      Self.fingerprint(accented)
        == "b86ae0c184603bf61fed7f24226a33504e06b016510090a8f01120c6ee204a64")
    let file = "caf\u{E9}\n\r\ncafe\u{301}\r\n\u{FB01}\n\u{212B}\u{1100}\u{AC00}\nx\n\n"
    let candidates = try PassphraseSet(candidates: SecureBytes(utf8: file))
    #expect(candidates.count == 5)
    #expect(
      Self.fingerprint(candidates)
        == "fa38bab72a78c40b1a08d22e07017157440a5f34339edbc5b2db01f9775f241e")
  }

  /// The first passphrase of `set` that reads `passphrase`, and how it was made.
  static func find(_ passphrase: String, in set: PassphraseSet) -> (Int, PassphraseOrigin)? {
    let wanted = Array(passphrase.utf8)
    return (0..<set.count).first {
      try! set.passphrase($0).withUnsafeBytes { $0.elementsEqual(wanted) }
    }.map { ($0, set.origin($0)) }
  }

  @Test func eachLikelyTypoComesFirstInItsClassOrder() throws {
    let set = try PassphraseSet(remembered: SecureBytes(utf8: "hunter2"), edits: 1)
    #expect(set.count == 1426)
    // The likely typos in class order, each class position by position, before any generic
    // edit (1,022 of 1,235 for "huntr2" before, in the positional order).
    let expected: [(String, Int, PassphraseEdit)] = [
      ("HUNTER2", 1, .capsLock), ("Hunter2", 2, .caseFlipped(at: 1)),
      ("huNter2", 4, .caseFlipped(at: 3)), ("huntr2", 12, .deleted(at: 5)),
      ("hunnter2", 17, .doubled(at: 3)), ("hunyer2", 41, .neighbour(at: 4)),
      ("hutner2", 62, .exchanged(at: 3)),
      // "hunter22" is character 7 doubled (21): the ten digits and 32 symbols add 41.
      ("hunter2!", 75, .appended), ("1hunter2", 108, .prepended),
    ]
    for (passphrase, index, edit) in expected {
      let found = try #require(Self.find(passphrase, in: set), "\(passphrase)")
      #expect(found.0 == index, "\(passphrase)")
      #expect(found.1 == .edits([edit]), "\(passphrase)")
    }
    // Then the generic edits: a character no key beside it typed.
    let generic = try #require(Self.find("hunter~", in: set))
    #expect(generic.0 > 156)
    #expect(generic.1 == .edits([.replaced(at: 7)]))
  }

  @Test func twoLikelyTyposComeFirst() throws {
    // Five characters, to keep the test quick (figures for longer ones: the note).
    let set = try PassphraseSet(remembered: SecureBytes(utf8: "horse"), edits: 2)
    #expect(set.count == 502_827)
    // Likely typos of the likely typos first, by the first typo's class: within the first 1%
    // but for a pair of the last classes (an exchange, then a character added at the start:
    // 1.2%; a five-character passphrase has few candidates to be 1% of).
    let pairs: [(String, Int, [PassphraseEdit])] = [
      ("HORSE1", 1096, [.capsLock, .appended]),
      ("Horse!", 1230, [.caseFlipped(at: 1), .appended]),
      ("hrde", 1890, [.deleted(at: 2), .neighbour(at: 3)]),
      ("horsse2", 2652, [.doubled(at: 4), .appended]),
      ("!ohrse", 5920, [.exchanged(at: 1), .prepended]),
    ]
    for (passphrase, index, edits) in pairs {
      let found = try #require(Self.find(passphrase, in: set), "\(passphrase)")
      #expect(found.0 == index, "\(passphrase)")
      #expect(found.1 == .edits(edits), "\(passphrase)")
    }
    #expect(pairs.dropLast().allSatisfy { $0.1 < set.count / 100 })
  }

  @Test func aTypoSetIsExact() throws {
    // Distinct, and every string counted is one enumerated.
    for (remembered, edits) in [("ab", 2), ("Aa1", 1), ("", 2)] {
      let set = try PassphraseSet(remembered: SecureBytes(utf8: remembered), edits: edits)
      let all = try (0..<set.count).map { text(try set.passphrase($0)) }
      #expect(Set(all).count == set.count, "\(remembered)")
      #expect(all.first == remembered)
    }
    // The same set twice, in the same order.
    let again = try PassphraseSet(remembered: SecureBytes(utf8: "ab"), edits: 2)
    let once = try PassphraseSet(remembered: SecureBytes(utf8: "ab"), edits: 2)
    #expect(Self.fingerprint(again) == Self.fingerprint(once))
  }

  @Test func keyboardsKnowTheirNeighbours() throws {
    func keys(_ layout: KeyboardLayout, _ key: Unicode.Scalar) -> String {
      String(String.UnicodeScalarView(layout.neighbours(of: key)))
    }
    #expect(keys(.qwerty, "s") == "weadzx")
    #expect(keys(.qwerty, "S") == "WEADZX")
    #expect(keys(.qwerty, "q") == "12wa")
    #expect(keys(.qwerty, "t") == "56ryfg")
    #expect(keys(.qwertz, "z") == "67tugh")
    #expect(keys(.qwertz, "Z") == "&/TUGH")
    #expect(keys(.qwertz, "y") == "as<x")
    #expect(keys(.azerty, "q") == "azs<w")
    // A key that is not one scalar in NFKD (é) is a gap: '"' has only ' beside it in its row.
    #expect(keys(.azerty, "\"") == "'ze")
    #expect(keys(.qwerty, "\u{E9}") == "")
    #expect(KeyboardLayout(name: "QWERTZ") == .qwertz)
    #expect(KeyboardLayout(name: "azerty") == .azerty)
    #expect(KeyboardLayout(name: "dvorak") == nil)
    // The layout changes the neighbour typos: y beside t on QWERTY, z on QWERTZ.
    let german = try PassphraseSet(
      remembered: SecureBytes(utf8: "tor"), edits: 1, typos: TypoModel(keyboard: .qwertz))
    #expect(Self.find("zor", in: german)?.1 == .edits([.neighbour(at: 1)]))
    let us = try PassphraseSet(remembered: SecureBytes(utf8: "tor"), edits: 1)
    #expect(Self.find("zor", in: us)?.1 == .edits([.replaced(at: 1)]))
  }

  @Test func typosAreToldInWords() {
    let edits: [PassphraseEdit] = [
      .inserted(at: 2), .deleted(at: 3), .replaced(at: 4), .exchanged(at: 5), .capsLock,
      .caseFlipped(at: 1), .doubled(at: 2), .neighbour(at: 3), .appended, .prepended,
    ]
    #expect(
      edits.map(\.description) == [
        "a character inserted before character 2", "character 3 deleted", "character 4 replaced",
        "characters 5 and 6 exchanged", "caps lock", "character 1 in the other case",
        "character 2 doubled", "character 3 replaced by a neighbouring key",
        "a digit or symbol added at the end", "a digit or symbol added at the start",
      ])
  }

  @Test func aCaseIsFlippedOnlyToOneScalar() {
    #expect(TypoModel.otherCase(of: "a") == "A")
    #expect(TypoModel.otherCase(of: "Z") == "z")
    #expect(TypoModel.otherCase(of: "\u{F1}") == "\u{D1}")
    #expect(TypoModel.otherCase(of: "1") == nil)
    // ß has no one-scalar capital (SS); ŉ neither.
    #expect(TypoModel.otherCase(of: "\u{DF}") == nil)
    #expect(TypoModel.otherCase(of: "\u{149}") == nil)
  }

  /// A token list's passphrases: numbered, made NFKD from their number, not compared (a repeat
  /// after NFKD comes again, and the count is the token list's), told by their tokens; no cap
  /// on how many (none is held).
  @Test func tokensMakePassphrasesByNumberAfterNFKD() throws {
    // "é" written composed and as e + combining acute: the same passphrase after NFKD.
    let tokens = try PasswordTokens(file: SecureBytes(utf8: "caf%[\u{E9}]\ncaf%[e]\u{301}\n"))
    #expect(tokens.count == 4)
    let set = PassphraseSet(tokens: tokens)
    // café, café again (the other line), then the two orders of the two.
    #expect(set.count == 4)
    #expect(set.mayRepeat)
    #expect(set.source == .tokens)
    let all = try (0..<set.count).map { try set.passphrase($0) }
    #expect(all[0] == SecureBytes(utf8: "cafe\u{301}"))
    #expect(all[1] == SecureBytes(utf8: "cafe\u{301}"))
    #expect(all[2] == SecureBytes(utf8: "cafe\u{301}cafe\u{301}"))
    #expect(all[3] == all[2])
    #expect(set.origin(0) == .tokens([.init(line: 1, token: 1)]))
    #expect(set.origin(1) == .tokens([.init(line: 2, token: 1)]))
    #expect(set.origin(2) == .tokens([.init(line: 1, token: 1), .init(line: 2, token: 1)]))
    #expect(set.origin(3) == .tokens([.init(line: 2, token: 1), .init(line: 1, token: 1)]))
    // The salts of a run are the passphrases after "mnemonic", one walk of the numbering.
    let salts = try set.salts(1..<4)
    #expect(salts == all[1...].map { SecureBytes(Array("mnemonic".utf8)) + $0 })
    // Ten million: numbered, not held, so not refused.
    let many = PassphraseSet(tokens: try PasswordTokens(file: SecureBytes(utf8: "%7d\n")))
    #expect(many.count == 10_000_000)
    #expect(try many.passphrase(9_999_999) == SecureBytes(utf8: "9999999"))
  }
}

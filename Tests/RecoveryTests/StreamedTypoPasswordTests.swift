import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

@testable import Recovery

/// Typos too many to hold, numbered instead (`PasswordSet(streamsTypos:maximumHeld:)`): the
/// sequence before duplicates are dropped, counted exactly, its levels the held set's, its
/// origins the chains that made each, and the same password found in a keystore.
@Suite("recover: numbered password typos")
struct StreamedTypoPasswordTests {
  typealias P = PasswordRecoveryTests
  typealias T = TypoTreeTests

  @Test("above the cap the typos are numbered: the pre-dedup sequence, in levels")
  func theSequenceBeforeDuplicatesAreDropped() throws {
    for (remembered, typos, oneEdit) in [
      ("ab1", 2, true), ("Caf\u{E9}", 1, false), ("x", 2, false),
    ] {
      let held = try PasswordSet(remembered: P.secret(remembered), typos: typos, oneEdit: oneEdit)
      let streamed = try PasswordSet(
        remembered: P.secret(remembered), typos: typos, oneEdit: oneEdit, streamsTypos: true,
        maximumHeld: 4)
      let reference = T.passwordReference(Array(remembered.utf8), typos: typos, oneEdit: oneEdit)
      #expect(!held.streamsTypos && !held.mayRepeat)
      #expect(streamed.streamsTypos && streamed.mayRepeat)
      #expect(streamed.count == reference.count)
      // Two typos may undo each other (a case flipped twice): numbered, they are not dropped.
      #expect(typos < 2 || streamed.count > held.count, "duplicates are not dropped")
      #expect(streamed.levels.map(\.level) == held.levels.map(\.level))
      #expect(streamed.levels.map(\.passwords.count) == reference.levelCounts)
      #expect(streamed.typoLevels.last?.upperBound == streamed.count)
      let texts = P.texts(streamed)
      #expect(texts.map { Array($0.utf8) } == (0..<reference.count).map(reference.string))
      #expect(Set(texts) == Set(P.texts(held)))
      #expect(
        try streamed.passwords(0..<streamed.count).map(T.bytes) == texts.map { Array($0.utf8) })
      #expect(streamed.origin(0) == .remembered)
      for index in [1, reference.count / 2, reference.count - 1] {
        #expect(streamed.origin(index) == .typos(reference.edits(index)))
      }
    }
  }

  @Test("numbered typos, then the token list's passwords, then the lines")
  func numberedTyposComeFirst() throws {
    let tokens = try PasswordTokens(file: P.secret("a b\n"))
    let set = try PasswordSet(
      remembered: P.secret("ab"), typos: 1, tokens: tokens, candidates: P.secret("ab\nzz\nzz\n"),
      streamsTypos: true, maximumHeld: 4)
    let typos = T.passwordReference(Array("ab".utf8), typos: 1, oneEdit: false).count
    #expect(set.count == typos + tokens.count + 2)
    let texts = P.texts(set)
    #expect(Array(texts.suffix(2)) == ["ab", "zz"], "lines held, and only theirs compared")
    #expect(set.origin(set.count - 1) == .line(2))
    #expect(set.origin(typos) == .tokens(tokens.decode(0).choices))
    #expect(
      try set.passwords((typos - 2)..<set.count).map(T.bytes)
        == texts.suffix(from: typos - 2).map { Array($0.utf8) })
  }

  /// The same keystore opened by the held set and by the numbered one, by the same typo.
  @Test("a numbered set finds the password the held one finds")
  func findsTheSamePassword() throws {
    let keystore = PasswordPartTests.keystore
    let remembered = P.secret("tsetpassword")
    let held = try PasswordSet(remembered: remembered, typos: 1)
    let streamed = try PasswordSet(
      remembered: remembered, typos: 1, streamsTypos: true, maximumHeld: 10)
    #expect(streamed.streamsTypos)
    let heldFound = try #require(
      try PasswordSearch(target: keystore, passwords: held, threads: 2).run().found)
    let streamedFound = try #require(
      try PasswordSearch(target: keystore, passwords: streamed, threads: 2).run().found)
    #expect(streamed.origin(streamedFound.index) == .typos([.exchanged(at: 2)]))
    #expect(held.origin(heldFound.index) == streamed.origin(streamedFound.index))
    #expect(try T.bytes(streamed.password(streamedFound.index)) == Array("testpassword".utf8))
  }

  /// The search hash covers the remembered password and K, and only they tell it apart.
  @Test("a numbered set's search hash is its remembered password's and K's")
  func theSearchHash() throws {
    func hash(_ remembered: String, _ typos: Int) throws -> [UInt8] {
      let set = try PasswordSet(
        remembered: P.secret(remembered), typos: typos, streamsTypos: true, maximumHeld: 2)
      return try PasswordSearch(target: PasswordPartTests.keystore, passwords: set, threads: 1)
        .searchHash()
    }
    let base = try hash("abcd", 1)
    #expect(try hash("abcd", 1) == base)
    #expect(try hash("abce", 1) != base)
    #expect(try hash("abcd", 2) != base)
  }

  @Test("typos whose count may overflow are refused with the most that can be numbered")
  func overflowIsRefused() {
    #expect(throws: PasswordRecoveryError.tooManyPasswords(UInt64(Int.max))) {
      try PasswordSet(
        remembered: P.secret("Correct-Horse-42"), typos: 9, streamsTypos: true)
    }
    // Without numbering, today's refusal.
    #expect(throws: PasswordRecoveryError.self) {
      try PasswordSet(remembered: P.secret("Correct-Horse-42"), typos: 4)
    }
  }
}

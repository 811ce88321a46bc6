import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// Passphrase typos too many to hold, numbered instead: the sequence before duplicates are
/// dropped (NFKD, canonical order), its origins, its digest, and a phrase search that finds
/// the same passphrase as the held set.
@Suite("recover: numbered passphrase typos")
struct StreamedTypoPassphraseTests {
  typealias T = TypoTreeTests

  @Test("above the cap a passphrase's typos are numbered: the pre-dedup sequence")
  func theSequenceBeforeDuplicatesAreDropped() throws {
    for (remembered, edits) in [("a\u{323}\u{301}b", 1), ("\u{E9}", 2)] {
      let held = try PassphraseSet(remembered: SecureBytes(utf8: remembered), edits: edits)
      let streamed = try PassphraseSet(
        remembered: SecureBytes(utf8: remembered), edits: edits, streamsTypos: true,
        maximumHeld: 8)
      let reference = T.passphraseReference(T.nfkd(remembered), edits: edits)
      #expect(!held.mayRepeat && streamed.mayRepeat)
      #expect(streamed.source == .typos(edits: edits))
      #expect(streamed.count == reference.count)
      #expect(streamed.count > held.count, "duplicates are not dropped")
      // Every passphrase of one typo; of two, some (each is a seek).
      let indices =
        edits == 1
        ? Array(0..<reference.count) : (0..<60).map { _ in Int.random(in: 0..<reference.count) }
      let made = try indices.map { T.bytes(try streamed.passphrase($0)) }
      #expect(made == indices.map(reference.string))
      if edits == 1 {
        #expect(try Set(made) == Set((0..<held.count).map { T.bytes(try held.passphrase($0)) }))
      }
      for index in [0, 1, reference.count / 3, reference.count - 1] {
        #expect(streamed.origin(index) == .edits(reference.edits(index)))
        #expect(
          try T.bytes(streamed.salt(index)) == Array("mnemonic".utf8) + reference.string(index))
      }
    }
  }

  @Test("a numbered set's digest is its remembered passphrase's and K's")
  func theDigest() throws {
    func digest(_ remembered: String, _ edits: Int) throws -> [UInt8] {
      try PassphraseSet(
        remembered: SecureBytes(utf8: remembered), edits: edits, streamsTypos: true,
        maximumHeld: 2
      ).digest(key: SecureBytes(utf8: "key"))
    }
    let base = try digest("abc", 1)
    #expect(try digest("abc", 1) == base)
    #expect(try digest("abd", 1) != base)
    // The same count, other passphrases: the remembered one tells them apart.
    let sameCount = try PassphraseSet(
      remembered: SecureBytes(utf8: "bac"), edits: 1, streamsTypos: true, maximumHeld: 2)
    #expect(
      sameCount.count
        == (try PassphraseSet(
          remembered: SecureBytes(utf8: "abc"), edits: 1, streamsTypos: true, maximumHeld: 2)).count
    )
    #expect(try digest("bac", 1) != base)
    #expect(try digest("abc", 2) != base)
  }

  @Test("a phrase search with numbered passphrase typos finds the held set's passphrase")
  func findsTheSamePassphrase() throws {
    typealias F = RecoveryFixture
    let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: F.legalWinner))
    let profile = try FreedomProfile(mnemonic: mnemonic, passphrase: SecureBytes(utf8: "TREZOR"))
    let typos = try PassphraseSet(
      remembered: SecureBytes(utf8: "TERZOR"), edits: 1, streamsTypos: true, maximumHeld: 8)
    #expect(typos.mayRepeat)
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner)))
    let outcome = try PhraseRecovery(
      search: search, targets: [.peerID(profile.ipfs.peerID)], passphrases: typos,
      configuration: .init(threads: 2)
    ).run()
    #expect(outcome.found?.passphraseOrigin == .edits([.exchanged(at: 2)]))
    #expect(outcome.found.map { T.bytes($0.passphrase) } == Array("TREZOR".utf8))
  }

  @Test("numbered passphrase typos whose count may overflow are refused")
  func overflowIsRefused() {
    #expect(throws: RecoveryError.tooManyPassphrases(UInt64(Int.max))) {
      try PassphraseSet(
        remembered: SecureBytes(utf8: "correct horse"), edits: 6, streamsTypos: true)
    }
    // Four edits: countable in Int, but about 10^10 parents to count through.
    #expect {
      try PassphraseSet(
        remembered: SecureBytes(utf8: "correct horse"), edits: 4, streamsTypos: true)
    } throws: { error in
      guard case .tooManyPassphrasesToCount(let bound) = error as? RecoveryError else {
        return false
      }
      return bound > 1_000_000_000_000
    }
  }
}

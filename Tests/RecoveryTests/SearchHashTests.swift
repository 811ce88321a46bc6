import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// The hashes of a search: a checkpoint's (everything), its shape and the shards' public one.
/// The checkpoint's and the shape are pinned as the code of 1fbfeca made them, so checkpoints
/// of that build still fit; the public one as this code makes it (since it covers the words and
/// passphrases, shards of builds before it are another search to `ShardCollection`).
@Suite("recover: search hashes")
struct SearchHashTests {
  typealias F = RecoveryFixture

  @Test func theHashesAreStable() throws {
    let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: F.legalWinner))
    let profile = try FreedomProfile(mnemonic: mnemonic)
    let plain = try PhraseRecovery(
      search: RecoverySearch(
        phrase: DamagedPhrase(phrase: F.damaged(F.words(F.legalWinner), [12: "?"]))),
      targets: [.address(profile.swarm.address)],
      configuration: .init(threads: 2, shardIndex: 1, shardCount: 3))
    #expect(
      Hex.encode(plain.searchHash)
        == "b19ebb64e04647562412a44ad3b3295248c6a85773bea99c9ef957fcbca9051c")
    #expect(
      Hex.encode(plain.shapeHash)
        == "3ae8f9f6d57261a8701a65e609cfbaa6b5185331975364b7ba4fce7c502b5129")
    #expect(
      Hex.encode(plain.publicSearchHash)
        == "c89290c9efd4c13fd74418e6b585a168b7ef93e6bbea22b70df20fc870fcbc9b")
    let extra = try PhraseRecovery(
      search: RecoverySearch(
        phrase: DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner + " thank")),
        extraWords: 1),
      targets: [.address(profile.swarm.address), .peerID(profile.ipfs.peerID)],
      passphrases: PassphraseSet(candidates: SecureBytes(utf8: "a\nb\nc\n")),
      configuration: .init(threads: 2, shardIndex: 2, shardCount: 2))
    #expect(
      Hex.encode(extra.searchHash)
        == "e18424bc63e8c88c731c49937dc973b242e76190bd0a1fce56de464e236be41a")
    #expect(
      Hex.encode(extra.shapeHash)
        == "ea0e77530b020942d2f06682d80f6d898f1c71893a401983773e25e2ddec157e")
    #expect(
      Hex.encode(extra.publicSearchHash)
        == "e315251728c52f807f0a62e10465c0e1c13cacb2bc7a6ef75d939a15d10a52d3")
  }
}

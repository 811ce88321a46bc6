import CryptoPrimitives
import Foundation
import Testing

/// A vector of bip39-english.json or bip39-japanese.json, the fields the seed needs.
private struct BIP39SeedVector: Decodable {
  let id: String
  let mnemonic: String
  let passphrase: String
  let seed: String
}

/// Every published BIP-39 seed through `PBKDF2SHA512Batch`, in one batch a file, on each engine
/// this machine has (the single-stream fallback everywhere, multi-buffer where libIPSec_MB loads).
@Suite struct BIP39BatchVectorTests {
  @Test(arguments: ["bip39-english", "bip39-japanese"])
  func seedsInOneBatch(file name: String) throws {
    let file = try VectorFile<BIP39SeedVector>.load(name)
    #expect(file.vectors.count == 24)
    // The seed is PBKDF2 over NFKD text; the Japanese vectors are published in NFC.
    let phrases = file.vectors.map {
      SecureBytes(utf8: $0.mnemonic.decomposedStringWithCompatibilityMapping)
    }
    // One passphrase per file ("TREZOR" and a Japanese one), so one salt per batch.
    let passphrases = Set(file.vectors.map(\.passphrase))
    try #require(passphrases.count == 1)
    let salt = SecureBytes(
      utf8: "mnemonic" + passphrases.first!.decomposedStringWithCompatibilityMapping)
    for engine in PBKDF2SHA512Batch.availableEngines {
      let seeds = try #require(
        PBKDF2SHA512Batch.deriveBIP39Seeds(
          mnemonics: phrases, salt: salt, iterations: 2048, engine: engine))
      for (vector, seed) in zip(file.vectors, seeds) {
        #expect(seed.revealHex() == vector.seed, "\(vector.id) on \(engine)")
      }
    }
  }
}

import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

/// A vector of bip39-english.json (field names as in trezor/python-mnemonic's vectors.json).
private struct BIP39EnglishVector: Decodable {
  let id: String
  let entropy: String
  let mnemonic: String
  let passphrase: String
  let seed: String
}

/// A vector of bip39-japanese.json (field names as in bip32JP's test_JP_BIP39.json).
private struct BIP39JapaneseVector: Decodable {
  let id: String
  let entropy: String
  let mnemonic: String
  let passphrase: String
  let seed: String
}

private func text(_ bytes: SecureBytes) -> String {
  bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

@Suite struct BIP39VectorTests {
  @Test func englishVectors() throws {
    let file = try VectorFile<BIP39EnglishVector>.load("bip39-english")
    #expect(file.vectors.count == 24)
    for vector in file.vectors {
      let fromEntropy = try Mnemonic(entropy: SecureBytes([UInt8](hex: vector.entropy)))
      #expect(
        fromEntropy.phrase().revealHex() == Hex.encode(Array(vector.mnemonic.utf8)),
        "\(vector.id): entropy → phrase")

      let parsed = try Mnemonic(phrase: vector.mnemonic)
      #expect(parsed.language == .english, "\(vector.id)")
      #expect(parsed.expandedAbbreviations == [], "\(vector.id)")
      #expect(parsed.entropy.revealHex() == vector.entropy, "\(vector.id): phrase → entropy")
      #expect(
        parsed.seed(passphrase: SecureBytes(utf8: vector.passphrase)).revealHex() == vector.seed,
        "\(vector.id): seed")
    }
  }

  @Test func japaneseVectors() throws {
    let file = try VectorFile<BIP39JapaneseVector>.load("bip39-japanese")
    #expect(file.vectors.count == 24)
    for vector in file.vectors {
      // Published: NFC words separated by U+3000, NFC passphrase; the seed needs NFKD of both.
      #expect(vector.mnemonic.contains("\u{3000}"), "\(vector.id)")
      let parsed = try Mnemonic(phrase: SecureBytes(utf8: vector.mnemonic))
      #expect(parsed.language == .japanese, "\(vector.id)")
      #expect(parsed.entropy.revealHex() == vector.entropy, "\(vector.id): phrase → entropy")
      #expect(
        parsed.seed(passphrase: SecureBytes(utf8: vector.passphrase)).revealHex() == vector.seed,
        "\(vector.id): seed")

      // The wordlist file holds the decomposed forms, so the phrase is the published one in
      // NFD, byte for byte, still separated by U+3000.
      let fromEntropy = try Mnemonic(
        entropy: SecureBytes([UInt8](hex: vector.entropy)), language: .japanese)
      let expected = vector.mnemonic.decomposedStringWithCanonicalMapping
      #expect(
        fromEntropy.phrase().revealHex() == Hex.encode(Array(expected.utf8)),
        "\(vector.id): entropy → phrase")
      #expect(
        fromEntropy.seed(passphrase: SecureBytes(utf8: vector.passphrase)).revealHex()
          == vector.seed, "\(vector.id): seed from entropy")
    }
  }
}

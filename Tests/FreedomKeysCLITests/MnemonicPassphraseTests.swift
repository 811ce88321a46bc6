import Foundation
import TestSupport
import Testing

/// A passphrase typed on another system arrives in another Unicode form; BIP-39 hashes its NFKD,
/// so every form gives the same seed (value from Python's hashlib and unicodedata).
@Suite("Passphrase normalisation")
struct MnemonicPassphraseTests {
  /// PBKDF2-HMAC-SHA512(abandon×11 about, "mnemonic" + NFKD("Ünïcödé ㍍"), 2048).
  static let seed =
    "5fcab0bd028ccaeed40c47d37b23cbd645921cdb2a9134d7199ba76f527b66c1ac636ee924d128b99d2093f85b13a2f43b0e19787bed814200f58d78dab717fc"

  @Test(arguments: ["NFC", "NFD", "NFKC", "NFKD"])
  func everyFormGivesTheSameSeed(form: String) throws {
    let text = "Ünïcödé ㍍"
    let passphrase =
      switch form {
      case "NFC": text.precomposedStringWithCanonicalMapping
      case "NFD": text.decomposedStringWithCanonicalMapping
      case "NFKC": text.precomposedStringWithCompatibilityMapping
      default: text.decomposedStringWithCompatibilityMapping
      }
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", SecretInputTests.mnemonic)
    let file = try dir.file("passphrase", Data(passphrase.utf8))
    let run = try CLI.run([
      "derive", "--json", "--include-secrets", "--mnemonic-file", words, "--passphrase-file", file,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    #expect(json?["seed"] as? String == Self.seed)
  }
}

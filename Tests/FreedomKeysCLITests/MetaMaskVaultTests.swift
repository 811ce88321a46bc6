import Foundation
import TestSupport
import Testing

/// MetaMask's vault as the mnemonic source (`derive --metamask-vault`) and as the file whose
/// password `recover password --metamask-vault` finds, on the fixtures of
/// Tests/GoldenVectors/Vectors/metamask (scripts/make-metamask-fixtures.py).
@Suite("MetaMask vault")
struct MetaMaskVaultCLITests {
  static let password = "MetaMask test password 1"
  static let abandonAboutWallet = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"

  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("GoldenVectors/Vectors/metamask/\(name).json").path
  }

  /// `derive --json` with the MetaMask vault and a password file holding `password`.
  func derive(_ name: String, password: String = password) throws -> (CLIRun, [String: Any]?) {
    let dir = try TemporaryDirectory()
    let passwordFile = try dir.file("password", password)
    let run = try CLI.run(
      [
        "derive", "--json", "--metamask-vault", Self.fixture(name), "--vault-password-file",
        passwordFile,
      ])
    let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    return (run, json)
  }

  func wallet(_ json: [String: Any]?) -> String? {
    (json?["wallet"] as? [String: Any])?["address"] as? String
  }

  /// `derive --json` of the phrase given as words.
  func derive(words: String) throws -> String {
    let dir = try TemporaryDirectory()
    return try CLI.run(["derive", "--json", "--mnemonic-file", try dir.file("words", words)])
      .stdout
  }

  /// The state JSON (600,000 iterations, the phrase as bytes) derives what the phrase derives.
  @Test func stateJSONDerivesThePhrasesIdentities() throws {
    let (run, json) = try derive("state-600k")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(wallet(json) == Self.abandonAboutWallet)
    let words = (Array(repeating: "abandon", count: 11) + ["about"]).joined(separator: " ")
    #expect(run.stdout == (try derive(words: words)))
  }

  /// The legacy vault's phrase (text, after an imported key's keyring) derives as the words do.
  @Test func legacyVaultDerives() throws {
    let (run, json) = try derive("legacy-text")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(wallet(json) != nil)
    let words = "legal winner thank year wave sausage worth useful legal winner thank yellow"
    #expect(run.stdout == (try derive(words: words)))
  }

  @Test func wrongPasswordAndWrongFile() throws {
    let (wrong, _) = try derive("legacy-text", password: "metamask test password 1")
    #expect(wrong.status == 1)
    #expect(wrong.stdout == "")
    #expect(wrong.stderr == "freedom-keys: error: incorrect MetaMask password\n")

    let dir = try TemporaryDirectory()
    let passwordFile = try dir.file("password", Self.password)
    let desktop = RecoverPasswordTests.desktopVault
    let run = try CLI.run(
      ["derive", "--metamask-vault", desktop, "--vault-password-file", passwordFile])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: MetaMask vault file '\(desktop)' is not a MetaMask vault: the "
        + "content holds neither a vault ('data', 'iv', 'salt') nor 'KeyringController'\n")
  }

  @Test func usageErrors() throws {
    let vault = Self.fixture("legacy-text")
    let both = try CLI.run(["derive", "--metamask-vault", vault, "--vault-file", vault])
    #expect(both.status == 2)
    #expect(
      both.stderr.hasPrefix(
        "freedom-keys: error: --vault-file and --metamask-vault cannot be combined"))
    let words = try CLI.run(["derive", "--metamask-vault", vault, "--mnemonic-file", vault])
    #expect(words.status == 2)
    #expect(
      words.stderr.hasPrefix(
        "freedom-keys: error: --mnemonic-file and --metamask-vault cannot be combined"))
  }

  /// The password typed with caps lock on is found, written, and the command named opens the
  /// vault.
  @Test func capsLockedPasswordIsFound() throws {
    let dir = try TemporaryDirectory()
    let remembered = try dir.file("pw", Self.password + "\n")
    let out = dir.file("found")
    let vault = Self.fixture("capslock-1000")
    let run = try CLI.run(
      [
        "recover", "password", "--threads", "2", "--metamask-vault", vault, "--password-file",
        remembered, "--password-typos", "1", "--out", out,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        the password is the one remembered with caps lock
        it opens the vault \(vault), which holds a 12-word mnemonic
        wrote the password to \(out) (mode 0600)
        next: freedom-keys derive --metamask-vault \(vault) --vault-password-file \(out)

        """)
    #expect(!run.stdout.lowercased().contains("metamask test password"))
    #expect(!run.stderr.lowercased().contains("metamask test password"))
    let derive = try CLI.run(
      ["derive", "--json", "--metamask-vault", vault, "--vault-password-file", out])
    #expect(derive.status == 0, "\(derive.stderr)")
    #expect(derive.stdout.contains(Self.abandonAboutWallet))
  }

  @Test func recoverRefusesADesktopVault() throws {
    let dir = try TemporaryDirectory()
    let remembered = try dir.file("pw", Self.password)
    let desktop = RecoverPasswordTests.desktopVault
    let run = try CLI.run(
      ["recover", "password", "--metamask-vault", desktop, "--password-file", remembered])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: \(desktop) is not a MetaMask vault: the content holds neither "
        + "a vault ('data', 'iv', 'salt') nor 'KeyringController'\n")
  }
}

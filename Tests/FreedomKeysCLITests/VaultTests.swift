import Foundation
import TestSupport
import Testing

/// Desktop Freedom's identity-vault.json as the mnemonic source (--vault-file), checked against
/// the fixtures of Tests/GoldenVectors/Vectors/vaults (scripts/make-vault-fixtures.py) and
/// desktop Freedom's golden addresses.
@Suite("Vault input")
struct VaultTests {
  static let password = "correct horse battery staple"
  /// abandon×11 about, 900,000 iterations.
  static let abandonAbout = fixture("abandon-about")
  /// abandon×23 art, no keyMetadata (10,000 iterations).
  static let legacy = fixture("legacy-no-keymetadata")
  static let abandonAboutWallet = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
  static let abandonArtSwarm = "0xf785bD075874b8423D3583728a981399f31e95aA"

  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("GoldenVectors/Vectors/vaults/\(name).json").path
  }

  /// `derive --json` with the vault and a password file holding `password`.
  func derive(
    vault: String, password: String = VaultTests.password, extra: [String] = []
  ) throws -> (run: CLIRun, json: [String: Any]?) {
    let dir = try TemporaryDirectory()
    let passwordFile = try dir.file("password", password)
    let run = try CLI.run(
      ["derive", "--json", "--vault-file", vault, "--vault-password-file", passwordFile] + extra)
    let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    return (run, json)
  }

  func address(_ json: [String: Any]?, _ identity: String) -> String? {
    (json?[identity] as? [String: Any])?["address"] as? String
  }

  @Test func currentVaultGivesTheGoldenWallet() throws {
    let (run, json) = try derive(vault: Self.abandonAbout)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr == "")
    #expect(address(json, "wallet") == Self.abandonAboutWallet)
    #expect((json?["mnemonic"] as? [String: Any])?["words"] as? Int == 12)
  }

  @Test func legacyVaultGivesTheGoldenSwarmAddress() throws {
    let (run, json) = try derive(vault: Self.legacy)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(address(json, "swarm") == Self.abandonArtSwarm)
    #expect((json?["mnemonic"] as? [String: Any])?["words"] as? Int == 24)
  }

  /// The password file loses one trailing "\n" or "\r\n", nothing else.
  @Test(arguments: [password + "\n", password + "\r\n"])
  func passwordFileLineEnding(content: String) throws {
    let (run, json) = try derive(vault: Self.legacy, password: content)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(address(json, "swarm") == Self.abandonArtSwarm)
  }

  @Test(arguments: [
    "correct horse battery stapl", password + "\n\n", " " + password, password.uppercased(), "",
  ])
  func wrongPassword(content: String) throws {
    let (run, _) = try derive(vault: Self.legacy, password: content)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "freedom-keys: error: incorrect vault password\n")
  }

  @Test(arguments: [
    (
      "version-2",
      "unsupported vault version 2 — this tool reads version 1 vaults written by desktop Freedom"
    ),
    (
      "algorithm-scrypt",
      "unsupported vault key derivation 'scrypt' — this tool reads PBKDF2 vaults written by desktop Freedom"
    ),
  ])
  func refusedFixtures(name: String, message: String) throws {
    let (run, _) = try derive(vault: Self.fixture(name))
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "freedom-keys: error: \(message)\n")
  }

  @Test func notAVault() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words", SecretInputTests.mnemonic)
    let (run, _) = try derive(vault: path)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: vault file '\(path)' is not a desktop Freedom identity vault: not valid JSON (invalid JSON at byte 0: expected a value)\n"
    )
    #expect(!run.stderr.contains("abandon"))
  }

  @Test func missingVault() throws {
    let dir = try TemporaryDirectory()
    let path = dir.url.appendingPathComponent("identity-vault.json").path
    let (run, _) = try derive(vault: path)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "freedom-keys: error: cannot read vault file '\(path)': No such file or directory\n")
  }

  /// A vault may be larger than a secret file (64 KiB) but not larger than 1 MiB.
  @Test func vaultSizeLimitIsOneMebibyte() throws {
    let dir = try TemporaryDirectory()
    let vault = try Data(contentsOf: URL(fileURLWithPath: Self.legacy))
    let padded = try dir.file("padded.json", vault + Data(repeating: 0x20, count: 100_000))
    let (run, json) = try derive(vault: padded)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(address(json, "swarm") == Self.abandonArtSwarm)

    let huge = try dir.file("huge.json", vault + Data(repeating: 0x20, count: 1 << 20))
    let (refused, _) = try derive(vault: huge)
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr
        == "freedom-keys: error: vault file '\(huge)' is larger than 1 MiB; check that it is the right file\n"
    )
  }

  /// The vault is encrypted and desktop Freedom decides its mode: no warning. The password
  /// file is a secret: a warning.
  @Test func onlyThePasswordFileWarnsWhenShared() throws {
    let dir = try TemporaryDirectory()
    let vault = try dir.file(
      "identity-vault.json", try Data(contentsOf: URL(fileURLWithPath: Self.legacy)), mode: 0o644)
    let quiet = try derive(vault: vault)
    #expect(quiet.run.status == 0)
    #expect(quiet.run.stderr == "")

    let password = try dir.file("password", Self.password, mode: 0o644)
    let run = try CLI.run(
      ["derive", "--vault-file", vault, "--vault-password-file", password, "--json"])
    #expect(run.status == 0)
    #expect(
      run.stderr
        == "freedom-keys: warning: \(password) is readable by other users (mode 0644); run chmod 600 \(password)\n"
    )
  }

  @Test func vaultOnStandardInput() throws {
    let dir = try TemporaryDirectory()
    let password = try dir.file("password", Self.password)
    let vault = try Data(contentsOf: URL(fileURLWithPath: Self.legacy))
    let run = try CLI.run(
      ["derive", "--json", "--vault-file", "-", "--vault-password-file", password],
      stdinBytes: vault)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains(Self.abandonArtSwarm))
  }

  @Test func passwordOnStandardInput() throws {
    let run = try CLI.run(
      ["derive", "--json", "--vault-file", Self.legacy, "--vault-password-file", "-"],
      stdin: Self.password + "\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains(Self.abandonArtSwarm))
  }

  @Test func checkReadsTheVault() throws {
    let dir = try TemporaryDirectory()
    let password = try dir.file("password", Self.password)
    let run = try CLI.run(
      ["mnemonic", "check", "--vault-file", Self.legacy, "--vault-password-file", password])
    #expect(run.status == 0)
    #expect(run.stdout == "valid — 24 words, english\n")
  }

  @Test func passphraseStillApplies() throws {
    let (run, json) = try derive(vault: Self.abandonAbout, extra: ["--include-secrets"])
    #expect(json?["seed"] as? String == DeriveTests.seed, "\(run.stderr)")
    let dir = try TemporaryDirectory()
    let passphrase = try dir.file("passphrase", "TREZOR\n")
    let (_, trezor) = try derive(
      vault: Self.abandonAbout, extra: ["--include-secrets", "--passphrase-file", passphrase])
    #expect(trezor?["seed"] as? String == DeriveTests.trezorSeed)
  }

  static let hint = " (see 'freedom-keys derive --help')\n"

  @Test(arguments: [
    (
      ["--vault-file", "v.json", "--mnemonic-file", "words"],
      "--mnemonic-file and --vault-file cannot be combined: the vault holds the mnemonic"
    ),
    (["--vault-password-file", "p"], "--vault-password-file needs --vault-file"),
    (
      ["--vault-file", "-", "--vault-password-file", "-"],
      "--vault-file and --vault-password-file cannot both read standard input"
    ),
    (
      ["--vault-file", "v.json", "--vault-password-file", "-", "--passphrase-file", "-"],
      "--vault-password-file and --passphrase-file cannot both read standard input"
    ),
    (
      ["--vault-file", "v.json", "--passphrase-file", "-"],
      "--passphrase-file - needs --vault-password-file PATH: the vault password cannot be asked "
        + "for while standard input carries the passphrase"
    ),
    (
      ["--vault-file", "-"],
      "--vault-file - needs --vault-password-file PATH: the vault password cannot be asked for "
        + "while standard input carries the vault"
    ),
    (["--vault-file"], "missing value for --vault-file <path>"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = try CLI.run(["derive"] + arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "freedom-keys: error: " + message + Self.hint)
  }

  /// Without a password file and without a terminal, the vault is read, then the password
  /// cannot be asked for.
  @Test func noPasswordAndNoTerminal() throws {
    let run = try CLI.run(["derive", "--vault-file", Self.legacy])
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "freedom-keys: error: standard input is not a terminal, so the vault password cannot be "
        + "asked for: pass --vault-password-file PATH, or pipe it with --vault-password-file -"
        + Self.hint)
  }

  static let passwordPrompt =
    "Enter the vault password (input hidden; or use --vault-password-file PATH): "

  @Test func passwordTypedAtTheHiddenPrompt() throws {
    let terminal = try PromptTests.PseudoTerminal()
    let session = try PromptTests.Session(
      ["derive", "--json", "--vault-file", Self.abandonAbout], terminal: terminal)
    #expect(session.waitForStandardError(containing: Self.passwordPrompt) == Self.passwordPrompt)
    #expect(!terminal.echoes)
    terminal.type(Self.password + "\n")
    let (stdout, stderr) = session.finish()
    #expect(session.process.terminationStatus == 0)
    #expect(stderr == "\n")
    #expect(stdout.contains(Self.abandonAboutWallet))
    #expect(terminal.echoes)
    #expect(terminal.displayed() == "")
  }

  @Test func wrongPasswordAtThePrompt() throws {
    let terminal = try PromptTests.PseudoTerminal()
    let session = try PromptTests.Session(
      ["derive", "--vault-file", Self.legacy], terminal: terminal)
    _ = session.waitForStandardError(containing: Self.passwordPrompt)
    terminal.type("hunter2\n")
    let (stdout, stderr) = session.finish()
    #expect(session.process.terminationStatus == 1)
    #expect(stdout == "")
    #expect(stderr == "\nfreedom-keys: error: incorrect vault password\n")
    #expect(terminal.displayed() == "")
  }

  /// On a terminal, the mnemonic and `--passphrase-file -` are asked for one after the other.
  @Test func mnemonicAndPassphraseBothTyped() throws {
    let terminal = try PromptTests.PseudoTerminal()
    let prompt = "Enter the BIP-39 passphrase (input hidden): "
    let session = try PromptTests.Session(
      ["derive", "--json", "--include-secrets", "--passphrase-file", "-"], terminal: terminal)
    _ = session.waitForStandardError(containing: PromptTests.prompt)
    terminal.type(SecretInputTests.mnemonic + "\n")
    _ = session.waitForStandardError(containing: prompt)
    terminal.type("TREZOR\n")
    let (stdout, _) = session.finish()
    #expect(session.process.terminationStatus == 0)
    let json = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
    #expect(json?["seed"] as? String == DeriveTests.trezorSeed)
    #expect(terminal.displayed() == "")
  }

  /// `--passphrase-file -` on a terminal asks with echo off instead of showing what is typed.
  @Test func passphraseTypedAtTheHiddenPrompt() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", SecretInputTests.mnemonic)
    let terminal = try PromptTests.PseudoTerminal()
    let prompt = "Enter the BIP-39 passphrase (input hidden): "
    let session = try PromptTests.Session(
      [
        "derive", "--json", "--include-secrets", "--mnemonic-file", words, "--passphrase-file", "-",
      ],
      terminal: terminal)
    #expect(session.waitForStandardError(containing: prompt) == prompt)
    #expect(!terminal.echoes)
    terminal.type("TREZOR\n")
    let (stdout, _) = session.finish()
    #expect(session.process.terminationStatus == 0)
    let json = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
    #expect(json?["seed"] as? String == DeriveTests.trezorSeed)
    #expect(terminal.displayed() == "")
  }
}

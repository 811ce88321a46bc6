import Foundation
import Testing

/// `export freedom`: a whole desktop installation restored from the mnemonic.
@Suite("export freedom")
struct ExportFreedomTests {
  static let password = VaultTests.password

  func configPassword(_ userData: String) -> String? {
    text(userData + "/ant-data/config.yaml")?.split(separator: "\n")
      .first { $0.hasPrefix("password: ") }.map { String($0.dropFirst("password: ".count)) }
  }

  @Test func aFreshInstallationIsRestoredAsDesktopWritesIt() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    let vaultPassword = try fixture.file("vault-password", Self.password + "\n")
    let run = try fixture.run([
      "export", "freedom", "--user-data", userData, "--create", "--vault-password-file",
      vaultPassword,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    // Desktop starts antd itself: the restore ends by saying to start Freedom (issue 16).
    #expect(run.stdout.hasSuffix("Start Freedom and unlock it with the vault password\n"))
    #expect(!run.stdout.contains("Start antd with"))
    #expect(
      tree(userData) == [
        "ant-data", "ant-data/config.yaml", "ant-data/keys", "ant-data/keys/swarm.key", "identity",
        "identity/identity-vault.json", "identity/vault-meta.json", "radicle-data",
        "radicle-data/config.json", "radicle-data/keys", "radicle-data/keys/radicle",
        "radicle-data/keys/radicle.pub",
      ])
    // ant-data opens with config.yaml's password; Radicle holds the key and desktop's alias.
    let antPassword = try #require(configPassword(userData))
    let passwordFile = try fixture.file("ant-password", antPassword)
    let verify = try fixture.run([
      "verify", "--bee-dir", userData + "/ant-data", "--password-file", passwordFile,
      "--radicle-home", userData + "/radicle-data",
    ])
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(text(userData + "/radicle-data/config.json")?.contains("FreedomBrowser") == true)
    // The vault opens to the mnemonic with the password (one trailing newline dropped).
    let opened = try CLI.run([
      "derive", "--json", "--vault-file", userData + "/identity/identity-vault.json",
      "--vault-password-file", vaultPassword,
    ])
    #expect(opened.status == 0, "\(opened.stderr)")
    #expect(opened.stdout.contains(Golden.swarmAddress))
    let vault = try #require(text(userData + "/identity/identity-vault.json"))
    #expect(vault.hasPrefix("{\n  \"version\": 1,\n  \"encrypted\": \"{\\\"data\\\":\\\""))
    #expect(
      vault.contains(
        "\\\"keyMetadata\\\":{\\\"algorithm\\\":\\\"PBKDF2\\\",\\\"params\\\":{\\\"iterations\\\":900000}}"
      ))
    #expect(vault.hasSuffix("Z\"\n}"))
    let meta = try #require(text(userData + "/identity/vault-meta.json"))
    let lines = meta.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 8)
    #expect(lines[1] == "  \"userKnowsPassword\": true,")
    #expect(lines[2].hasPrefix("  \"createdAt\": \"") && lines[2].hasSuffix("Z\","))
    #expect(lines[4] == "    \"userWallet\": \"\(VaultTests.abandonAboutWallet)\",")
    #expect(lines[5] == "    \"beeWallet\": \"\(Golden.swarmAddress)\"")
    #expect(lines[7] == "}")

    let again = try fixture.run([
      "export", "freedom", "--user-data", userData, "--vault-password-file", vaultPassword,
    ])
    #expect(again.status == 0)
    #expect(!again.stdout.contains("Wrote"))
    #expect(configPassword(userData) == antPassword)
  }

  @Test func aPackagedDefaultProfileGetsRadicleInItsSlot() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    try makeDirectory(userData)
    _ = try fixture.file("Freedom/profile-registry.json", "{\"profiles\": []}")
    _ = try fixture.file("Freedom/profile.json", "{\"id\": \"default\", \"slot\": 0}")
    let run = try fixture.run(["export", "freedom", "--user-data", userData, "--alias", "Me"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: userData + "/R/0/keys/radicle"))
    #expect(!FileManager.default.fileExists(atPath: userData + "/radicle-data"))
    #expect(!FileManager.default.fileExists(atPath: userData + "/identity"))
    #expect(run.stdout.contains("untouched (give --vault-password-file to write the vault)"))
    #expect(text(userData + "/R/0/config.json")?.contains("\"Me\"") == true)
  }

  @Test func whatDesktopCannotOpenIsRefusedBeforeWriting() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    let short = try fixture.file("short", "1234567")
    let refused = try fixture.run([
      "export", "freedom", "--user-data", userData, "--vault-password-file", short,
    ])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(refused.stderr.contains("desktop Freedom requires at least 8"))
    #expect(!FileManager.default.fileExists(atPath: userData))

    let japanese = try fixture.file(
      "ja", Array(repeating: "あいこくしん", count: 11).joined(separator: " ") + " あおぞら")
    let foreign = try CLI.run([
      "export", "freedom", "--user-data", userData, "--mnemonic-file", japanese,
    ])
    #expect(foreign.status == 1)
    #expect(foreign.stderr.contains("English mnemonics only"))
    #expect(!FileManager.default.fileExists(atPath: userData))

    let passphrase = try fixture.run([
      "export", "freedom", "--user-data", userData, "--passphrase-file", short,
    ])
    #expect(passphrase.status == 2)
  }

  /// Issue 16 item 4: --force covers node keys, not a vault that may hold the user's wallet.
  @Test func anotherVaultIsReplacedOnlyWithReplaceVault() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    let vaultPassword = try fixture.file("vault-password", Self.password)
    try makeDirectory(userData + "/identity")
    try FileManager.default.copyItem(
      atPath: VaultTests.legacy, toPath: userData + "/identity/identity-vault.json")
    let before = contents(userData + "/identity/identity-vault.json")
    let refused = try fixture.run([
      "export", "freedom", "--user-data", userData, "--vault-password-file", vaultPassword,
    ])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("holds another vault"))
    #expect(contents(userData + "/identity/identity-vault.json") == before)
    #expect(tree(userData) == ["identity", "identity/identity-vault.json"])

    // --force alone no longer replaces a vault: the refusal names the flag that does.
    let forcedOnly = try fixture.run([
      "export", "freedom", "--user-data", userData, "--vault-password-file", vaultPassword,
      "--force",
    ])
    #expect(forcedOnly.status == 1)
    #expect(forcedOnly.stdout == "")
    #expect(forcedOnly.stderr.contains("--replace-vault replaces the vault"))
    #expect(contents(userData + "/identity/identity-vault.json") == before)
    #expect(tree(userData) == ["identity", "identity/identity-vault.json"])

    let replaced = try fixture.run([
      "export", "freedom", "--user-data", userData, "--vault-password-file", vaultPassword,
      "--replace-vault",
    ])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let opened = try CLI.run([
      "derive", "--json", "--vault-file", userData + "/identity/identity-vault.json",
      "--vault-password-file", vaultPassword,
    ])
    #expect(opened.stdout.contains(Golden.swarmAddress))
    // The old vault is kept in the backup directory, byte for byte.
    let backups = tree(userData).filter {
      $0.hasPrefix(".freedom-keys.replaced/") && $0.hasSuffix("/identity/identity-vault.json")
    }
    #expect(backups.count == 1, "\(tree(userData))")
    #expect(backups.first.map { contents(userData + "/" + $0) } == before)
  }
}

import Foundation
import Testing

/// The rules FreedomNodes made one: antd's password and keystore rule in export and verify alike,
/// a desktop vault believed only for what its files say, every conflict in one refusal,
/// `verify --antd-dir`, `verify --json`'s `ok`, and `--freedom-dir` for a desktop installation.
@Suite("node rules")
struct NodeRulesTests {
  func jsonChecks(_ run: CLIRun) -> [String: [String: Any]] {
    let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    var result: [String: [String: Any]] = [:]
    for check in (json?["checks"] as? [[String: Any]]) ?? [] {
      result[check["check"] as? String ?? ""] = check
    }
    return result
  }

  /// A desktop installation whose config.yaml names a password file instead of a password.
  func passwordFileInstallation(_ fixture: ExportFixture) throws -> (userData: String, file: String)
  {
    let userData = fixture.path("Freedom")
    let file = try fixture.file("antd-password", "a-password-in-a-file\n")
    try makeDirectory(userData + "/ant-data")
    _ = try fixture.file("Freedom/ant-data/config.yaml", "password-file: \(file)\n")
    let export = try fixture.run(["export", "freedom", "--user-data", userData])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout.contains("Password: the one in \(file)"))
    return (userData, file)
  }

  @Test func aPasswordFileInstallationVerifiesAuthenticated() throws {
    let fixture = try ExportFixture()
    let (userData, file) = try passwordFileInstallation(fixture)
    let run = try fixture.run(["verify", "--json", "--freedom-dir", userData])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let antData = jsonChecks(run)["ant-data"]
    #expect(antData?["status"] as? String == "match")
    #expect(antData?["authenticated"] as? Bool == true)
    #expect(
      (antData?["detail"] as? String)?.hasSuffix(
        "(decrypted with the password in \(file) (config.yaml's password-file))") == true)
    let antd = try fixture.run(["verify", "--antd-dir", userData + "/ant-data"])
    #expect(antd.status == 0, "\(antd.stdout)\(antd.stderr)")
    #expect(antd.stdout.hasPrefix("antd  match     \(Golden.swarmAddress) (decrypted with"))
  }

  @Test func aGarbageVaultIsAMismatchAndNothingIsInvented() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    try makeDirectory(userData + "/identity")
    _ = try fixture.file("Freedom/identity/identity-vault.json", "garbage")
    _ = try fixture.file("Freedom/identity/vault-meta.json", "{}")
    let run = try fixture.run(["verify", "--freedom-dir", userData])
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("vault                  MISMATCH  not desktop Freedom's vault: "))
    #expect(
      run.stdout.contains(
        "vault-meta             MISMATCH  lacks what desktop writes in every vault-meta.json: "
          + "userKnowsPassword, createdAt, addresses.userWallet, addresses.beeWallet"))
    #expect(!run.stdout.contains("Main Wallet"))
    #expect(!run.stdout.contains("wallet 0"))
    #expect(run.stderr.contains("vault, vault-meta do not hold the mnemonic's identity"))
    let json = try fixture.run(["verify", "--json", "--freedom-dir", userData])
    #expect(json.stdout.contains("\"ok\": false"))
  }

  /// Issue 26, item 5: field names in another case (bee's Go reader ignores case, antd's serde
  /// does not) and scrypt's n ≥ 2^(16·r) were "match" for verify --antd-dir and "nothing to do"
  /// for export antd.
  @Test(arguments: [
    (
      "\"mac\":", "\"MAC\":",
      "it names 'crypto.mac' 'MAC'; antd reads field names exactly as written"
    ),
    (
      "\"crypto\":", "\"CRYPTO\":",
      "it names 'crypto' 'CRYPTO'; antd reads field names exactly as written"
    ),
  ])
  func aKeystoreNamedAsAntdDoesNotReadIsAMismatch(standard: String, other: String, reason: String)
    throws
  {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant-data")
    #expect(try fixture.run(["export", "antd", "--data-dir", dir]).status == 0)
    let keystore = dir + "/keys/swarm.key"
    let original = try #require(text(keystore))
    let renamed = original.replacingOccurrences(of: standard, with: other)
    #expect(renamed != original)
    try Data(renamed.utf8).write(to: URL(fileURLWithPath: keystore))

    let verify = try fixture.run(["verify", "--antd-dir", dir])
    #expect(verify.status == 3, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout.contains("(antd refuses it: \(reason))"), "\(verify.stdout)")
    let export = try fixture.run(["export", "antd", "--data-dir", dir])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout.contains("Rewrote \(keystore) as antd reads it"), "\(export.stdout)")
    #expect(try fixture.run(["verify", "--antd-dir", dir]).status == 0)
  }

  @Test func aKeystoreAntdRefusesIsAMismatchAndExportRewritesIt() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    #expect(
      try fixture.run(["export", "freedom", "--user-data", userData, "--create"]).status == 0)
    let keystore = userData + "/ant-data/keys/swarm.key"
    // bee reads a version given as the string "3"; antd's serde reads only the number.
    let original = try #require(text(keystore))
    let stringVersion = original.replacingOccurrences(
      of: "\"version\": 3", with: "\"version\": \"3\""
    )
    .replacingOccurrences(of: "\"version\":3", with: "\"version\":\"3\"")
    #expect(stringVersion != original)
    try Data(stringVersion.utf8).write(to: URL(fileURLWithPath: keystore))

    let desktop = try fixture.run(["verify", "--freedom-dir", userData])
    #expect(desktop.status == 3, "\(desktop.stdout)\(desktop.stderr)")
    #expect(desktop.stdout.contains("antd refuses it, its version is the string \"3\""))
    let antd = try fixture.run(["verify", "--antd-dir", userData + "/ant-data"])
    #expect(antd.status == 3)
    #expect(antd.stdout.contains("(antd refuses it: its version is the string \"3\""))

    let export = try fixture.run(["export", "antd", "--data-dir", userData + "/ant-data"])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout.contains("Rewrote \(keystore) as antd reads it"))
    #expect(try fixture.run(["verify", "--antd-dir", userData + "/ant-data"]).status == 0)
  }

  @Test func aRefusalNamesEveryConflict() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    let vaultPassword = try fixture.file("vault-password", VaultTests.password)
    // antd's own identity of another key, and a vault of another mnemonic.
    #expect(
      try fixture.run(["export", "ant", "--data-dir", userData + "/ant-data"], other: true).status
        == 0)
    try FileManager.default.copyItem(
      atPath: VaultTests.legacy, toPath: userData + "/identity-vault.json.tmp")
    try makeDirectory(userData + "/identity")
    try FileManager.default.moveItem(
      atPath: userData + "/identity-vault.json.tmp",
      toPath: userData + "/identity/identity-vault.json")
    let refused = try fixture.run([
      "export", "freedom", "--user-data", userData, "--vault-password-file", vaultPassword,
    ])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr.contains(
        "\(userData)/ant-data/identity.json holds the key of \(Golden.otherSwarmAddress), "
          + "antd's own identity"))
    #expect(refused.stderr.contains("\(userData)/identity/identity-vault.json holds another vault"))
    // Each kind of loss is named with the flag that covers it (issue 16 item 4).
    #expect(
      refused.stderr.hasSuffix(
        "(--force replaces the node key named; --replace-vault replaces the vault, kept in the "
          + "backup directory (it may hold your wallet: back its mnemonic up first))\n"))
    #expect(refused.stderr.split(separator: "\n").count == 1)
    // --force alone: every conflict is still named, but the hint names only the flag missing.
    for dryRun in [false, true] {
      let forced = try fixture.run(
        [
          "export", "freedom", "--user-data", userData, "--vault-password-file", vaultPassword,
          "--force",
        ] + (dryRun ? ["--dry-run"] : []))
      #expect(forced.status == (dryRun ? 3 : 1))
      #expect(forced.stdout == "")
      #expect(
        forced.stderr.contains(
          "\(userData)/ant-data/identity.json holds the key of \(Golden.otherSwarmAddress), "
            + "antd's own identity"))
      #expect(
        forced.stderr.contains("\(userData)/identity/identity-vault.json holds another vault"))
      #expect(
        forced.stderr.hasSuffix(
          "; nothing was written (--replace-vault replaces the vault, kept in the backup "
            + "directory (it may hold your wallet: back its mnemonic up first))\n"),
        "\(forced.stderr)")
      #expect(forced.stderr.split(separator: "\n").count == 1)
    }
    // --replace-vault alone: the hint names only --force, and what it covers.
    for dryRun in [false, true] {
      let vaultOnly = try fixture.run(
        [
          "export", "freedom", "--user-data", userData, "--vault-password-file", vaultPassword,
          "--replace-vault",
        ] + (dryRun ? ["--dry-run"] : []))
      #expect(vaultOnly.status == (dryRun ? 3 : 1))
      #expect(vaultOnly.stdout == "")
      #expect(
        vaultOnly.stderr.contains("\(userData)/identity/identity-vault.json holds another vault"))
      #expect(
        vaultOnly.stderr.hasSuffix("; nothing was written (--force removes the node key named)\n"),
        "\(vaultOnly.stderr)")
      #expect(vaultOnly.stderr.split(separator: "\n").count == 1)
    }
  }

  @Test func verifyAntdDir() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant-data")
    try makeDirectory(dir)
    _ = try fixture.file("ant-data/config.yaml", ExportAntdTests.desktopConfig(dir))
    #expect(try fixture.run(["export", "antd", "--data-dir", dir]).status == 0)
    let run = try fixture.run(["verify", "--antd-dir", dir])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout
        == "antd  match     \(Golden.swarmAddress) (decrypted with config.yaml's password)\n")
    let json = try fixture.run(["verify", "--json", "--antd-dir", dir])
    #expect(json.stdout.contains("\"authenticated\": true"))
    #expect(json.stdout.contains("\"ok\": true"))
    let other = try fixture.run(["verify", "--antd-dir", dir], other: true)
    #expect(other.status == 3)
    #expect(
      other.stderr
        == "freedom-keys: hint: the keys found are of another identity; if this mnemonic was used "
        + "with a BIP-39 passphrase, give it with --passphrase-file PATH (- to type it)\n"
        + "freedom-keys: error: antd does not hold the mnemonic's identity\n")
    let missing = try fixture.run(["verify", "--antd-dir", fixture.path("nowhere")])
    #expect(missing.status == 1)
    #expect(missing.stdout == "")
  }

  @Test func exportFreedomTakesFreedomDir() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    let run = try fixture.run(["export", "freedom", "--freedom-dir", userData, "--create"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try fixture.run(["verify", "--freedom-dir", userData]).status == 0)
    let both = try fixture.run([
      "export", "freedom", "--freedom-dir", userData, "--user-data", userData,
    ])
    #expect(both.status == 2)
    let none = try fixture.run(["export", "freedom"])
    #expect(none.status == 2)
    #expect(none.stderr.contains("missing --freedom-dir <dir>"))
  }
}

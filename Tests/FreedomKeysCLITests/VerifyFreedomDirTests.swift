import Foundation
import Testing

/// `verify --freedom-dir`: one report over a desktop installation.
@Suite("verify --freedom-dir")
struct VerifyFreedomDirTests {
  func restored(_ fixture: ExportFixture) throws -> (userData: String, vaultPassword: String) {
    let userData = fixture.path("Freedom")
    let vaultPassword = try fixture.file("vault-password", VaultTests.password)
    let run = try fixture.run([
      "export", "freedom", "--user-data", userData, "--create", "--vault-password-file",
      vaultPassword,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    return (userData, vaultPassword)
  }

  func checks(_ run: CLIRun) -> [String: String] {
    let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    var result: [String: String] = [:]
    for check in (json?["checks"] as? [[String: Any]]) ?? [] {
      result[check["check"] as? String ?? ""] = check["status"] as? String
    }
    return result
  }

  @Test func aRestoredInstallationMatchesWithTheVaultAsSource() throws {
    let fixture = try ExportFixture()
    let (userData, vaultPassword) = try restored(fixture)
    let run = try CLI.run([
      "verify", "--json", "--freedom-dir", userData, "--vault-password-file", vaultPassword,
    ])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(
      checks(run) == [
        "vault": "match", "vault-meta userWallet": "match", "vault-meta beeWallet": "match",
        "vault-meta wallet 0": "match", "ant-data": "match", "bee-data": "absent",
        "radicle": "match", "radicle alias": "note", "ipfs-data": "absent",
      ])
    let text = try CLI.run([
      "verify", "--freedom-dir", userData, "--vault-password-file", vaultPassword,
    ])
    #expect(
      text.stdout.contains(
        "ant-data               match     \(Golden.swarmAddress) (decrypted with config.yaml's password)"
      ))
    #expect(text.stdout.contains("bee-data               absent    (\(userData)/bee-data)"))
  }

  @Test func everyPartIsReportedAndABrokenKeystoreFails() throws {
    let fixture = try ExportFixture()
    let (userData, vaultPassword) = try restored(fixture)
    // A wallet list with a gap and a Ledger; antd's own identity; bee-data and an old kubo repo.
    _ = try fixture.file(
      "Freedom/identity/vault-meta.json",
      """
      {"userKnowsPassword": true, "createdAt": "2025-01-01T00:00:00.000Z",
       "addresses": {"userWallet": "\(VaultTests.abandonAboutWallet)", "beeWallet": "\(Golden.swarmAddress)"},
       "derivedWallets": [{"index": 0, "name": "Main Wallet", "address": "\(VaultTests.abandonAboutWallet)"},
         {"index": 2, "name": "Savings", "address": "\(DeriveVaultMetaTests.walletTwo)"},
         {"index": 1000000, "name": "Ledger 1", "address": "0x00000000000000000000000000000000000000aA", "type": "ledger"}],
       "activeWalletIndex": 0}
      """)
    #expect(try fixture.run(["export", "ant", "--data-dir", userData + "/ant-data"]).status == 0)
    #expect(
      try fixture.run([
        "export", "bee", "--data-dir", userData + "/bee-data", "--scrypt-n", "1024",
      ]).status == 0)
    try makeDirectory(userData + "/ipfs-data")
    _ = try fixture.file("Freedom/ipfs-data/config", "{\"Identity\": {}}\n")
    #expect(try fixture.run(["export", "kubo", "--repo", userData + "/ipfs-data"]).status == 0)

    let run = try fixture.run(["verify", "--json", "--freedom-dir", userData])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let found = checks(run)
    #expect(found["vault"] == "note")
    #expect(found["vault-meta wallet 2"] == "match")
    #expect(found["vault-meta wallet 1000000"] == "note")
    #expect(found["ant-data identity.json"] == "note")
    #expect(found["bee-data"] == "match")
    #expect(found["ipfs-data"] == "match")
    let text = try fixture.run(["verify", "--freedom-dir", userData])
    #expect(text.stdout.contains("antd ignores it while keys/swarm.key exists"))
    #expect(text.stdout.contains("ledger account \"Ledger 1\""))
    #expect(text.stdout.contains("left over from before the migration"))

    // issue 10's broken node: a keystore of the right key under another password than
    // config.yaml's (what `export bee` with its own DIR/password left in ant-data).
    let other = try fixture.file("other-password", "not-config-yaml-s")
    let elsewhere = fixture.path("elsewhere")
    #expect(
      try fixture.run([
        "export", "bee", "--data-dir", elsewhere, "--scrypt-n", "1024", "--password-file", other,
      ]).status == 0)
    try FileManager.default.removeItem(atPath: userData + "/ant-data/keys/swarm.key")
    try FileManager.default.copyItem(
      atPath: elsewhere + "/keys/swarm.key", toPath: userData + "/ant-data/keys/swarm.key")
    let broken = try fixture.run(["verify", "--freedom-dir", userData])
    #expect(broken.status == 3)
    #expect(broken.stdout.contains("config.yaml's password does not open keys/swarm.key"))
    #expect(broken.stderr.contains("ant-data does not hold the mnemonic's identity"))
    _ = vaultPassword
  }

  @Test func usage() throws {
    let fixture = try ExportFixture()
    let run = try fixture.run(["verify", "--freedom-dir", fixture.path("x"), "--ant-dir", "y"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("give it alone"))
  }
}

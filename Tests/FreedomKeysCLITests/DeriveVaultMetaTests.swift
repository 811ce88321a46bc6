import Foundation
import Testing

/// `derive --vault-meta`: desktop's wallet list, each wallet at its own index.
@Suite("derive --vault-meta")
struct DeriveVaultMetaTests {
  /// m/44'/60'/2'/0/0 of abandon … about (also `derive --wallets 3`'s third wallet).
  static let walletTwo = "0x07B5FdfEB4E11826D233403Fe8Db0611CCF4c231"
  static let meta = """
    {
      "userKnowsPassword": true,
      "createdAt": "2025-01-01T00:00:00.000Z",
      "addresses": {
        "userWallet": "\(VaultTests.abandonAboutWallet)",
        "beeWallet": "\(Golden.swarmAddress)"
      },
      "derivedWallets": [
        {"index": 0, "name": "Main Wallet", "address": "\(VaultTests.abandonAboutWallet)"},
        {"index": 2, "name": "Savings", "address": "0x0000000000000000000000000000000000000001"},
        {"index": 1000000, "name": "Ledger 1", "address": "0x00000000000000000000000000000000000000aA", "type": "ledger", "path": "44'/60'/0'/0/0"}
      ],
      "activeWalletIndex": 0
    }
    """

  func wallets(_ run: CLIRun) -> [[String: Any]] {
    let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    return ((json?["vaultMeta"] as? [String: Any])?["wallets"] as? [[String: Any]]) ?? []
  }

  @Test func walletsAtTheirIndexesGapsKeptDevicesSkipped() throws {
    let fixture = try ExportFixture()
    let meta = try fixture.file("vault-meta.json", Self.meta)
    let run = try fixture.run(["derive", "--json", "--vault-meta", meta])
    #expect(run.status == 0, "\(run.stderr)")
    let wallets = wallets(run)
    #expect(wallets.map { $0["index"] as? Int } == [0, 2, 1_000_000])
    #expect(wallets.map { $0["derivable"] as? Bool } == [true, true, false])
    #expect(wallets[0]["address"] as? String == VaultTests.abandonAboutWallet)
    #expect(wallets[0]["matches"] as? Bool == true)
    #expect(wallets[1]["path"] as? String == "m/44'/60'/2'/0/0")
    #expect(wallets[1]["address"] as? String == Self.walletTwo)
    #expect(wallets[1]["matches"] as? Bool == false)
    #expect(wallets[2]["type"] as? String == "ledger")
    #expect(wallets[2]["address"] == nil)
    #expect(wallets[2]["name"] as? String == "Ledger 1")

    let summary = try fixture.run(["derive", "--vault-meta", meta])
    #expect(summary.stdout.contains("Vault wallet 2 \"Savings\""))
    #expect(summary.stdout.contains("(MISMATCH)"))
    #expect(summary.stdout.contains("not in the mnemonic (device account); skipped"))

    // The same third wallet --wallets derives: the index is the BIP-44 account.
    let listed = try fixture.run(["derive", "--json", "--wallets", "3"])
    #expect(listed.stdout.contains(Self.walletTwo))
  }

  @Test func foundBesideTheVault() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("identity")
    try makeDirectory(dir)
    try FileManager.default.copyItem(
      atPath: VaultTests.abandonAbout, toPath: dir + "/identity-vault.json")
    _ = try fixture.file("identity/vault-meta.json", Self.meta)
    let password = try fixture.file("pw", VaultTests.password)
    let run = try CLI.run([
      "derive", "--json", "--vault-file", dir + "/identity-vault.json", "--vault-password-file",
      password,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(wallets(run).map { $0["index"] as? Int } == [0, 2, 1_000_000])
  }

  @Test func badMetadataFailsBeforeAnySecretIsRead() throws {
    let fixture = try ExportFixture()
    let meta = try fixture.file("vault-meta.json", "{\"derivedWallets\": [{\"index\": \"two\"}]}")
    let run = try CLI.run(["derive", "--vault-meta", meta])  // no mnemonic given: would prompt
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: \(meta): the file is not desktop Freedom's vault-meta.json: "
        + "'derivedWallets[0].index' has the wrong type\n")
    let usage = try fixture.run(["derive", "--vault-meta", meta, "--path", "m/44'/60'/0'/0/0"])
    #expect(usage.status == 2)
  }
}

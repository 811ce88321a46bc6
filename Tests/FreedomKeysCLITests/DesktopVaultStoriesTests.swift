import Foundation
import Testing

/// Issue 35's desktop stories: `export freedom` of another mnemonic without the vault password
/// (two identities in one installation), and the vault written again for the same mnemonic,
/// which keeps every member of vault-meta.json that still holds.
@Suite("desktop vault stories")
struct DesktopVaultStoriesTests {
  static let password = VaultTests.password

  /// An installation of abandon…about with its vault, at `<fixture>/Freedom`.
  func installation(_ fixture: ExportFixture, password: String) throws -> String {
    let userData = fixture.path("Freedom")
    let run = try fixture.run([
      "export", "freedom", "--user-data", userData, "--create", "--vault-password-file", password,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    return userData
  }

  /// Another mnemonic's keys without the vault password would leave abandon…about's vault
  /// beside them: refused before anything is written, the dry run too, naming the option that
  /// writes the vault; the same mnemonic without the password still works.
  @Test func anotherMnemonicWithoutTheVaultPasswordIsRefused() throws {
    let fixture = try ExportFixture()
    let userData = try installation(
      fixture, password: try fixture.file("vault-password", Self.password))
    let before = try treeSnapshot(userData)
    let expected =
      "freedom-keys: error: \(userData)/identity/vault-meta.json names \(Golden.swarmAddress), "
      + "not the mnemonic's \(Golden.otherSwarmAddress): desktop Freedom's vault holds another "
      + "mnemonic, and without its password it would stay beside this mnemonic's node keys (two "
      + "identities in one installation); nothing was written (give --vault-password-file to "
      + "write this mnemonic's vault in its place, with --replace-vault)\n"
    for extra in [["--force"], ["--force", "--dry-run"], ["--dry-run", "--json"]] {
      let run = try fixture.run(
        ["export", "freedom", "--user-data", userData] + extra, other: true)
      #expect(run.status == 1, "\(extra)")
      #expect(run.stdout == "", "\(extra)")
      #expect(run.stderr == expected, "\(extra)")
      #expect(try treeSnapshot(userData) == before, "\(extra)")
    }
    // The same mnemonic without the vault password: the vault stays, as it may.
    let same = try fixture.run(["export", "freedom", "--user-data", userData])
    #expect(same.status == 0, "\(same.stderr)")
    #expect(same.stdout.contains("untouched (give --vault-password-file to write the vault)"))
    // With the vault password (a new one) and consent, the whole installation is the other's.
    let other = try fixture.file("other-password", "another password")
    let replaced = try fixture.run(
      [
        "export", "freedom", "--user-data", userData, "--vault-password-file", other, "--force",
        "--replace-vault",
      ], other: true)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(
      text(userData + "/identity/vault-meta.json")?.contains(Golden.otherSwarmAddress) == true)
  }

  /// vault-meta.json as desktop leaves it after a while: more wallets, a Ledger, a phone, a
  /// Safe (its owners, threshold and salt nonce frozen), names, the active wallet, the device
  /// counter and a member this tool does not know; userKnowsPassword false (Quick Setup).
  static func desktopMeta(wallet: String, swarm: String) -> String {
    """
    {
      "userKnowsPassword": false,
      "createdAt": "2025-03-01T10:00:00.000Z",
      "addresses": {
        "userWallet": "\(wallet)",
        "beeWallet": "\(swarm)"
      },
      "derivedWallets": [
        {
          "index": 0,
          "name": "Main Wallet",
          "address": "\(wallet)"
        },
        {
          "index": 2,
          "name": "Savings",
          "address": "\(DeriveVaultMetaTests.walletTwo)"
        },
        {
          "index": 1000000,
          "name": "Ledger 1",
          "address": "0x00000000000000000000000000000000000000aA",
          "type": "ledger",
          "path": "44'/60'/0'/0/0"
        },
        {
          "index": 1000001,
          "name": "Phone 1",
          "address": "0x00000000000000000000000000000000000000bB",
          "type": "remote"
        },
        {
          "index": 1000002,
          "name": "Family Safe",
          "address": "0x00000000000000000000000000000000000000cC",
          "type": "safe",
          "owners": [
            0,
            1000000
          ],
          "threshold": 1,
          "saltNonce": "1718000000000",
          "deployed": {
            "100": true
          }
        }
      ],
      "activeWalletIndex": 1000002,
      "nextHardwareWalletIndex": 1000003,
      "futureSetting": {
        "kept": [
          1,
          2
        ]
      }
    }
    """
  }

  /// A new password after a forgotten one, the commonest story: the vault is written again
  /// for the same mnemonic, and vault-meta.json keeps every member but the one that no longer
  /// holds (userKnowsPassword: the user knows this password); the old file is kept aside whole.
  @Test func theSameMnemonicsVaultMetaKeepsItsMembers() throws {
    let fixture = try ExportFixture()
    let userData = try installation(
      fixture, password: try fixture.file("forgotten", "a password long forgotten"))
    let meta = userData + "/identity/vault-meta.json"
    let desktop = Self.desktopMeta(
      wallet: VaultTests.abandonAboutWallet, swarm: Golden.swarmAddress)
    try desktop.write(toFile: meta, atomically: false, encoding: .utf8)
    let newPassword = try fixture.file("new-password", Self.password)
    let arguments = [
      "export", "freedom", "--user-data", userData, "--vault-password-file", newPassword,
      "--replace-vault",
    ]
    let dryRun = try fixture.run(arguments + ["--dry-run"])
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(text(meta) == desktop)

    let run = try fixture.run(arguments)
    #expect(run.status == 0, "\(run.stderr)")
    let kept = desktop.replacingOccurrences(
      of: "\"userKnowsPassword\": false", with: "\"userKnowsPassword\": true")
    #expect(text(meta) == kept)
    #expect(
      run.stdout.contains(
        "Updated \(meta) for this mnemonic (userKnowsPassword): its wallets, device accounts, "
          + "names and every other member kept\n"))
    // The file desktop had is kept aside whole, and the vault opens with the new password.
    let backups = tree(userData).filter {
      $0.hasPrefix(".freedom-keys.replaced/") && $0.hasSuffix("/identity/vault-meta.json")
    }
    #expect(backups.count == 1, "\(tree(userData))")
    #expect(backups.first.flatMap { text(userData + "/" + $0) } == desktop)
    let opened = try CLI.run([
      "derive", "--json", "--vault-file", userData + "/identity/identity-vault.json",
      "--vault-password-file", newPassword,
    ])
    #expect(opened.stdout.contains(Golden.swarmAddress))
    // verify reads the kept wallets through the same reader: wallet 2 matches, devices noted.
    let verify = try fixture.run(["verify", "--freedom-dir", userData, "--json"])
    #expect(verify.stdout.contains("vault-meta wallet 2"), "\(verify.stdout)")

    // Once it holds, a second export with that password leaves it as it is.
    let again = try fixture.run(arguments)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(text(meta) == kept)
  }

  /// A stored wallet address that is not the one derived at its index is put right (desktop
  /// derives it when unlocked); another mnemonic's file is written afresh as desktop's import.
  @Test func onlyWhatNoLongerHoldsIsChanged() throws {
    let fixture = try ExportFixture()
    let password = try fixture.file("vault-password", Self.password)
    let userData = try installation(fixture, password: password)
    let meta = userData + "/identity/vault-meta.json"
    let wrong = "0x0000000000000000000000000000000000000001"
    let desktop = Self.desktopMeta(
      wallet: VaultTests.abandonAboutWallet, swarm: Golden.swarmAddress
    )
    .replacingOccurrences(of: DeriveVaultMetaTests.walletTwo, with: wrong)
    .replacingOccurrences(of: "\"userKnowsPassword\": false", with: "\"userKnowsPassword\": true")
    try desktop.write(toFile: meta, atomically: false, encoding: .utf8)
    let run = try fixture.run([
      "export", "freedom", "--user-data", userData, "--vault-password-file", password,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      text(meta) == desktop.replacingOccurrences(of: wrong, with: DeriveVaultMetaTests.walletTwo))
    #expect(run.stdout.contains("(derivedWallets[1].address)"))

    // legal winner…'s file in abandon…about's installation: replaced whole, kept aside.
    let others = Self.desktopMeta(
      wallet: "0x58a57ed9d8d624cbd12e2c467d34787555bb1b25",
      swarm: Golden.otherSwarmAddress)
    try others.write(toFile: meta, atomically: false, encoding: .utf8)
    let replaced = try fixture.run([
      "export", "freedom", "--user-data", userData, "--vault-password-file", password,
    ])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let written = try #require(text(meta))
    #expect(!written.contains("derivedWallets"))
    #expect(written.contains(Golden.swarmAddress))
  }
}

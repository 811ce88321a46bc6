import CryptoPrimitives
import Testing

@testable import FreedomNodes
@testable import VaultKeys

@Suite struct DesktopVaultMetaProfileTests {
  private let profile: FreedomProfile = {
    let phrase =
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
      + "about"
    // abandon … about is a valid phrase: these cannot fail.
    return try! FreedomProfile(mnemonic: try! Mnemonic(phrase: SecureBytes(utf8: phrase)))
  }()

  private func meta(_ json: String) throws -> DesktopVaultMeta {
    try DesktopVaultMeta(json: Array(json.utf8))
  }

  @Test func storedAddressesComparedInAnyCase() throws {
    let checks = try meta(
      """
      {"addresses": {"userWallet": "0x9858effd232b4033e47d90003d41ec34ecaeda94",
                     "beeWallet": "not an address"}}
      """
    ).addressChecks(profile)
    #expect(
      checks.userWallet
        == .init(stored: "0x9858effd232b4033e47d90003d41ec34ecaeda94", matches: true))
    #expect(checks.beeWallet == .init(stored: "not an address", matches: false))
    let none = try meta("{}").addressChecks(profile)
    #expect(none.userWallet == nil && none.beeWallet == nil)
  }

  @Test func walletsDerivedAtTheirOwnIndexesDevicesKeptWithoutKey() throws {
    let checks = try meta(
      """
      {"derivedWallets": [
        {"index": 0, "name": "Main Wallet"},
        {"index": 2, "address": "0x07B5FdfEB4E11826D233403Fe8Db0611CCF4c231"},
        {"index": 3, "address": "0x0000000000000000000000000000000000000001"},
        {"index": 1000000, "address": "0x07B5FdfEB4E11826D233403Fe8Db0611CCF4c231",
         "type": "ledger"}]}
      """
    ).walletChecks(profile)
    #expect(checks.map(\.wallet.index) == [0, 2, 3, 1_000_000])
    #expect(
      checks.map(\.account?.path.description) == [
        "m/44'/60'/0'/0/0", "m/44'/60'/2'/0/0", "m/44'/60'/3'/0/0", nil,
      ])
    #expect(checks.map(\.matches) == [nil, true, false, nil])
  }

  @Test func theImplicitMainWalletIsChecked() throws {
    let checks = try meta(
      "{\"addresses\": {\"userWallet\": \"0x9858EfFD232B4033E47d90003D41EC34EcaEda94\"}}"
    ).walletChecks(profile)
    #expect(checks.count == 1)
    #expect(checks.first?.wallet.name == "Main Wallet")
    #expect(checks.first?.matches == true)
  }
}

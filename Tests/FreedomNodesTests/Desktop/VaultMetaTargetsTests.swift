import CryptoPrimitives
import FreedomNodes
import Testing
import VaultKeys

@testable import Recovery

/// recover's targets from vault-meta.json, read by the file's one reader with its one rule for
/// device indexes.
@Suite struct VaultMetaTargetsTests {
  static let wallet = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
  static let swarm = "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"

  func targets(_ json: String) throws -> [RecoveryTarget] {
    try DesktopVaultMeta(json: Array(json.utf8)).recoveryTargets()
  }

  @Test func addressesAndDerivableWallets() throws {
    let found = try targets(
      """
      {"addresses": {"userWallet": "\(Self.wallet)", "beeWallet": "\(Self.swarm)"},
       "derivedWallets": [{"index": 0, "address": "\(Self.wallet)"},
         {"index": 2, "address": "0x0000000000000000000000000000000000000001"},
         {"index": 1000000, "type": "ledger", "address": "0x0000000000000000000000000000000000000002"},
         {"index": 1000004, "address": "0x0000000000000000000000000000000000000003"}]}
      """)
    let user = try EthereumAddress(Self.wallet)
    #expect(
      found == [
        .address(user, of: .wallet(0)), .address(try EthereumAddress(Self.swarm), of: .swarm),
        .address(try EthereumAddress("0x0000000000000000000000000000000000000001"), of: .wallet(2)),
      ])
  }

  /// An untyped wallet in the device range is no key of the mnemonic for desktop, so none for
  /// recover either (the second reader once searched m/44'/60'/1000004'/0/0 for it).
  @Test func aWalletInTheDeviceRangeIsNoTarget() throws {
    #expect(throws: DesktopVaultMetaTargetError.noAddresses) {
      try targets(
        """
        {"derivedWallets": [{"index": 1000004, "address": "\(Self.wallet)"}]}
        """)
    }
    #expect(throws: DesktopVaultMetaTargetError.notAnAddress("addresses.beeWallet")) {
      try targets("{\"addresses\": {\"beeWallet\": \"0x12\"}}")
    }
  }
}

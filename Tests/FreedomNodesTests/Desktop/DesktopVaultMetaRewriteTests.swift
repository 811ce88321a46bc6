import CryptoPrimitives
import Testing

@testable import FreedomNodes
@testable import VaultKeys

/// vault-meta.json written again for its own mnemonic: every member that still holds kept byte
/// for byte, only what no longer holds changed; another mnemonic's file is not kept.
@Suite struct DesktopVaultMetaRewriteTests {
  private let profile: FreedomProfile = {
    let phrase =
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
      + "about"
    // abandon … about is a valid phrase: these cannot fail.
    return try! FreedomProfile(mnemonic: try! Mnemonic(phrase: SecureBytes(utf8: phrase)))
  }()
  static let wallet = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
  static let swarm = "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"
  /// m/44'/60'/2'/0/0 of abandon … about.
  static let walletTwo = "0x07B5FdfEB4E11826D233403Fe8Db0611CCF4c231"

  private func rewrite(_ json: String, vaultOpened: Bool = false) throws -> (String, [String])? {
    try DesktopVaultMeta(json: Array(json.utf8)).keepingMembers(
      for: profile, vaultOpened: vaultOpened
    ).map { (String(decoding: $0.json, as: UTF8.self), $0.changes) }
  }

  @Test func aFileThatHoldsIsKeptByteForByte() throws {
    // Compact, members in desktop's order, a Safe, unknown members and a repeated name.
    let json = """
      {"userKnowsPassword":true,"createdAt":"x","addresses":{"userWallet":"\(Self.wallet)",\
      "beeWallet":"\(Self.swarm.lowercased())"},"derivedWallets":[{"index":0,"name":"Main"},\
      {"index":2,"name":"Savings","address":"\(Self.walletTwo)"},{"index":1000000,"type":"safe",\
      "address":"0x01","owners":[0,2],"threshold":1,"saltNonce":"7"}],"activeWalletIndex":2,\
      "x":{"y":[null]}}
      """
    let kept = try #require(try rewrite(json))
    #expect(kept.0 == json)
    #expect(kept.1.isEmpty)
  }

  @Test func onlyWhatNoLongerHoldsIsChanged() throws {
    let json = """
      {
        "userKnowsPassword": false,
        "derivedWallets": [
          {
            "index": 2,
            "address": "0x0000000000000000000000000000000000000001"
          },
          {
            "index": 1000004,
            "address": "0x0000000000000000000000000000000000000002"
          }
        ],
        "activeWalletIndex": 1000004
      }
      """
    // Nothing says whose file it is but the vault the password opened.
    #expect(try rewrite(json) == nil)
    let kept = try #require(try rewrite(json, vaultOpened: true))
    #expect(kept.1 == ["userKnowsPassword", "derivedWallets[0].address", "addresses"])
    #expect(
      kept.0 == """
        {
          "userKnowsPassword": true,
          "derivedWallets": [
            {
              "index": 2,
              "address": "\(Self.walletTwo)"
            },
            {
              "index": 1000004,
              "address": "0x0000000000000000000000000000000000000002"
            }
          ],
          "activeWalletIndex": 1000004,
          "addresses": {
            "userWallet": "\(Self.wallet)",
            "beeWallet": "\(Self.swarm)"
          }
        }
        """)
    // An address member missing or null in the object is added or set, in its indentation.
    let partial = try #require(
      try rewrite(
        """
        {
          "addresses": {
            "userWallet": null
          }
        }
        """, vaultOpened: true))
    #expect(partial.1 == ["addresses.userWallet", "addresses.beeWallet"])
    #expect(
      partial.0 == """
        {
          "addresses": {
            "userWallet": "\(Self.wallet)",
            "beeWallet": "\(Self.swarm)"
          }
        }
        """)
  }

  @Test func anotherMnemonicsFileIsNotKept() throws {
    for addresses in [
      "\"userWallet\": \"\(Self.walletTwo)\"", "\"beeWallet\": \"\(Self.wallet)\"",
      "\"userWallet\": \"\(Self.wallet)\", \"beeWallet\": \"not an address\"",
    ] {
      #expect(try rewrite("{\"addresses\": {\(addresses)}}", vaultOpened: true) == nil)
    }
  }

  /// Desktop derives no key at a device index whatever the record says (HARDWARE_INDEX_BASE):
  /// one rule for every reader.
  @Test func deviceIndexesAreOneRule() throws {
    let meta = try DesktopVaultMeta(
      json: Array(
        """
        {"derivedWallets": [{"index": 1000004}, {"index": 999999}, {"index": -1},
          {"index": 3, "type": "ledger"}, {"index": 2.0}]}
        """.utf8))
    #expect(meta.wallets.map(\.isDerivable) == [false, true, false, false, true])
    #expect(meta.wallets.last?.index == 2)
    #expect(DesktopVaultMeta.isDeviceIndex(1_000_000) && !DesktopVaultMeta.isDeviceIndex(0))
  }

  /// The package's JSON reader, as desktop's JSON.parse reads it: the last of a repeated member
  /// wins; null is a member left out; a wrong type is named by its path.
  @Test func readAsDesktopReadsIt() throws {
    let meta = try DesktopVaultMeta(
      json: Array(
        """
        {"activeWalletIndex": 1, "activeWalletIndex": 2, "createdAt": null,
         "addresses": {"userWallet": "a", "beeWallet": null}}
        """.utf8))
    #expect(meta.activeWalletIndex == 2)
    #expect(meta.createdAt == nil && meta.beeWalletAddress == nil)
    #expect(meta.userWalletAddress == "a")
    for (json, reason) in [
      ("{\"userKnowsPassword\": 1}", "'userKnowsPassword' has the wrong type"),
      ("{\"addresses\": {\"beeWallet\": 5}}", "'addresses.beeWallet' has the wrong type"),
      ("{\"derivedWallets\": [{\"index\": 1.5}]}", "'derivedWallets[0].index' has the wrong type"),
      ("{\"derivedWallets\": [7]}", "'derivedWallets[0]' has the wrong type"),
      ("{\"derivedWallets\": {}}", "'derivedWallets' has the wrong type"),
      ("[]", "the top level is not an object"),
    ] {
      #expect(throws: DesktopVaultMetaError.invalid(reason)) {
        try DesktopVaultMeta(json: Array(json.utf8))
      }
    }
  }
}

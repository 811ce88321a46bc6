import CryptoPrimitives
import Testing

@testable import FreedomNodes
@testable import VaultKeys

/// abandon … about, whose wallet and Swarm wallet every implementation agrees on.
private let phrase =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
private let walletAddress = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
private let swarmAddress = "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"
private let walletTwo = "0x07B5FdfEB4E11826D233403Fe8Db0611CCF4c231"

private func mnemonicAndSeed() throws -> (Mnemonic, SecureBytes) {
  let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: phrase))
  return (mnemonic, mnemonic.seed(passphrase: SecureBytes(count: 0) { _ in }))
}

private func member(_ object: JSONObject, _ path: String...) -> JSONValue? {
  var value: JSONValue = .object(object)
  for key in path {
    guard case .object(let inner) = value,
      let next = inner.members.first(where: { $0.key == key })?.value
    else { return nil }
    value = next
  }
  return value
}

@Suite struct ProfileReportTests {
  @Test func profileWithoutSecrets() throws {
    let (mnemonic, seed) = try mnemonicAndSeed()
    let report = try ProfileReport(mnemonic: mnemonic, seed: seed, options: .init())
    #expect(
      report.json.members.map(\.key) == ["mnemonic", "wallet", "swarm", "ipfs", "radicle"])
    #expect(member(report.json, "mnemonic", "words") == .number(12))
    #expect(member(report.json, "wallet", "address") == .string(walletAddress))
    #expect(member(report.json, "swarm", "address") == .string(swarmAddress))
    #expect(member(report.json, "swarm", "networkId") == .number(1))
    #expect(member(report.json, "wallet", "privateKey") == nil)
    #expect(member(report.json, "seed") == nil)
    #expect(
      member(report.json, "ipfs", "peerId")
        == .string("12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW"))
    #expect(report.text.rendered.hasPrefix("Mnemonic\n  Language          english\n"))
    #expect(report.text.rendered.contains("\nWallet\n  Path              m/44'/60'/0'/0/0\n"))
    #expect(!report.text.rendered.contains("Private key"))
  }

  @Test func secretsWalletsAndPublishersWhenAsked() throws {
    let (mnemonic, seed) = try mnemonicAndSeed()
    var options = ProfileReport.Options()
    options.includesSecrets = true
    options.walletCount = 3
    options.publisherCount = 1
    let report = try ProfileReport(mnemonic: mnemonic, seed: seed, options: options)
    #expect(member(report.json, "seed") == .string(seed.revealHex()))
    #expect(member(report.json, "wallet", "privateKey") != nil)
    guard case .array(let wallets) = member(report.json, "wallets"),
      case .object(let third) = wallets.last
    else {
      Issue.record("no wallets")
      return
    }
    #expect(wallets.count == 3)
    #expect(third.members.first?.key == "index")
    #expect(member(third, "address") == .string(walletTwo))
    #expect(report.text.rendered.contains("\nWallet 2\n  Path "))
    #expect(
      report.text.rendered.contains("\nPublisher 0\n  Path              m/44'/73406'/0'/0/0\n"))
  }

  @Test func singleKeyOnEitherCurve() throws {
    let (_, seed) = try mnemonicAndSeed()
    let path = try DerivationPath("m/44'/60'/0'/0/0")
    let key = try ProfileReport(
      path: path, curve: .secp256k1, seed: seed, includesSecrets: false,
      includesExtendedPublicKey: true)
    #expect(
      key.json.members.map(\.key) == ["path", "curve", "publicKey", "address", "xpub"])
    // The xpub only when asked: with any one child's private key it yields every sibling's.
    let plain = try ProfileReport(path: path, curve: .secp256k1, seed: seed, includesSecrets: true)
    #expect(
      plain.json.members.map(\.key) == ["path", "curve", "publicKey", "address", "privateKey"])
    #expect(member(key.json, "address") == .string(walletAddress))
    #expect(key.text.rendered.hasPrefix("Path        m/44'/60'/0'/0/0\nCurve       secp256k1\n"))

    let hardened = try DerivationPath("m/44'/73405'/0'/0'/0'")
    let ed = try ProfileReport(path: hardened, curve: .ed25519, seed: seed, includesSecrets: true)
    #expect(ed.json.members.map(\.key) == ["path", "curve", "publicKey", "peerId", "privateKey"])
    #expect(
      member(ed.json, "peerId") == .string("12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW"))
  }

  @Test func vaultMetaWalletsComparedAtTheirIndexes() throws {
    let (mnemonic, seed) = try mnemonicAndSeed()
    let meta = try DesktopVaultMeta(
      json: Array(
        """
        {"addresses": {"userWallet": "\(walletAddress)", "beeWallet": "0x01"},
         "derivedWallets": [
           {"index": 2, "name": "Savings", "address": "\(walletTwo)"},
           {"index": 1000000, "name": "Ledger", "address": "0xaa", "type": "ledger"}]}
        """.utf8))
    var options = ProfileReport.Options()
    options.vaultMeta = ("/x/vault-meta.json", meta)
    let report = try ProfileReport(mnemonic: mnemonic, seed: seed, options: options)
    #expect(member(report.json, "vaultMeta", "path") == .string("/x/vault-meta.json"))
    #expect(member(report.json, "vaultMeta", "userWallet", "matches") == .bool(true))
    #expect(member(report.json, "vaultMeta", "beeWallet", "matches") == .bool(false))
    let text = report.text.rendered
    #expect(text.contains("\nVault wallet 2 \"Savings\"\n"))
    #expect(text.contains("  Stored            \(walletTwo) (matches)\n"))
    #expect(text.contains("  Key               not in the mnemonic (device account); skipped\n"))
  }

  @Test func experimentalKeysShowOnlyPathsWithoutSecrets() throws {
    let (mnemonic, seed) = try mnemonicAndSeed()
    var options = ProfileReport.Options()
    options.experimental = ExperimentalAccount.Selection(
      railgunIndexes: [0, 5], ppv2Indexes: [1],
      railgunProfile: ExperimentalAccount.RailgunProfile(id: "a", userDataDirectory: "/u"))
    var report = try ProfileReport(mnemonic: mnemonic, seed: seed, options: options)
    guard case .array(let accounts) = member(report.json, "experimental", "railgun", "accounts"),
      case .object(let second) = accounts.last
    else {
      Issue.record("no Railgun accounts")
      return
    }
    #expect(second.members.map(\.key) == ["index", "spendingPath", "viewingPath"])
    #expect(member(second, "spendingPath") == .string("m/44'/1984'/0'/0'/5'"))
    #expect(report.text.rendered.contains("\nRailgun 5\n  Spending path "))
    #expect(report.text.rendered.contains("\nPPv2 1\n  Path              m/28784'/2'/1'\n"))

    options.includesSecrets = true
    report = try ProfileReport(mnemonic: mnemonic, seed: seed, options: options)
    guard case .array(let withKeys) = member(report.json, "experimental", "railgun", "accounts"),
      case .object(let first) = withKeys.first
    else {
      Issue.record("no Railgun accounts")
      return
    }
    #expect(
      first.members.map(\.key)
        == ["index", "spendingPath", "viewingPath", "spendingKey", "viewingKey", "storageRoot"])
  }

  @Test func accountIndexLists() throws {
    #expect(try ExperimentalAccount.indexes("5,0-2,1", limit: 10) == [0, 1, 2, 5])
    #expect(try ExperimentalAccount.indexes("65535", limit: 1) == [65535])
    for invalid in ["", "1,", "a", "3-1", "1-2-3", "65536", "+1", "000001"] {
      #expect(throws: ExperimentalAccount.IndexListError.invalid) {
        try ExperimentalAccount.indexes(invalid, limit: 1000)
      }
    }
    #expect(throws: ExperimentalAccount.IndexListError.tooMany(limit: 3)) {
      try ExperimentalAccount.indexes("0-3", limit: 3)
    }
    #expect(throws: ExperimentalAccount.IndexListError.tooMany(limit: 3)) {
      try ExperimentalAccount.indexes("0-1,5,9", limit: 3)
    }
  }
}

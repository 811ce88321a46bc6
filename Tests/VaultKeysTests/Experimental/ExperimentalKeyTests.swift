import CryptoPrimitives
import Testing
import VaultKeys

/// The rules of desktop Freedom's experimental keys that its published vectors do not pin down
/// (the vectors themselves are in Tests/GoldenVectors).
@Suite struct ExperimentalKeyTests {
  static let abandon = try! Mnemonic(
    phrase: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
      + "abandon about")

  @Test func railgunTreeDerivesHardenedChildrenOnly() throws {
    let master = try RailgunKeyNode(seed: Self.abandon.seed())
    #expect(
      throws: ExperimentalKeyError.nonHardened(position: 2, path: try DerivationPath("m/0'/1"))
    ) {
      try master.derive(DerivationPath("m/0'/1"))
    }
    // The empty path is the master node itself.
    #expect(try master.derive(DerivationPath("m")).privateKey == master.privateKey)
  }

  @Test func railgunTreeIsNotSLIP10Ed25519() throws {
    // Same chain, other master key: the keys must differ from SLIP-0010's at the same path.
    let seed = Self.abandon.seed()
    let path = try DerivationPath("m/44'/1984'/0'/0'/0'")
    let railgun = try RailgunKeyNode(seed: seed).derive(path).privateKey
    let slip10 = try SLIP10Ed25519Key(seed: seed).derive(path).privateKey.rawRepresentation
    #expect(railgun != slip10)
    #expect(railgun.count == 32)
  }

  @Test func desktopTakesSixtyFourByteSeedsOnly() {
    #expect(throws: ExperimentalKeyError.invalidSeedLength(32)) {
      try RailgunKeyNode(seed: SecureBytes([UInt8](repeating: 1, count: 32)))
    }
    #expect(throws: ExperimentalKeyError.invalidSeedLength(16)) {
      try RailgunStorageRoot.root(
        seed: SecureBytes([UInt8](repeating: 1, count: 16)), profileID: "00", accountIndex: 0)
    }
  }

  @Test func accountIndexesStopAt65535() throws {
    let seed = Self.abandon.seed()
    #expect(throws: ExperimentalKeyError.accountIndexOutOfRange(65536)) {
      try RailgunAccount(seed: seed, index: 65536)
    }
    #expect(throws: ExperimentalKeyError.accountIndexOutOfRange(65536)) {
      try RailgunStorageRoot.root(seed: seed, profileID: "00", accountIndex: 65536)
    }
    let profile = try FreedomProfile(seed: seed)
    #expect(throws: ExperimentalKeyError.accountIndexOutOfRange(70000)) {
      try KohakuPPv2Key(profile: profile, index: 70000)
    }
    #expect(try RailgunAccount(seed: seed, index: 65535).index == 65535)
  }

  /// desktop's profile id is `JSON.stringify([id, dir])` hashed: JavaScript escapes `"`, `\` and
  /// control characters and writes everything else, non-ASCII included, as UTF-8.
  @Test func profileIDHashesJavaScriptJSON() {
    let expected = Hex.encode(
      SHA256.hash(Array(#"["d\"e\\f","/home/zoë/Freedom\n\u0001"]"#.utf8)))
    #expect(
      RailgunStorageRoot.profileID(id: "d\"e\\f", userDataDirectory: "/home/zoë/Freedom\n\u{01}")
        == expected)
  }

  @Test func storageRootsDependOnProfileAndAccount() throws {
    let seed = Self.abandon.seed()
    let a = RailgunStorageRoot.profileID(
      id: "default", userDataDirectory: "/home/u/.config/Freedom")
    let b = RailgunStorageRoot.profileID(
      id: "work", userDataDirectory: "/home/u/.config/Freedom/Profiles/work")
    let roots = try [(a, 0), (a, 1), (b, 0)].map {
      try RailgunStorageRoot.root(seed: seed, profileID: $0.0, accountIndex: UInt32($0.1))
    }
    #expect(Set(roots.map { $0.revealHex() }).count == 3)
  }

  /// PPv2 keys of the published test mnemonics, computed with bip-utils' BIP-32
  /// (Bip32Slip10Secp256k1) at m/28784'/2'/i' — desktop publishes no PPv2 vector.
  @Test(
    arguments: [
      (
        0, "f51c0d4ec72fa479835ac396cfc9d9ef7208f47a025134a4fdae37e3231022f1",
        "0x329230845ba20a2A913eB4529E4C78B83a93EEA2"
      ),
      (
        65535, "cc873d661596ba19ba48666a786393161812fb5824488542d97a75788f6f98ac",
        "0xBF3f44E9454353aAE6de62d5ae62E7D376F4A029"
      ),
    ] as [(UInt32, String, String)])
  func ppv2Key(index: UInt32, privateKey: String, address: String) throws {
    let key = try KohakuPPv2Key(profile: try FreedomProfile(mnemonic: Self.abandon), index: index)
    #expect(key.account.path.description == "m/28784'/2'/\(index)'")
    #expect(key.account.privateKey.rawRepresentation.revealHex() == privateKey)
    #expect(key.account.address.checksummed == address)
  }

  @Test func descriptionsHideTheKeys() throws {
    let account = try RailgunAccount(seed: Self.abandon.seed(), index: 3)
    #expect(!String(describing: account).contains(account.spendingKey.revealHex()))
    #expect(String(describing: account) == "RailgunAccount(index: 3, redacted)")
  }
}

import CryptoPrimitives
import Foundation
import FreedomNodes
import Testing
import VaultKeys

/// Writing vaults as desktop Freedom's vault.js does, checked against the fixture that Node's
/// WebCrypto decrypts and `JSON.stringify` re-serialises identically.
@Suite struct DesktopVaultWriteTests {
  static let password = SecureBytes(utf8: DesktopVaultTests.password)
  static let abandonAbout = DesktopVaultTests.abandonAbout.joined(separator: " ")
  static let newYear = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z

  private static func fixtureFields() throws -> (salt: [UInt8], iv: [UInt8], bytes: [UInt8]) {
    let bytes = try DesktopVaultTests.fixture("abandon-about")
    let outer = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    let encrypted = try #require(outer["encrypted"] as? String)
    let inner = try #require(
      try JSONSerialization.jsonObject(with: Data(encrypted.utf8)) as? [String: Any])
    let saltText = try #require(inner["salt"] as? String)
    let ivText = try #require(inner["iv"] as? String)
    let salt = try #require(Data(base64Encoded: saltText))
    let iv = try #require(Data(base64Encoded: ivText))
    return (Array(salt), Array(iv), bytes)
  }

  @Test func reproducesTheFixtureByteForByte() throws {
    let fixture = try Self.fixtureFields()
    let written = try DesktopVault.encrypt(
      mnemonic: SecureBytes(utf8: Self.abandonAbout), password: Self.password,
      createdAt: Self.newYear, iterations: DesktopVault.desktopIterations, salt: fixture.salt,
      iv: fixture.iv)
    #expect(
      String(decoding: written, as: UTF8.self) == String(decoding: fixture.bytes, as: UTF8.self))
    #expect(written.last == UInt8(ascii: "}"), "vault.js writes no final newline")
  }

  @Test func aFreshVaultOpensWithItsPasswordOnly() throws {
    let written = try DesktopVault.encrypt(
      mnemonic: SecureBytes(utf8: Self.abandonAbout), password: Self.password, iterations: 2)
    let vault = try DesktopVault(json: written)
    #expect(vault.iterations == 2)
    let opened = try vault.decryptMnemonic(password: Self.password)
    #expect(opened == SecureBytes(utf8: Self.abandonAbout))
    #expect(throws: DesktopVaultError.incorrectPassword) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: "correct horse battery stapler"))
    }
    // Two vaults of the same phrase never share salt, IV or ciphertext.
    let again = try DesktopVault.encrypt(
      mnemonic: SecureBytes(utf8: Self.abandonAbout), password: Self.password, iterations: 2)
    #expect(again != written)
  }

  @Test func createdAtIsJavaScriptsISOString() {
    #expect(DesktopVault.isoTimestamp(Self.newYear) == "2025-01-01T00:00:00.000Z")
    #expect(
      DesktopVault.isoTimestamp(Date(timeIntervalSince1970: 1_764_576_763.25))
        == "2025-12-01T08:12:43.250Z")
    // JavaScript's own outputs: new Date(ms).toISOString() for these ms.
    #expect(DesktopVault.isoTimestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    #expect(
      DesktopVault.isoTimestamp(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
    #expect(
      DesktopVault.isoTimestamp(Date(timeIntervalSince1970: 951_782_400))
        == "2000-02-29T00:00:00.000Z")
    #expect(
      DesktopVault.isoTimestamp(Date(timeIntervalSince1970: 253_402_300_800))
        == "+010000-01-01T00:00:00.000Z")
    #expect(
      DesktopVault.isoTimestamp(Date(timeIntervalSince1970: -62_198_755_200))
        == "-000001-01-01T00:00:00.000Z")
  }

  /// The hand-written formatter against Foundation's ISO8601DateFormatter (which the earlier
  /// implementation used) over dates from 1900 to 2200, each 0.3 ms past a whole millisecond
  /// so that both round down to the same one.
  @Test func createdAtAgreesWithFoundationsFormatter() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let milliseconds = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
      let date = Date(timeIntervalSince1970: (Double(milliseconds) + 0.3) / 1000)
      #expect(DesktopVault.isoTimestamp(date) == formatter.string(from: date), "\(milliseconds) ms")
    }
  }

  @Test func passwordsNeedEightJavaScriptCharacters() throws {
    #expect(throws: DesktopVaultEncryptionError.passwordTooShort(7)) {
      try DesktopVault.encrypt(
        mnemonic: SecureBytes(utf8: Self.abandonAbout), password: SecureBytes(utf8: "1234567"),
        iterations: 1)
    }
    // Four emoji are eight UTF-16 code units: JavaScript's length, which desktop checks.
    let emoji = SecureBytes(utf8: "🔑🔑🔑🔑")
    #expect(DesktopVault.javaScriptLength(emoji) == 8)
    _ = try DesktopVault.encrypt(
      mnemonic: SecureBytes(utf8: Self.abandonAbout), password: emoji, iterations: 1)
    #expect(DesktopVault.javaScriptLength(SecureBytes([0xFF, 0x41])) == nil)
    #expect(throws: DesktopVaultEncryptionError.passwordNotUTF8) {
      try DesktopVault.encrypt(
        mnemonic: SecureBytes(utf8: Self.abandonAbout),
        password: SecureBytes([0xFF] + Array("12345678".utf8)),
        iterations: 1)
    }
  }
}

@Suite struct DesktopVaultMetaTests {
  static let abandonWallet = try! EthereumAddress("0x9858EfFD232B4033E47d90003D41EC34EcaEda94")
  static let abandonSwarm = try! EthereumAddress("0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0")

  @Test func importedFileIsWhatDesktopWrites() {
    let written = DesktopVaultMeta.importedJSON(
      userWallet: Self.abandonWallet, beeWallet: Self.abandonSwarm,
      createdAt: DesktopVaultWriteTests.newYear)
    let expected = """
      {
        "userKnowsPassword": true,
        "createdAt": "2025-01-01T00:00:00.000Z",
        "addresses": {
          "userWallet": "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
          "beeWallet": "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"
        }
      }
      """
    #expect(String(decoding: written, as: UTF8.self) == expected)
    let read = try? DesktopVaultMeta(json: written)
    #expect(read?.userWalletAddress == Self.abandonWallet.checksummed)
    #expect(read?.derivedWallets == nil)
    #expect(
      read?.wallets == [
        .init(
          index: 0, name: "Main Wallet", address: Self.abandonWallet.checksummed, type: .mnemonic)
      ])
  }

  @Test func walletsWithTypesAndDeviceAccounts() throws {
    let json = """
      {"userKnowsPassword":false,"createdAt":"x","addresses":{"userWallet":"0xA","beeWallet":"0xB"},
       "derivedWallets":[{"index":0,"name":"Main Wallet","address":"0xA"},
         {"index":2,"name":"Savings","address":"0xC","type":"mnemonic"},
         {"index":1000000,"name":"Ledger 1","address":"0xD","type":"ledger","path":"44'/60'/0'/0/0"},
         {"index":1000001,"name":"Phone 1","address":"0xE","type":"remote"},
         {"index":1000002,"name":"Safe 1","address":"0xF","type":"safe","owners":[0,1000000]},
         {"index":1000003,"name":"Odd","type":"future"},
         {"index":1000004,"name":"Untyped high"}],
       "activeWalletIndex":2,"nextHardwareWalletIndex":1000005}
      """
    let meta = try DesktopVaultMeta(json: Array(json.utf8))
    #expect(meta.userKnowsPassword == false)
    #expect(meta.activeWalletIndex == 2)
    let wallets = try #require(meta.derivedWallets)
    #expect(wallets.map(\.index) == [0, 2, 1_000_000, 1_000_001, 1_000_002, 1_000_003, 1_000_004])
    #expect(
      wallets.map(\.type) == [
        .mnemonic, .mnemonic, .ledger, .remote, .safe, .other("future"), .mnemonic,
      ])
    #expect(wallets.map(\.isDerivable) == [true, true, false, false, false, false, false])
  }

  @Test func wrongShapesAreNamed() {
    #expect(throws: DesktopVaultMetaError.invalid("'derivedWallets[0].index' has the wrong type")) {
      try DesktopVaultMeta(json: Array("{\"derivedWallets\":[{\"index\":\"0\"}]}".utf8))
    }
    #expect(throws: DesktopVaultMetaError.invalid("missing 'derivedWallets[0].index'")) {
      try DesktopVaultMeta(json: Array("{\"derivedWallets\":[{\"name\":\"x\"}]}".utf8))
    }
    #expect(throws: DesktopVaultMetaError.self) { try DesktopVaultMeta(json: Array("[]".utf8)) }
  }
}

@Suite struct DesktopProfileSlotTests {
  /// profile.json's slot as desktop reads it (JSON.parse, Number.isInteger): see
  /// DesktopProfileMetadataTests for every case.
  @Test func profileSlotIsReadAsDesktopReadsIt() {
    func slot(_ text: String) -> Int? { DesktopProfileMetadata.slot(json: Array(text.utf8)) }
    #expect(slot(#"{"slot": 2, "ports": {"bee": 1633}}"#) == 2)
    #expect(slot(#"{"name": "default", "slot": 0}"#) == 0)
    #expect(slot(#"{"slot": -1}"#) == -1)
    #expect(slot(#"{"slot": 1.5}"#) == nil)
    #expect(slot(#"{"slot": "1"}"#) == nil)
    #expect(slot(#"{"slot": 1, "slot": 2}"#) == 2)
    #expect(slot(#"{"Slot": 1}"#) == nil)
    #expect(slot("not json") == nil)
  }

}

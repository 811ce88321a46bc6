import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

/// MetaMask's vaults: the fixtures of Vectors/metamask (scripts/make-metamask-fixtures.py, sealed
/// by Python's `cryptography`, an implementation independent of ours) and the sample that
/// @metamask/browser-passworder's own tests keep from its version 2.0.3.
@Suite struct MetaMaskVaultTests {
  static let password = "MetaMask test password 1"
  static let abandonAbout = (Array(repeating: "abandon", count: 11) + ["about"])
    .joined(separator: " ")
  static let legalWinner =
    "legal winner thank year wave sausage worth useful legal winner thank yellow"

  /// The vault string, the controller's state and the extension storage around one vault: each
  /// opens to the phrase stored as its UTF-8 bytes.
  @Test(arguments: ["vault-600k-bytes", "state-600k", "storage-600k"])
  func currentVaultInEveryShape(name: String) throws {
    let vault = try MetaMaskVault(json: Self.fixture(name))
    #expect(vault.iterations == 600_000)
    let mnemonic = try vault.decryptMnemonic(password: SecureBytes(utf8: Self.password))
    #expect(Self.text(mnemonic) == Self.abandonAbout)
  }

  /// A vault of browser-passworder before 4.2: no keyMetadata, 10,000 iterations, the phrase
  /// as text in the HD keyring that follows an imported key.
  @Test func legacyVaultSkipsTheImportedKeyring() throws {
    let vault = try MetaMaskVault(json: Self.fixture("legacy-text"))
    #expect(vault.iterations == 10_000)
    let mnemonic = try vault.decryptMnemonic(password: SecureBytes(utf8: Self.password))
    #expect(Self.text(mnemonic) == Self.legalWinner)
  }

  @Test(arguments: ["", "metamask test password 1", "MetaMask test password 1\n"])
  func wrongPasswordIsIncorrectPassword(password: String) throws {
    let vault = try MetaMaskVault(json: Self.fixture("legacy-text"))
    let error = #expect(throws: MetaMaskVaultError.self) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: password))
    }
    #expect(error == .incorrectPassword)
    #expect(error?.description == "incorrect MetaMask password")
  }

  @Test func importedKeysOnlyHoldNoPhrase() throws {
    let vault = try MetaMaskVault(json: Self.fixture("imported-only"))
    let error = #expect(throws: MetaMaskVaultError.self) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: Self.password))
    }
    #expect(error == .noMnemonic)
  }

  /// browser-passworder's own sample (`{foo: 'data to encrypt'}` under "a sample passw0rd",
  /// 10,000 iterations): our key derivation and cipher open what its WebCrypto sealed (no
  /// phrase inside), and refuse a wrong password.
  @Test func browserPassworderSampleOpens() throws {
    let sample = """
      {"data":"bfCvija6QfwqARmHsKT7ZR0GHi8yjz7iVEZodRVx3xI2yzFHwq7+B/U=",\
      "iv":"N9s46G5sp37A7wtf3vo/LA==","salt":"+uzzUKmbAdwkjw8rILhJvZE9dOfz2ecF5Gtf7yNkyyE="}
      """
    let vault = try MetaMaskVault(json: Array(sample.utf8))
    #expect(vault.iterations == 10_000)
    let opened = #expect(throws: MetaMaskVaultError.self) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: "a sample passw0rd"))
    }
    #expect(opened == .noMnemonic)
    let wrong = #expect(throws: MetaMaskVaultError.self) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: "a wrong password"))
    }
    #expect(wrong == .incorrectPassword)
  }

  /// The phrase may be stored as text, as bytes or as Node's serialised Buffer; anything else
  /// (a number out of byte range, an empty phrase) holds none.
  @Test(
    arguments: [
      (#""abandon""#, "abandon"), ("[97,98]", "ab"), (#"{"type":"Buffer","data":[97]}"#, "a"),
      ("[256]", nil), ("[]", nil), (#""""#, nil), ("7", nil),
    ] as [(String, String?)])
  func mnemonicEncodings(stored: String, phrase: String?) throws {
    let keyrings = #"[{"type":"HD Key Tree","data":{"mnemonic":\#(stored)}}]"#
    let vault = try MetaMaskVault(json: Self.seal(keyrings))
    if let phrase {
      let mnemonic = try vault.decryptMnemonic(password: SecureBytes(utf8: "pw"))
      #expect(Self.text(mnemonic) == phrase)
    } else {
      #expect(throws: MetaMaskVaultError.noMnemonic) {
        try vault.decryptMnemonic(password: SecureBytes(utf8: "pw"))
      }
    }
  }

  @Test(arguments: [
    (
      "not json",
      "the file is not a MetaMask vault: not valid JSON (invalid JSON at byte 0: expected a value)"
    ),
    ("[1]", "the file is not a MetaMask vault: the content is an array, not a vault"),
    (
      #"{"KeyringController":{}}"#,
      "the file is not a MetaMask vault: missing 'KeyringController.vault'"
    ),
    (
      #"{"version":1,"encrypted":"{}"}"#,
      "the file is not a MetaMask vault: the content holds neither a vault ('data', 'iv', 'salt') nor 'KeyringController'"
    ),
    (
      #"{"KeyringController":{"vault":"{\"data\":\"AAAA\",\"iv\":\"AAAA\"}"}}"#,
      "the file is not a MetaMask vault: missing 'KeyringController.vault.salt'"
    ),
    (
      #"{"data":"AA==","iv":"AA==","salt":"AA==","keyMetadata":{"algorithm":"scrypt"}}"#,
      "unsupported vault key derivation 'scrypt' — MetaMask's vaults use PBKDF2"
    ),
  ])
  func refusals(json: String, message: String) {
    let error = #expect(throws: MetaMaskVaultError.self) {
      try MetaMaskVault(json: Array(json.utf8))
    }
    #expect(error?.description == message)
  }

  /// A desktop Freedom vault is not read as MetaMask's, nor the reverse.
  @Test func theTwoVaultsAreToldApart() throws {
    #expect(throws: MetaMaskVaultError.self) {
      try MetaMaskVault(json: DesktopVaultTests.fixture("abandon-about"))
    }
    #expect(throws: DesktopVaultError.self) {
      try DesktopVault(json: Self.fixture("vault-600k-bytes"))
    }
  }

  // MARK: Helpers

  static func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors/metamask"))
    return Array(try Data(contentsOf: url))
  }

  /// `keyrings` sealed under "pw" with one PBKDF2 iteration, as browser-passworder would.
  static func seal(_ keyrings: String) throws -> [UInt8] {
    let salt = [UInt8](repeating: 7, count: 32)
    let iv = [UInt8](repeating: 9, count: 16)
    let key = PBKDF2.hmacSHA256(
      password: SecureBytes(utf8: "pw"), salt: salt, iterations: 1, keyByteCount: 32)
    let sealed = try AES.gcm256Seal(key: key, iv: iv, plaintext: SecureBytes(utf8: keyrings))
    let data = Data(sealed).base64EncodedString()
    let vault = """
      {"data":"\(data)","iv":"\(Data(iv).base64EncodedString())",\
      "keyMetadata":{"algorithm":"PBKDF2","params":{"iterations":1}},\
      "salt":"\(Data(salt).base64EncodedString())"}
      """
    return Array(vault.utf8)
  }

  static func text(_ secret: SecureBytes) -> String {
    secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}

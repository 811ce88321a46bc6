import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

/// Vaults of Vectors/vaults (written by scripts/make-vault-fixtures.py, cross-checked with
/// Node's WebCrypto) and vaults built here with one PBKDF2 iteration for the edge cases.
@Suite struct DesktopVaultTests {
  static let password = "correct horse battery staple"
  static let abandonAbout = Array(repeating: "abandon", count: 11) + ["about"]
  static let abandonArt = Array(repeating: "abandon", count: 23) + ["art"]

  // MARK: Fixtures

  @Test func abandonAboutOpensWithItsPassword() throws {
    let vault = try DesktopVault(json: Self.fixture("abandon-about"))
    #expect(vault.version == 1)
    #expect(vault.iterations == 900_000)
    #expect(vault.createdAt == "2025-01-01T00:00:00.000Z")
    let mnemonic = try vault.decryptMnemonic(password: SecureBytes(utf8: Self.password))
    #expect(Self.text(mnemonic) == Self.abandonAbout.joined(separator: " "))
  }

  @Test func legacyVaultWithoutKeyMetadataUses10000Iterations() throws {
    let vault = try DesktopVault(json: Self.fixture("legacy-no-keymetadata"))
    #expect(vault.version == 1)
    #expect(vault.iterations == 10_000)
    #expect(vault.createdAt == "2025-01-01T00:00:00.000Z")
    let mnemonic = try vault.decryptMnemonic(password: SecureBytes(utf8: Self.password))
    #expect(Self.text(mnemonic) == Self.abandonArt.joined(separator: " "))
  }

  @Test(arguments: ["", "correct horse battery stapler", "Correct horse battery staple"])
  func wrongPasswordIsIncorrectPassword(password: String) throws {
    let vault = try DesktopVault(json: Self.fixture("legacy-no-keymetadata"))
    let error = #expect(throws: DesktopVaultError.self) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: password))
    }
    #expect(error == .incorrectPassword)
    #expect(error?.description == "incorrect vault password")
  }

  @Test func version2IsRefused() throws {
    let error = #expect(throws: DesktopVaultError.self) {
      try DesktopVault(json: Self.fixture("version-2"))
    }
    #expect(error == .unsupportedVersion(2))
    #expect(
      error?.description
        == "unsupported vault version 2 — this tool reads version 1 vaults written by desktop Freedom"
    )
  }

  @Test func scryptIsRefused() throws {
    let error = #expect(throws: DesktopVaultError.self) {
      try DesktopVault(json: Self.fixture("algorithm-scrypt"))
    }
    #expect(error == .unsupportedAlgorithm("scrypt"))
    #expect(
      error?.description
        == "unsupported vault key derivation 'scrypt' — this tool reads PBKDF2 vaults written by desktop Freedom"
    )
  }

  // MARK: Tampering: any altered byte reads as a wrong password

  enum Tamper: String, CaseIterable { case ciphertext, tag, iv, salt }

  @Test(arguments: Tamper.allCases)
  func tamperedVaultIsIncorrectPassword(_ tamper: Tamper) throws {
    let json = try Self.rewriteFixture("legacy-no-keymetadata") { payload in
      let field = tamper == .ciphertext || tamper == .tag ? "data" : tamper.rawValue
      var bytes = Array(Data(base64Encoded: payload[field] as! String)!)
      let index = tamper == .tag ? bytes.count - 1 : 0
      bytes[index] ^= 0x01
      payload[field] = Data(bytes).base64EncodedString()
    }
    let vault = try DesktopVault(json: json)
    let error = #expect(throws: DesktopVaultError.self) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: Self.password))
    }
    #expect(error == .incorrectPassword)
  }

  @Test func loweredIterationCountIsIncorrectPassword() throws {
    let json = try Self.rewriteFixture("legacy-no-keymetadata") { payload in
      payload["keyMetadata"] = ["algorithm": "PBKDF2", "params": ["iterations": 9_999]]
    }
    let vault = try DesktopVault(json: json)
    #expect(vault.iterations == 9_999)
    #expect(throws: DesktopVaultError.incorrectPassword) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: Self.password))
    }
  }

  // MARK: Malformed files: exact messages

  static let prefix = "the file is not a desktop Freedom identity vault: "

  @Test(arguments: [
    ("not json", "not valid JSON (invalid JSON at byte 0: expected a value)"),
    ("", "not valid JSON (invalid JSON at byte 0: unexpected end, expected a value)"),
    (
      "\u{FEFF}{\"version\":1}",
      "not valid JSON (invalid JSON at byte 0: the text starts with a byte-order mark (U+FEFF); save it as UTF-8 without one)"
    ),
    (
      #"{"version":1,"version":1}"#,
      "not valid JSON (invalid JSON at byte 13: the member \"version\" appears twice in one object)"
    ),
    (
      #"{"version":1,"encrypted":"{\"salt\":\"\",}"}"#,
      "'encrypted' is not valid JSON (invalid JSON at byte 11: trailing comma before '}')"
    ),
    ("[1]", "the content is not a JSON object"),
    (#"{"encrypted":"{}"}"#, "missing 'version'"),
    (#"{"version":"1","encrypted":"{}"}"#, "'version' has the wrong type"),
    (
      #"{"version":1.5,"encrypted":"{}"}"#,
      "'version' is not a whole number in range"
    ),
    (
      #"{"version":1e30,"encrypted":"{}"}"#,
      "'version' is not a whole number in range"
    ),
    (#"{"version":1}"#, "missing 'encrypted'"),
    (#"{"version":1,"encrypted":{}}"#, "'encrypted' has the wrong type"),
    (#"{"version":1,"encrypted":"{}","createdAt":5}"#, "'createdAt' has the wrong type"),
    (
      #"{"version":1,"encrypted":"nope"}"#,
      "'encrypted' is not valid JSON (invalid JSON at byte 0: expected a value)"
    ),
    (#"{"version":1,"encrypted":"[]"}"#, "'encrypted' is not a JSON object"),
    (#"{"version":1,"encrypted":"{}"}"#, "missing 'encrypted.salt'"),
  ])
  func malformedEnvelope(json: String, reason: String) {
    let error = #expect(throws: DesktopVaultError.self) { try DesktopVault(json: Array(json.utf8)) }
    #expect(error == .notAVault(reason: reason))
    #expect(error?.description == Self.prefix + reason)
  }

  @Test(
    arguments: [
      ("salt", nil, "missing 'encrypted.salt'"),
      ("iv", nil, "missing 'encrypted.iv'"),
      ("data", nil, "missing 'encrypted.data'"),
      ("salt", "", "'encrypted.salt' is empty"),
      ("salt", "not base64!", "'encrypted.salt' is not base64"),
      ("iv", "AAECAwQFBgcICQoL", "'encrypted.iv' must be 16 bytes, got 12"),
      ("data", "AAECAwQFBgcICQoLDA0O", "'encrypted.data' must be at least 16 bytes, got 15"),
    ] as [(String, String?, String)])
  func malformedPayloadField(field: String, value: String?, reason: String) throws {
    let json = try Self.rewriteFixture("legacy-no-keymetadata") { $0[field] = value }
    let error = #expect(throws: DesktopVaultError.self) { try DesktopVault(json: json) }
    #expect(error == .notAVault(reason: reason))
    #expect(error?.description == Self.prefix + reason)
  }

  @Test func wrongTypedPayloadFieldIsNamed() throws {
    let json = try Self.rewriteFixture("abandon-about") {
      $0["keyMetadata"] = ["algorithm": "PBKDF2", "params": ["iterations": "900000"]]
    }
    #expect(
      throws: DesktopVaultError.notAVault(
        reason: "'encrypted.keyMetadata.params.iterations' has the wrong type")
    ) {
      try DesktopVault(json: json)
    }
  }

  @Test func fractionalIterationCountIsNamed() throws {
    let json = try Self.rewriteFixture("abandon-about") {
      $0["keyMetadata"] = ["algorithm": "PBKDF2", "params": ["iterations": 1.5]]
    }
    #expect(
      throws: DesktopVaultError.notAVault(
        reason: "'encrypted.keyMetadata.params.iterations' is not a whole number in range")
    ) {
      try DesktopVault(json: json)
    }
  }

  @Test func keyMetadataWithoutAlgorithmOrIterations() throws {
    let noAlgorithm = try Self.rewriteFixture("abandon-about") {
      $0["keyMetadata"] = ["params": ["iterations": 1]]
    }
    #expect(
      throws: DesktopVaultError.notAVault(reason: "missing 'encrypted.keyMetadata.algorithm'")
    ) {
      try DesktopVault(json: noAlgorithm)
    }
    let noIterations = try Self.rewriteFixture("abandon-about") {
      $0["keyMetadata"] = ["algorithm": "PBKDF2"]
    }
    #expect(
      throws: DesktopVaultError.notAVault(
        reason: "missing 'encrypted.keyMetadata.params.iterations'")
    ) {
      try DesktopVault(json: noIterations)
    }
  }

  @Test(arguments: [0, -1, 10_000_001])
  func iterationsOutOfRange(count: Int) throws {
    let json = try Self.rewriteFixture("abandon-about") {
      $0["keyMetadata"] = ["algorithm": "PBKDF2", "params": ["iterations": count]]
    }
    let error = #expect(throws: DesktopVaultError.self) { try DesktopVault(json: json) }
    #expect(error == .unsupportedIterations(count))
    #expect(
      error?.description
        == "unsupported PBKDF2 iteration count \(count) — expected 1…10,000,000 (desktop Freedom uses 900,000)"
    )
  }

  @Test func iterationBoundsAreAccepted() throws {
    for count in [1, 10_000_000] {
      let json = try Self.rewriteFixture("abandon-about") {
        $0["keyMetadata"] = ["algorithm": "PBKDF2", "params": ["iterations": count]]
      }
      #expect(try DesktopVault(json: json).iterations == count)
    }
  }

  @Test func algorithmNameIsMadePrintableAndShort() throws {
    let json = try Self.rewriteFixture("abandon-about") {
      $0["keyMetadata"] = [
        "algorithm": "a\nb\u{1b}" + String(repeating: "x", count: 40), "params": [:],
      ]
    }
    #expect(
      throws: DesktopVaultError.unsupportedAlgorithm(
        "a?b?" + String(repeating: "x", count: 28) + "…")
    ) {
      try DesktopVault(json: json)
    }
  }

  @Test func oversizedFileIsRefusedBeforeParsing() {
    let json = [UInt8](repeating: UInt8(ascii: " "), count: DesktopVault.maxByteCount + 1)
    #expect(throws: DesktopVaultError.notAVault(reason: "the file is larger than 1 MiB")) {
      try DesktopVault(json: json)
    }
  }

  // MARK: The decrypted payload

  @Test(arguments: [
    (#"{"mnemonic":"abandon about"}"#, "abandon about"),
    (#" { "mnemonic" : "abandon about" } "#, "abandon about"),
    (#"{"a":[1,-2.5e3,true,null,{"b":"}\""}],"mnemonic":"x","c":{}}"#, "x"),
    (#"{"\u006dnemonic":"escaped key"}"#, "escaped key"),
    (#"{"mnemonic":"q\"b\\s\/n\nt\tr\rb\bf\f"}"#, "q\"b\\s/n\nt\tr\rb\u{8}f\u{c}"),
    (#"{"mnemonic":"\u0041\u00e9\u3042\ud83d\ude00"}"#, "Aéあ😀"),
    (#"{"mnemonic":"あいこくしん　あいこくしん"}"#, "あいこくしん　あいこくしん"),
  ])
  func mnemonicIsReadFromThePayload(payload: String, expected: String) throws {
    let vault = try DesktopVault(json: Self.makeVault(plaintext: payload))
    let mnemonic = try vault.decryptMnemonic(password: SecureBytes(utf8: "pw"))
    #expect(Self.text(mnemonic) == expected)
    #expect(mnemonic.withUnsafeBytes { Array($0) } == Array(expected.utf8))
  }

  @Test(arguments: [
    #"{"seed":"abandon about"}"#,
    #"{"mnemonic":42}"#,
    #"{"mnemonic":["abandon"]}"#,
    #"{"mnemonic":""}"#,
    #"{"mnemonic":"abandon"#,
    #"{"mnemonic":"abandon"} x"#,
    #"{"mnemonic":"abandon",}"#,
    #"{"mnemonic":"first","mnemonic":"second"}"#,
    #"{"mnemonic":"abandon"} // comment"#,
    "\u{FEFF}{\"mnemonic\":\"abandon\"}",
    #"{"mnemonic":"\ud800"}"#,
    #"{"mnemonic":"\udc00x"}"#,
    #"{"mnemonic":"\x"}"#,
    #"{"mnemonic":"\u12"}"#,
    "{\"mnemonic\":\"a\nb\"}",
    #"["mnemonic","abandon"]"#,
    #"{}"#,
    "",
  ])
  func payloadWithoutAMnemonicIsRefused(payload: String) throws {
    let vault = try DesktopVault(json: Self.makeVault(plaintext: payload))
    let error = #expect(throws: DesktopVaultError.self) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: "pw"))
    }
    #expect(error == .noMnemonic)
    #expect(
      error?.description
        == "the vault opened, but it holds no mnemonic — it was not written by desktop Freedom")
  }

  @Test func deeplyNestedPayloadIsRefusedWithoutRecursingForever() throws {
    let payload = #"{"a":"# + String(repeating: "[", count: 10_000) + #"],"mnemonic":"x"}"#
    let vault = try DesktopVault(json: Self.makeVault(plaintext: payload))
    #expect(throws: DesktopVaultError.noMnemonic) {
      try vault.decryptMnemonic(password: SecureBytes(utf8: "pw"))
    }
  }

  // MARK: Helpers

  static func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors/vaults"))
    return Array(try Data(contentsOf: url))
  }

  /// The fixture with its inner `encrypted` object changed by `edit`.
  static func rewriteFixture(_ name: String, _ edit: (inout [String: Any]) -> Void) throws
    -> [UInt8]
  {
    var outer = try #require(
      try JSONSerialization.jsonObject(with: Data(fixture(name))) as? [String: Any])
    let encrypted = try #require(outer["encrypted"] as? String)
    var payload = try #require(
      try JSONSerialization.jsonObject(with: Data(encrypted.utf8)) as? [String: Any])
    edit(&payload)
    outer["encrypted"] = String(
      decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
    return Array(try JSONSerialization.data(withJSONObject: outer))
  }

  /// A version 1 vault of `plaintext` under password "pw" with one PBKDF2 iteration.
  static func makeVault(plaintext: String) throws -> [UInt8] {
    let salt = [UInt8](repeating: 7, count: 32)
    let iv = [UInt8](repeating: 9, count: 16)
    let key = PBKDF2.hmacSHA256(
      password: Array("pw".utf8), salt: salt, iterations: 1, keyByteCount: 32)
    let data = try AES.gcm256Seal(key: key, iv: iv, plaintext: Array(plaintext.utf8))
    let payload: [String: Any] = [
      "data": Data(data).base64EncodedString(), "iv": Data(iv).base64EncodedString(),
      "keyMetadata": ["algorithm": "PBKDF2", "params": ["iterations": 1]],
      "salt": Data(salt).base64EncodedString(),
    ]
    let encrypted = String(
      decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
    return Array(
      try JSONSerialization.data(withJSONObject: ["version": 1, "encrypted": encrypted]))
  }

  static func text(_ secret: SecureBytes) -> String {
    secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}

import CryptoPrimitives
import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// antd's rules, in process: one password rule for export and verify, one keystore rule (version
/// 3 as a number, a Keccak-256 MAC), every conflict in one refusal.
@Suite("FreedomNodes: Antd")
struct AntdTests {
  /// The keystore `json` with its MAC recomputed as SHA3-256, as bee wrote its files before 2022.
  static func withSHA3MAC(_ json: [UInt8], password: String) throws -> [UInt8] {
    let keystore = try Web3Keystore(json: json)
    guard case .scrypt(let n, let r, let p) = keystore.kdf else {
      throw CryptoError.invalidScryptParameters
    }
    let derived = try Scrypt.deriveKey(
      password: SecureBytes(utf8: password), salt: keystore.salt, n: n, r: r, p: p,
      keyByteCount: 32)
    let sha3 = SHA3_256.hash(derived[16..<32] + SecureBytes(keystore.ciphertext))
    let text = String(decoding: json, as: UTF8.self)
      .replacingOccurrences(of: Hex.encode(keystore.mac), with: Hex.encode(sha3))
    return Array(text.utf8)
  }

  func antData(_ fixture: NodeFixture, config: String) throws -> Antd {
    try fixture.file("ant-data/config.yaml", config)
    return Antd(directory: fixture.path("ant-data"))
  }

  @Test func thePasswordFileConfigYamlNamesOpensTheKeyForExportAndVerify() throws {
    let fixture = try NodeFixture()
    let file = try fixture.file("password", "from-a-file\r\n")
    let antd = try antData(fixture, config: "password-file: \(file)\n")
    let outcome = try NodeSession.export(
      antd, .init(profile: NodeFixture.profile, password: nil), consent: .none)
    #expect(outcome.plan.password == .keptFromPasswordFile(file))
    #expect(fixture.read("ant-data/config.yaml") == "password-file: \(file)\n")
    let findings = try NodeSession.verify(antd, against: NodeFixture.profile)
    #expect(findings.count == 1)
    #expect(findings[0].status == .match)
    #expect(findings[0].authenticated == true)
    #expect(findings[0].reason == .decryptedWithNodePassword(.passwordFile(file)))
    // The key opens with the file's password without its line ending, as antd reads it.
    let stored = try Web3Keystore(
      json: Array(try #require(fixture.read("ant-data/" + Antd.keystoreFile)).utf8))
    #expect(
      try stored.decrypt(password: SecureBytes(utf8: "from-a-file")).rawRepresentation
        == NodeFixture.profile.swarm.privateKey.rawRepresentation)
  }

  @Test func aPasswordFileLosesTrailingLineEndsAndMustHoldOne() throws {
    #expect(
      try Antd.password(fromFile: SecureBytes(utf8: "pass\r\n\n"), path: "/p")
        == SecureBytes(utf8: "pass"))
    do {
      _ = try Antd.password(fromFile: SecureBytes(utf8: "\r\n"), path: "/p")
      Issue.record("an empty password file was accepted")
    } catch {
      #expect(error.message(.export).rendered { _ in "" } == "the password file /p is empty")
    }
  }

  @Test func aSHA3MACKeystoreIsAMismatchForAntdAndAMatchForBee() throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "password: pw-of-the-test\n")
    let sha3 = try Self.withSHA3MAC(
      try NodeFixture.keystore(NodeFixture.profile, password: "pw-of-the-test"),
      password: "pw-of-the-test")
    try fixture.bytes("ant-data/keys/swarm.key", sha3)

    let findings = try NodeSession.verify(antd, against: NodeFixture.profile)
    #expect(findings[0].status == .mismatch)
    #expect(findings[0].reason == .antdRefusesKeystore(.sha3MAC))
    #expect(findings[0].found == NodeFixture.profile.swarm.address.checksummed)

    // bee reads it: --bee-dir keeps bee's leniency.
    let bee = Bee(
      directory: fixture.path("ant-data"), password: SecureBytes(utf8: "pw-of-the-test"))
    let beeFindings = try NodeSession.verify(bee, against: NodeFixture.profile)
    #expect(beeFindings[0].status == .match)

    // An export writes what antd opens: the same key, a Keccak-256 MAC.
    let outcome = try NodeSession.export(
      antd, .init(profile: NodeFixture.profile, password: nil), consent: .none)
    #expect(outcome.plan.keystore == .rewrite(.sha3MAC))
    #expect(try NodeSession.verify(antd, against: NodeFixture.profile)[0].status == .match)
  }

  @Test func aStringVersionIsAMismatchWithoutAPassword() throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "api-addr: 127.0.0.1:1633\n")
    let json = String(
      decoding: try NodeFixture.keystore(NodeFixture.profile, password: "x"), as: UTF8.self)
    let string = json.replacingOccurrences(of: "\"version\":3", with: "\"version\":\"3\"")
      .replacingOccurrences(of: "\"version\": 3", with: "\"version\": \"3\"")
    #expect(string != json)
    try fixture.file("ant-data/keys/swarm.key", string)
    let findings = try NodeSession.verify(antd, against: NodeFixture.profile)
    #expect(findings[0].status == .mismatch)
    #expect(findings[0].reason == .antdRefusesKeystore(.versionNotANumber))
  }

  @Test func withoutAPasswordOnlyTheAddressFieldIsCompared() throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "api-addr: 127.0.0.1:1633\n")
    try fixture.bytes(
      "ant-data/keys/swarm.key", try NodeFixture.keystore(NodeFixture.profile, password: "x"))
    let finding = try NodeSession.verify(antd, against: NodeFixture.profile)[0]
    #expect(finding.status == .match)
    #expect(finding.authenticated == false)
    #expect(finding.reason == .addressFieldOnlyNoNodePassword)
  }

  @Test func configYamlsPasswordThatDoesNotOpenTheKeyIsAMismatch() throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "password: not-this-one\n")
    try fixture.bytes(
      "ant-data/keys/swarm.key", try NodeFixture.keystore(NodeFixture.profile, password: "x"))
    let finding = try NodeSession.verify(antd, against: NodeFixture.profile)[0]
    #expect(finding.status == .mismatch)
    #expect(finding.reason == .nodePasswordDoesNotOpen(.config))
  }

  @Test func everyConflictIsListedAndNothingIsWritten() throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "password: pw\n")
    let otherKey = try NodeFixture.keystore(NodeFixture.other, password: "pw")
    try fixture.bytes("ant-data/keys/swarm.key", otherKey)
    try fixture.file("ant-data/signing.key", "zz\n")
    let conflicts = try refusal { () throws(NodeError) in
      _ = try NodeSession.export(
        antd, .init(profile: NodeFixture.profile, password: nil), consent: .none)
    }
    #expect(
      conflicts == [
        NodeConflict(
          path: antd.keystorePath, found: .key(NodeFixture.other.swarm.address.checksummed),
          expected: NodeFixture.profile.swarm.address.checksummed),
        NodeConflict(
          path: fixture.path("ant-data/signing.key"), found: .antdOwnIdentity(nil),
          expected: NodeFixture.profile.swarm.address.checksummed),
      ])
    #expect(try Data(contentsOf: URL(fileURLWithPath: antd.keystorePath)) == Data(otherKey))

    let forced = try NodeSession.export(
      antd, .init(profile: NodeFixture.profile, password: nil),
      consent: ExportConsent(replacesOtherIdentities: true))
    #expect(forced.plan.keystore == .replace(.key(NodeFixture.other.swarm.address.checksummed)))
    #expect(forced.removed == [fixture.path("ant-data/signing.key")])
    #expect(try NodeSession.verify(antd, against: NodeFixture.profile)[0].status == .match)
  }

  @Test func aGivenPasswordThatDiffersFromConfigYamlsIsRefused() throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "password: in-the-config\n")
    #expect(throws: NodeError.self) {
      try NodeSession.export(
        antd, .init(profile: NodeFixture.profile, password: SecureBytes(utf8: "another")),
        consent: .none)
    }
    #expect(!FileManager.default.fileExists(atPath: antd.keystorePath))
  }

  @Test func recoveryTargetsAreTheKeystoresAddress() throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "password: pw\n")
    try fixture.bytes(
      "ant-data/keys/swarm.key", try NodeFixture.keystore(NodeFixture.other, password: "pw"))
    #expect(
      try NodeSession.recoveryTargets(antd)
        == [.address(NodeFixture.other.swarm.address, of: .swarm)])
  }

  /// A v3 keystore of `profile`'s swarm key with scrypt `n` and `r` (p = 1), which
  /// `Web3Keystore.encrypt` (r = 8 always) cannot write.
  static func keystore(_ profile: FreedomProfile, n: UInt64, r: UInt32, password: String)
    throws -> [UInt8]
  {
    let salt = [UInt8](repeating: 0x11, count: 32)
    let iv = [UInt8](repeating: 0x22, count: 16)
    let derived = try Scrypt.deriveKey(
      password: Array(password.utf8), salt: salt, n: n, r: r, p: 1, keyByteCount: 32)
    let key = try #require(Hex.decode(profile.swarm.privateKey.rawRepresentation.revealHex()))
    let ciphertext = try AES.ctr128(key: derived[0..<16], iv: iv, data: key)
      .withUnsafeBytes { Array($0) }
    let mac = derived[16..<32].withUnsafeBytes { Keccak256.hash(Array($0) + ciphertext) }
    let json = """
      {"address":"\(profile.swarm.address.lowercaseHex)","crypto":{\
      "cipher":"aes-128-ctr","ciphertext":"\(Hex.encode(ciphertext))",\
      "cipherparams":{"iv":"\(Hex.encode(iv))"},"kdf":"scrypt","kdfparams":{"dklen":32,\
      "n":\(n),"p":1,"r":\(r),"salt":"\(Hex.encode(salt))"},"mac":"\(Hex.encode(mac))"},\
      "id":"3198bc9c-6672-5ab3-d995-4942343ae5b6","version":3}
      """
    return Array(json.utf8)
  }

  /// Issue 26, item 5: antd's serde reads exact field names, where bee's Go reader (and ours,
  /// for bee) ignores case: verify --antd-dir said "match" and export antd "nothing to do" for
  /// keystores antd refuses. Each is now a mismatch naming the field, bee still reads it, and
  /// the export rewrites it as antd reads it.
  @Test(arguments: [
    ("\"crypto\":", "\"CRYPTO\":", "crypto", "CRYPTO"),
    ("\"mac\":", "\"MAC\":", "crypto.mac", "MAC"),
    ("\"n\":", "\"N\":", "crypto.kdfparams.n", "N"),
    ("\"iv\":", "\"Iv\":", "crypto.cipherparams.iv", "Iv"),
    ("\"version\":", "\"VERSION\":", "version", "VERSION"),
  ])
  func aFieldNameInAnotherCaseIsAMismatchForAntd(
    standard: String, other: String, field: String, written: String
  ) throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "password: pw-of-the-test\n")
    let json = String(
      decoding: try NodeFixture.keystore(NodeFixture.profile, password: "pw-of-the-test"),
      as: UTF8.self)
    let renamed = json.replacingOccurrences(of: standard, with: other)
    #expect(renamed != json)
    try fixture.file("ant-data/keys/swarm.key", renamed)

    let findings = try NodeSession.verify(antd, against: NodeFixture.profile)
    #expect(findings[0].status == .mismatch)
    #expect(
      findings[0].reason == .antdRefusesKeystore(.fieldNameCase(field: field, written: written)))
    let bee = Bee(
      directory: fixture.path("ant-data"), password: SecureBytes(utf8: "pw-of-the-test"))
    #expect(try NodeSession.verify(bee, against: NodeFixture.profile)[0].status == .match)

    let outcome = try NodeSession.export(
      antd, .init(profile: NodeFixture.profile, password: nil), consent: .none)
    #expect(outcome.plan.keystore == .rewrite(.fieldNameCase(field: field, written: written)))
    #expect(try NodeSession.verify(antd, against: NodeFixture.profile)[0].status == .match)
  }

  /// antd's own alias: `Crypto` is read as `crypto`.
  @Test func aCapitalisedCryptoIsWhatAntdReadsToo() throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "password: pw-of-the-test\n")
    let json = String(
      decoding: try NodeFixture.keystore(NodeFixture.profile, password: "pw-of-the-test"),
      as: UTF8.self)
    let renamed = json.replacingOccurrences(of: "\"crypto\":", with: "\"Crypto\":")
    #expect(renamed != json)
    try fixture.file("ant-data/keys/swarm.key", renamed)
    let finding = try NodeSession.verify(antd, against: NodeFixture.profile)[0]
    #expect(finding.status == .match)
    #expect(finding.reason == .decryptedWithNodePassword(.config))
  }

  /// antd's scrypt (RustCrypto's `Params::new`) wants n < 2^(16·r): r = 1 with n = 2^16 is
  /// refused (bee reads it), r = 1 with n = 2^15 is read.
  @Test(arguments: [(UInt64(1) << 16, true), (UInt64(1) << 15, false)])
  func scryptParametersAntdRejectsAreAMismatch(n: UInt64, refused: Bool) throws {
    let fixture = try NodeFixture()
    let antd = try antData(fixture, config: "password: pw-of-the-test\n")
    try fixture.bytes(
      "ant-data/keys/swarm.key",
      try Self.keystore(NodeFixture.profile, n: n, r: 1, password: "pw-of-the-test"))
    let finding = try NodeSession.verify(antd, against: NodeFixture.profile)[0]
    #expect(finding.status == (refused ? .mismatch : .match))
    #expect(
      finding.reason
        == (refused
          ? .antdRefusesKeystore(.scryptParameters(n: n, r: 1))
          : .decryptedWithNodePassword(.config)))
    let bee = Bee(
      directory: fixture.path("ant-data"), password: SecureBytes(utf8: "pw-of-the-test"))
    #expect(try NodeSession.verify(bee, against: NodeFixture.profile)[0].status == .match)
    if refused {
      let outcome = try NodeSession.export(
        antd, .init(profile: NodeFixture.profile, password: nil), consent: .none)
      #expect(outcome.plan.keystore == .rewrite(.scryptParameters(n: n, r: 1)))
      #expect(try NodeSession.verify(antd, against: NodeFixture.profile)[0].status == .match)
    }
  }
}

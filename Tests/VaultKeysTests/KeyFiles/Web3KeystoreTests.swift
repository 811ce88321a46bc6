import CryptoPrimitives
import Foundation
import Testing

@testable import VaultKeys

/// swarm-cli's TestIdentity key (published with its password), reused as a known key.
private let knownKeyHex = "560feedcad2979e64dd067f67220b5aeca62e8df8e6dda741bb1b20b8144cb1f"
private let knownAddressHex = "839b825c908fff5e4b51d97893f2fe64422f8978"

/// A key file whose MAC is SHA3-256 (bee before 2022), made with Python's hashlib and
/// pycryptodome: scrypt("TestPassword", salt 00…1f, n=1024, r=8, p=1), IV 64…73.
let sha3MACFile = """
  {"address":"839b825c908fff5e4b51d97893f2fe64422f8978","crypto":{"cipher":"aes-128-ctr",\
  "ciphertext":"ec7e9133d81aa40d10a1869a0d8bbbbbd447c23a55d2a73f47e5f5985abc0868",\
  "cipherparams":{"iv":"6465666768696a6b6c6d6e6f70717273"},"kdf":"scrypt","kdfparams":{"n":1024,\
  "r":8,"p":1,"dklen":32,"salt":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"},\
  "mac":"7a96ec1ff70b92969913cb9b81d842d758c848aca20289301f2d0695b2fae8d1"},"version":3,\
  "id":"00000000-0000-4000-8000-000000000000"}
  """
/// The Keccak-256 MAC of the same derived key and ciphertext.
private let keccakMACHex = "471340e566f48b77d62f5d1789384a0c6d422f953ab1295e350ec111626dd015"
private let sha3MACHex = "7a96ec1ff70b92969913cb9b81d842d758c848aca20289301f2d0695b2fae8d1"

private func knownKey() throws -> Secp256k1.PrivateKey {
  try Secp256k1.PrivateKey(rawRepresentation: SecureBytes(try #require(Hex.decode(knownKeyHex))))
}

private func variant(_ replacements: [(String, String)]) -> [UInt8] {
  var text = sha3MACFile
  for (old, new) in replacements {
    precondition(text.contains(old), "fixture has no \(old)")
    text = text.replacingOccurrences(of: old, with: new)
  }
  return Array(text.utf8)
}

private func readError(_ json: [UInt8]) -> Web3KeystoreError? {
  do {
    _ = try Web3Keystore(json: json)
    return nil
  } catch {
    return error
  }
}

private func decryptError(_ json: [UInt8], password: String) -> Web3KeystoreError? {
  do {
    _ = try Web3Keystore(json: json).decrypt(password: SecureBytes(utf8: password))
    return nil
  } catch {
    return error
  }
}

@Suite struct Web3KeystoreTests {
  @Test func addressOfKnownKeys() throws {
    #expect(EthereumAddress(publicKey: try knownKey().publicKey).lowercaseHex == knownAddressHex)
    let specKey = try Secp256k1.PrivateKey(
      rawRepresentation: SecureBytes(
        try #require(Hex.decode("7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d"))
      ))
    #expect(
      EthereumAddress(publicKey: specKey.publicKey).lowercaseHex
        == "008aeeda4d805471df9b2a5b0f38a0c3bcba786b")
  }

  @Test func encryptWritesBeesExactLayout() throws {
    let json = try Web3Keystore.encrypt(
      privateKey: try knownKey(), password: SecureBytes(utf8: "pw"))
    let text = String(decoding: json, as: UTF8.self)
    let hex = "[0-9a-f]"
    let pattern =
      #"^\{"address":"839b825c908fff5e4b51d97893f2fe64422f8978","crypto":\{"cipher":"aes-128-ctr","#
      + #""ciphertext":"\#(hex){64}","cipherparams":\{"iv":"\#(hex){32}"\},"kdf":"scrypt","#
      + #""kdfparams":\{"n":32768,"r":8,"p":1,"dklen":32,"salt":"\#(hex){64}"\},"mac":"\#(hex){64}"\},"#
      + #""version":3,"id":"\#(hex){8}-\#(hex){4}-4\#(hex){3}-[89ab]\#(hex){3}-\#(hex){12}"\}$"#
    #expect(text.range(of: pattern, options: .regularExpression) != nil, "\(text)")

    let keystore = try Web3Keystore(json: json)
    #expect(keystore.address?.lowercaseHex == knownAddressHex)
    #expect(keystore.kdf == .scrypt(n: 32768, r: 8, p: 1))
    #expect(keystore.kdfName == "scrypt")
    let decrypted = try keystore.decrypt(password: SecureBytes(utf8: "pw"))
    #expect(decrypted.rawRepresentation.revealHex() == knownKeyHex)
  }

  @Test func encryptIsRandomizedButAlwaysDecrypts() throws {
    let a = try Web3Keystore(
      json: try Web3Keystore.encrypt(
        privateKey: try knownKey(), password: SecureBytes(utf8: "pw"), scryptN: 1024))
    let b = try Web3Keystore(
      json: try Web3Keystore.encrypt(
        privateKey: try knownKey(), password: SecureBytes(utf8: "pw"), scryptN: 1024))
    #expect(a.salt != b.salt)
    #expect(a.iv != b.iv)
    #expect(a.id != b.id)
    #expect(a.ciphertext != b.ciphertext)
    for keystore in [a, b] {
      #expect(
        try keystore.decrypt(password: SecureBytes(utf8: "pw")).rawRepresentation.revealHex()
          == knownKeyHex)
      #expect(throws: Web3KeystoreError.wrongPassword) {
        try keystore.decrypt(password: SecureBytes(utf8: "pW"))
      }
    }
  }

  @Test func encryptRefusesAnInvalidCost() {
    for n: UInt64 in [0, 1, 1000, 3 << 10, 1 << 23] {
      #expect(throws: Web3KeystoreError.self, "n=\(n)") {
        try Web3Keystore.encrypt(
          privateKey: try knownKey(), password: SecureBytes(utf8: "pw"), scryptN: n)
      }
    }
  }

  @Test func tamperedCiphertextOrMACIsAWrongPassword() throws {
    let json = try Web3Keystore.encrypt(
      privateKey: try knownKey(), password: SecureBytes(utf8: "pw"), scryptN: 1024)
    let keystore = try Web3Keystore(json: json)
    let text = String(decoding: json, as: UTF8.self)
    for field in [Hex.encode(keystore.ciphertext), Hex.encode(keystore.mac)] {
      var flipped = Array(field)
      flipped[10] = flipped[10] == "0" ? "1" : "0"
      let tampered = Array(text.replacingOccurrences(of: field, with: String(flipped)).utf8)
      #expect(decryptError(tampered, password: "pw") == .wrongPassword)
    }
  }

  @Test func sha3MACFromOldBeeDecrypts() throws {
    #expect(
      Hex.encode(SHA3_256.hash([UInt8]()))
        == "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a")
    #expect(
      Hex.encode(SHA3_256.hash(Array("abc".utf8)))
        == "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")
    let keystore = try Web3Keystore(json: Array(sha3MACFile.utf8))
    #expect(
      try keystore.decrypt(password: SecureBytes(utf8: "TestPassword")).rawRepresentation
        .revealHex() == knownKeyHex)
    #expect(decryptError(Array(sha3MACFile.utf8), password: "testpassword") == .wrongPassword)
    // The same file with the standard Keccak-256 MAC decrypts too.
    let keccak = variant([(sha3MACHex, keccakMACHex)])
    #expect(
      try Web3Keystore(json: keccak).decrypt(password: SecureBytes(utf8: "TestPassword"))
        .rawRepresentation.revealHex() == knownKeyHex)
  }

  @Test func readsTheVariantsGoReadersAccept() throws {
    let variants: [[UInt8]] = [
      variant([("\"crypto\"", "\"Crypto\"")]),
      variant([("\"version\":3", "\"version\":\"3\"")]),
      variant([
        (
          "\"id\":\"00000000-0000-4000-8000-000000000000\"",
          "\"id\":null,\"x-extra\":[1,{\"a\":true}]"
        )
      ]),
      variant([("{\"address\":\"839b825c908fff5e4b51d97893f2fe64422f8978\",", "{")]),
      variant([("\"cipher\":", "\n  \"comment\" : \"\\u00e9\\ud83d\\ude00\",\r\n\t\"cipher\" :")]),
    ]
    for json in variants {
      let keystore = try Web3Keystore(json: json)
      #expect(
        try keystore.decrypt(password: SecureBytes(utf8: "TestPassword")).rawRepresentation
          .revealHex() == knownKeyHex)
    }
    #expect(try Web3Keystore(json: variants[3]).address == nil)
    #expect(try Web3Keystore(json: variants[0]).id == "00000000-0000-4000-8000-000000000000")
  }

  @Test func readsPBKDF2() throws {
    // Built from the same derived-key construction with PBKDF2-HMAC-SHA256, c=1000.
    let salt = [UInt8](repeating: 7, count: 32)
    let iv = [UInt8](repeating: 9, count: 16)
    let derived = PBKDF2.hmacSHA256(
      password: Array("pw".utf8), salt: salt, iterations: 1000, keyByteCount: 32)
    let ciphertext = try AES.ctr128(
      key: derived[0..<16], iv: iv, data: try knownKey().rawRepresentation
    )
    .withUnsafeBytes { Array($0) }
    let mac = Web3Keystore.keccakMAC(derivedKey: derived, ciphertext: ciphertext)
    let json = """
      {"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"\(Hex.encode(iv))"},\
      "ciphertext":"\(Hex.encode(ciphertext))","kdf":"pbkdf2","kdfparams":{"c":1000,"dklen":32,\
      "prf":"hmac-sha256","salt":"\(Hex.encode(salt))"},"mac":"\(Hex.encode(mac))"},"version":3}
      """
    let keystore = try Web3Keystore(json: Array(json.utf8))
    #expect(keystore.kdf == .pbkdf2(iterations: 1000))
    #expect(
      try keystore.decrypt(password: SecureBytes(utf8: "pw")).rawRepresentation.revealHex()
        == knownKeyHex)
    #expect(throws: Web3KeystoreError.wrongPassword) {
      try keystore.decrypt(password: SecureBytes(utf8: "px"))
    }
    let sha512 = Array(json.replacingOccurrences(of: "hmac-sha256", with: "hmac-sha512").utf8)
    #expect(readError(sha512) == .unsupportedPRF("hmac-sha512"))
  }

  @Test func clearErrors() {
    #expect(readError(variant([("\"version\":3", "\"version\":4")])) == .unsupportedVersion("4"))
    #expect(
      readError(variant([("\"version\":3", "\"version\":\"1\"")])) == .unsupportedVersion("1"))
    #expect(readError(variant([("\"version\":3,", "")])) == .missingField("version"))
    #expect(
      readError(variant([("aes-128-ctr", "aes-128-cbc")])) == .unsupportedCipher("aes-128-cbc"))
    #expect(
      readError(variant([("\"kdf\":\"scrypt\"", "\"kdf\":\"argon2id\"")]))
        == .unsupportedKDF("argon2id"))
    #expect(
      readError(variant([("\"ciphertext\":\"ec7e", "\"ciphertext\":\"zz7e")]))
        == .invalidHex(field: "crypto.ciphertext"))
    #expect(
      readError(variant([("\"iv\":\"6465", "\"iv\":\"")]))
        == .invalidLength(field: "crypto.cipherparams.iv", expected: 16, actual: 14))
    #expect(
      readError(
        variant([
          (",\"salt\":\"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\"", "")
        ])) == .missingField("crypto.kdfparams.salt"))
    #expect(
      readError(variant([("\"n\":1024", "\"n\":\"1024\"")]))
        == .wrongType(field: "crypto.kdfparams.n", expected: "a non-negative integer"))
    #expect(
      readError(variant([("\"dklen\":32", "\"dklen\":64")]))
        == .kdfParametersRefused("dklen must be 32, got 64"))
    #expect(
      readError(variant([("{\"address\"", "{\"Crypto\":{},\"address\"")]))
        == .duplicateField("crypto"))
    #expect(readError(variant([("\"address\":\"839b", "\"address\":\"939b")])) == nil)
    #expect(
      readError(Array("{\"version\":3,".utf8))
        == .invalidJSON("invalid JSON at byte 13: unexpected end, expected a member name"))
    #expect(readError(Array("[3]".utf8)) == .wrongType(field: "(top level)", expected: "an object"))
  }

  @Test func refusesAbsurdKDFParametersBeforeDerivingAnything() {
    let refused: [(String, String)] = [
      ("\"n\":1024", "\"n\":8388608"),  // 2^23
      ("\"n\":1024", "\"n\":1000"),  // not a power of two
      ("\"n\":1024", "\"n\":1"),
      ("\"n\":1024,\"r\":8", "\"n\":4194304,\"r\":8"),  // 4 GiB of memory
      ("\"r\":8,\"p\":1", "\"r\":8,\"p\":1073741824"),  // r·p ≥ 2^30
      ("\"r\":8,\"p\":1", "\"r\":8,\"p\":100000"),  // work far above the limit
      ("\"r\":8", "\"r\":0"),
      ("\"n\":1024", "\"n\":18446744073709551616"),  // 2^64: not a 64-bit integer
    ]
    for (old, new) in refused {
      let error = readError(variant([(old, new)]))
      switch error {
      case .kdfParametersRefused, .wrongType: break
      default: Issue.record("\(new): expected a refusal, got \(String(describing: error))")
      }
    }
    #expect(
      readError(variant([("\"n\":1024,\"r\":8", "\"n\":4194304,\"r\":8")]))
        == .kdfParametersRefused(
          "scrypt n=4194304, r=8, p=1 needs 4096 MiB of memory; the limit is 2048 MiB"))
    #expect(
      readError(variant([("\"n\":1024", "\"n\":8388608")]))
        == .kdfParametersRefused("scrypt n=8388608 is above the limit 2^22 (4194304)"))
  }

  @Test func addressMismatchIsReported() {
    let json = variant([
      ("839b825c908fff5e4b51d97893f2fe64422f8978", "0000000000000000000000000000000000000001")
    ])
    #expect(
      decryptError(json, password: "TestPassword")
        == .addressMismatch(
          stored: "0000000000000000000000000000000000000001", actual: knownAddressHex))
  }

  @Test func messagesNeverContainThePassword() {
    let error = decryptError(Array(sha3MACFile.utf8), password: "hunter2-secret")
    #expect(error == .wrongPassword)
    #expect(!(error?.description.contains("hunter2") ?? true))
  }
}

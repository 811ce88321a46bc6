import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

/// One vector of Vectors/web3-secret-storage.json; `keystore` is re-read as raw JSON below.
struct Web3SecretStorageVector: Decodable, CustomTestStringConvertible {
  let id: String
  let password: String
  let privateKey: String
  let address: String?

  var testDescription: String { id }
}

/// The `keystore` object of each vector (and of the `excluded` ones), serialized again as JSON
/// bytes, keyed by vector id.
private func keystoreJSON() throws -> [String: [UInt8]] {
  let url = try #require(
    Bundle.module.url(
      forResource: "web3-secret-storage", withExtension: "json", subdirectory: "Vectors"))
  let root = try #require(
    try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  var out: [String: [UInt8]] = [:]
  for list in ["vectors", "excluded"] {
    for vector in try #require(root[list] as? [[String: Any]]) {
      let id = try #require(vector["id"] as? String)
      let keystore = try #require(vector["keystore"])
      out[id] = Array(try JSONSerialization.data(withJSONObject: keystore))
    }
  }
  return out
}

@Suite struct Web3SecretStorageVectorTests {
  static let vectors =
    (try? VectorFile<Web3SecretStorageVector>.load("web3-secret-storage").vectors) ?? []

  @Test func allVectorsLoaded() {
    #expect(
      Self.vectors.map(\.id) == [
        "web3-secret-storage-scrypt", "web3-secret-storage-pbkdf2", "swarm-cli-TestIdentity",
      ])
  }

  @Test(arguments: vectors)
  func decrypts(_ vector: Web3SecretStorageVector) throws {
    let json = try #require(try keystoreJSON()[vector.id])
    let keystore = try Web3Keystore(json: json)
    let key = try keystore.decrypt(password: SecureBytes(utf8: vector.password))
    #expect(key.rawRepresentation.revealHex() == vector.privateKey, "\(vector.id)")
    #expect(keystore.address?.lowercaseHex == vector.address, "\(vector.id)")
    #expect(throws: Web3KeystoreError.wrongPassword, "\(vector.id)") {
      try keystore.decrypt(password: SecureBytes(utf8: vector.password + "x"))
    }
  }

  @Test func parametersAsPublished() throws {
    let json = try keystoreJSON()
    #expect(
      try Web3Keystore(json: #require(json["web3-secret-storage-scrypt"])).kdf
        == .scrypt(n: 262144, r: 1, p: 8))
    #expect(
      try Web3Keystore(json: #require(json["web3-secret-storage-pbkdf2"])).kdf
        == .pbkdf2(iterations: 262144))
    #expect(
      try Web3Keystore(json: #require(json["swarm-cli-TestIdentity"])).kdf
        == .scrypt(n: 262144, r: 8, p: 1))
  }

  /// The scrypt vector now shown on ethereum.org was generated with a salt-encoding bug; a
  /// correct reader must reject it.
  @Test func brokenEthereumOrgVectorIsRejected() throws {
    let json = try #require(try keystoreJSON()["ethereum-org-scrypt"])
    #expect(throws: Web3KeystoreError.wrongPassword) {
      try Web3Keystore(json: json).decrypt(password: SecureBytes(utf8: "testpassword"))
    }
  }
}

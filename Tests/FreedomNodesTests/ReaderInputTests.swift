import CryptoPrimitives
import Foundation
import FreedomNodes
import Testing
import VaultKeys

/// Every file-format reader takes `some ContiguousBytes`, and reads the same from an array, a
/// `SecureBytes`, `Data` and a slice.
@Suite("readers take some ContiguousBytes")
struct ReaderInputTests {
  /// `bytes` as the four kinds of contiguous bytes a caller may hold.
  static func forms(_ bytes: [UInt8]) -> [any ContiguousBytes] {
    [bytes, SecureBytes(bytes), Data(bytes), ([0] + bytes)[1...]]
  }

  static let key = try! Ed25519.PrivateKey(rawRepresentation: SecureBytes(Array(1...32)))

  @Test func web3Keystore() throws {
    let json = try Web3Keystore.encrypt(
      privateKey: try Secp256k1.PrivateKey(rawRepresentation: SecureBytes(Array(1...32))),
      password: SecureBytes(utf8: "pw"), scryptN: 1024)
    for form in Self.forms(json) {
      let keystore = try Web3Keystore(json: form)
      #expect(keystore.mac == (try Web3Keystore(json: json)).mac)
    }
  }

  @Test func radicleAndAntdConfig() throws {
    let radicle = Array("{\"node\": {\"alias\": \"alice\"}}\n".utf8)
    let yaml = Array("password: pw-of-the-test\ndata-dir: /x\n".utf8)
    for (radicleForm, yamlForm) in zip(Self.forms(radicle), Self.forms(yaml)) {
      let config = try RadicleConfig(json: radicleForm)
      #expect(config.alias == "alice")
      #expect(config.bytes == radicle)
      let antd = try AntdConfig(yaml: yamlForm)
      #expect(antd.dataDir == "/x")
      #expect(antd.password == SecureBytes(utf8: "pw-of-the-test"))
    }
  }

  @Test func openSSHAndLibp2pKeys() throws {
    let pem = OpenSSHEd25519PrivateKey.pem(privateKey: Self.key, comment: "alice").withUnsafeBytes {
      [UInt8]($0)
    }
    let protobuf = Libp2pPrivateKey.protobuf(Self.key).withUnsafeBytes { [UInt8]($0) }
    let base64 = Libp2pPrivateKey.base64(Self.key).withUnsafeBytes { [UInt8]($0) }
    let raw = Self.key.rawRepresentation
    for form in Self.forms(pem) {
      let (key, comment) = try OpenSSHEd25519PrivateKey.parse(pem: form)
      #expect(key.rawRepresentation == raw)
      #expect(comment == "alice")
    }
    for form in Self.forms(protobuf) {
      #expect(try Libp2pPrivateKey.decode(protobuf: form).rawRepresentation == raw)
    }
    for form in Self.forms(base64) {
      #expect(try Libp2pPrivateKey.decode(base64: form).rawRepresentation == raw)
    }
  }

  @Test func desktopVaultAndVaultMeta() throws {
    let vault = try DesktopVault.encrypt(
      mnemonic: SecureBytes(utf8: "abandon"), password: SecureBytes(utf8: "a long password"),
      iterations: 10)
    let address = try EthereumAddress(rawRepresentation: Array(repeating: 1, count: 20))
    let meta = DesktopVaultMeta.importedJSON(userWallet: address, beeWallet: address)
    for (vaultForm, metaForm) in zip(Self.forms(vault), Self.forms(meta)) {
      #expect(try DesktopVault(json: vaultForm).iterations == 10)
      #expect(
        try DesktopVaultMeta(json: metaForm).wallets == (try DesktopVaultMeta(json: meta)).wallets)
    }
  }
}

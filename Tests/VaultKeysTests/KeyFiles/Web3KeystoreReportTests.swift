import Testing

@testable import VaultKeys

/// The same ciphertext under PBKDF2, without an address or an id (the MAC is not checked here).
private let pbkdf2File = """
  {"crypto":{"cipher":"aes-128-ctr",\
  "ciphertext":"ec7e9133d81aa40d10a1869a0d8bbbbbd447c23a55d2a73f47e5f5985abc0868",\
  "cipherparams":{"iv":"6465666768696a6b6c6d6e6f70717273"},"kdf":"pbkdf2","kdfparams":{"c":262144,\
  "prf":"hmac-sha256","dklen":32,"salt":"0f0e0d0c0b0a09080706050403020100"},\
  "mac":"7a96ec1ff70b92969913cb9b81d842d758c848aca20289301f2d0695b2fae8d1"},"version":3}
  """
private let address =
  (try? EthereumAddress("0x839b825c908fff5e4b51d97893f2fe64422f8978"))?.checksummed ?? "none"

/// The scrypt key file is `Web3KeystoreTests`' (swarm-cli's TestIdentity, n=1024).
@Suite struct Web3KeystoreReportTests {
  @Test func uncheckedScryptFile() throws {
    let keystore = try Web3Keystore(json: Array(sha3MACFile.utf8))
    let report = keystore.report(keyAddress: nil)
    #expect(
      JSONValue.object(report.json).compact
        == "{\"address\":\"\(address)\",\"id\":\"00000000-0000-4000-8000-000000000000\","
        + "\"cipher\":\"aes-128-ctr\",\"kdf\":\"scrypt\",\"kdfparams\":{\"n\":1024,\"r\":8,"
        + "\"p\":1,\"dklen\":32,\"salt\":\"000102030405060708090a0b0c0d0e0f101112131415161718"
        + "191a1b1c1d1e1f\"},\"passwordChecked\":false}")
    #expect(
      report.text.rendered == """
        Address         \(address)
        ID              00000000-0000-4000-8000-000000000000
        Cipher          aes-128-ctr
        KDF             scrypt
        KDF parameters  n=1024 (2^10), r=8, p=1
        Salt            000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
        Password        not checked

        """)
  }

  @Test func checkedPBKDF2FileWithoutAddress() throws {
    let keystore = try Web3Keystore(json: Array(pbkdf2File.utf8))
    let key = try EthereumAddress(address)
    let report = keystore.report(keyAddress: key, uncheckedPassword: "unused")
    #expect(
      JSONValue.object(report.json).compact
        == "{\"cipher\":\"aes-128-ctr\",\"kdf\":\"pbkdf2\",\"kdfparams\":{\"prf\":\"hmac-sha256\","
        + "\"c\":262144,\"dklen\":32,\"salt\":\"0f0e0d0c0b0a09080706050403020100\"},"
        + "\"passwordChecked\":true,\"keyAddress\":\"\(address)\"}")
    #expect(
      report.text.rendered == """
        Address         (none stated)
        Cipher          aes-128-ctr
        KDF             pbkdf2
        KDF parameters  prf=hmac-sha256, c=262144
        Salt            0f0e0d0c0b0a09080706050403020100
        Password        correct (the MAC matches)
        Key address     \(address)

        """)
  }

  @Test func aStatedAddressIsSaidToMatch() throws {
    let keystore = try Web3Keystore(json: Array(sha3MACFile.utf8))
    let report = keystore.report(keyAddress: try EthereumAddress(address))
    #expect(report.text.rendered.hasSuffix("\n                the same as the file's address\n"))
    #expect(report.json.members.last?.key == "addressMatches")
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

/// Issue 8, reproducer 6: scrypt memory is counted as libsodium allocates it, 128·r·(n + p + 2)
/// bytes, and one cap holds for writing and reading. Nothing here runs a costly derivation.
@Suite struct ScryptCostTests {
  /// bee's layout with the given scrypt parameters (the MAC does not matter: nothing decrypts).
  static func keyFile(n: UInt64, r: UInt64, p: UInt64) -> [UInt8] {
    let text = """
      {"address":"839b825c908fff5e4b51d97893f2fe64422f8978","crypto":{"cipher":"aes-128-ctr",\
      "ciphertext":"ec7e9133d81aa40d10a1869a0d8bbbbbd447c23a55d2a73f47e5f5985abc0868",\
      "cipherparams":{"iv":"6465666768696a6b6c6d6e6f70717273"},"kdf":"scrypt","kdfparams":{"n":\(n),\
      "r":\(r),"p":\(p),"dklen":32,"salt":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"},\
      "mac":"7a96ec1ff70b92969913cb9b81d842d758c848aca20289301f2d0695b2fae8d1"},"version":3,\
      "id":"00000000-0000-4000-8000-000000000000"}
      """
    return Array(text.utf8)
  }

  static func readError(_ json: [UInt8]) -> Web3KeystoreError? {
    do {
      _ = try Web3Keystore(json: json)
      return nil
    } catch {
      return error
    }
  }

  /// n = 2, r = 2^23, p = 2: 2 GiB by the old count (128·r·n), 6 GiB as libsodium allocates.
  @Test func largeBlockSizeAndParallelismAreCounted() {
    #expect(
      Self.readError(Self.keyFile(n: 2, r: 1 << 23, p: 2))
        == .kdfParametersRefused(
          "scrypt n=2, r=8388608, p=2 needs 6144 MiB of memory; the limit is 2048 MiB"))
  }

  @Test func memoryIsCountedAsLibsodiumAllocates() {
    #expect(Scrypt.memoryByteCount(n: 32768, r: 8, p: 1) == 128 * 8 * (32768 + 1 + 2))
    #expect(Scrypt.memoryByteCount(n: 2, r: 1 << 23, p: 2) == 6 << 30)
    #expect(Scrypt.memoryByteCount(n: .max, r: 8, p: 1) == nil)
    #expect(Scrypt.maximumMemoryByteCount == 2 << 30)
  }

  @Test func derivationOverTheCapIsRefusedBeforeAllocating() {
    #expect(throws: CryptoError.scryptMemoryLimit(needed: 6 << 30, limit: 2 << 30)) {
      try Scrypt.deriveKey(
        password: [UInt8](), salt: [UInt8](), n: 2, r: 1 << 23, p: 2, keyByteCount: 32)
    }
  }

  /// Every n that `encrypt` (and so `export bee --scrypt-n`) writes is one the reader accepts,
  /// and the next power of two is refused by both.
  @Test func whateverIsWrittenIsRead() throws {
    #expect(Web3Keystore.maximumBeeScryptN == 1 << 20)
    var n: UInt64 = 2
    while n <= Web3Keystore.maximumBeeScryptN {
      #expect(Self.readError(Self.keyFile(n: n, r: 8, p: 1)) == nil, "n=\(n)")
      n *= 2
    }
    let over = 2 * Web3Keystore.maximumBeeScryptN
    #expect(Self.readError(Self.keyFile(n: over, r: 8, p: 1)) != nil)
    let key = try Secp256k1.PrivateKey(
      rawRepresentation: SecureBytes([UInt8](repeating: 1, count: 32)))
    #expect(
      throws: Web3KeystoreError.kdfParametersRefused(
        "scrypt n must be a power of two between 2 and 1048576, got 2097152")
    ) {
      try Web3Keystore.encrypt(privateKey: key, password: SecureBytes(utf8: "pw"), scryptN: over)
    }
  }

  @Test func durationIsEstimatedFromTheParameters() {
    #expect(Web3Keystore.KDF.scrypt(n: 1 << 18, r: 8, p: 1).estimatedSeconds == 1)
    #expect(Web3Keystore.KDF.scrypt(n: 1 << 20, r: 8, p: 1).estimatedSeconds == 4)
    #expect(Web3Keystore.KDF.pbkdf2(iterations: 262_144).estimatedSeconds < 1)
  }
}

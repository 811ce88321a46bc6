import CryptoPrimitives
import Testing

/// RFC 7914 §12 (the two vectors that run quickly; N=2^20 needs 1 GiB).
@Suite struct ScryptTests {
  @Test func emptyPasswordAndSalt() throws {
    let key = try Scrypt.deriveKey(
      password: [UInt8](), salt: [UInt8](), n: 16, r: 1, p: 1, keyByteCount: 64)
    #expect(
      key.revealHex()
        == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
        + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
  }

  @Test func passwordNaCl() throws {
    let key = try Scrypt.deriveKey(
      password: SecureBytes(utf8: "password"), salt: utf8("NaCl"), n: 1024, r: 8, p: 16,
      keyByteCount: 64)
    #expect(
      key.revealHex()
        == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
        + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
  }

  @Test(arguments: [
    (n: UInt64(0), r: UInt32(1), p: UInt32(1)),
    (n: 1, r: 1, p: 1),
    (n: 24, r: 1, p: 1),
    (n: 16, r: 0, p: 1),
    (n: 16, r: 1, p: 0),
  ])
  func rejectsInvalidParameters(_ parameters: (n: UInt64, r: UInt32, p: UInt32)) {
    #expect(throws: CryptoError.invalidScryptParameters) {
      try Scrypt.deriveKey(
        password: utf8("pw"), salt: utf8("salt"), n: parameters.n, r: parameters.r, p: parameters.p,
        keyByteCount: 32)
    }
  }
}

/// What the machine has: Linux's MemAvailable line read as bytes.
@Suite("scrypt memory")
struct ScryptMemoryTests {
  @Test func memAvailableIsReadInBytes() {
    let meminfo =
      "MemTotal:       24731084 kB\nMemFree:        20230348 kB\nMemAvailable:   22574960 kB\n"
    #expect(Scrypt.meminfoAvailable(meminfo) == 22_574_960 * 1024)
    #expect(Scrypt.meminfoAvailable("MemTotal: 1 kB\n") == nil)
    #expect(Scrypt.meminfoAvailable("MemAvailable: many kB\n") == nil)
    #expect(Scrypt.availableMemoryByteCount().map { $0 > 0 } == true)
  }
}

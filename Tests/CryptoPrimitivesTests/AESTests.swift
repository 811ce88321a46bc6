import CryptoPrimitives
import Testing

@Suite struct AESTests {
  // NIST SP 800-38A F.5.1 (CTR-AES128.Encrypt) and F.5.2 (CTR-AES128.Decrypt).
  static let ctrKey = bytes("2b7e151628aed2a6abf7158809cf4f3c")
  static let ctrCounter = bytes("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
  static let ctrPlaintext =
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
    + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
  static let ctrCiphertext =
    "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
    + "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"

  @Test func ctr128Encrypt() throws {
    let out = try AES.ctr128(
      key: SecureBytes(Self.ctrKey), iv: Self.ctrCounter, data: bytes(Self.ctrPlaintext))
    #expect(out.revealHex() == Self.ctrCiphertext)
  }

  @Test func ctr128Decrypt() throws {
    let out = try AES.ctr128(
      key: SecureBytes(Self.ctrKey), iv: Self.ctrCounter, data: bytes(Self.ctrCiphertext))
    #expect(out.revealHex() == Self.ctrPlaintext)
  }

  /// A partial final block uses a prefix of the key stream.
  @Test func ctr128PartialBlock() throws {
    let out = try AES.ctr128(
      key: SecureBytes(Self.ctrKey), iv: Self.ctrCounter,
      data: bytes(String(Self.ctrPlaintext.prefix(40))))
    #expect(out.revealHex() == String(Self.ctrCiphertext.prefix(40)))
  }

  @Test func ctr128RejectsBadLengths() {
    #expect(throws: CryptoError.invalidLength(what: "an AES-128 key", expected: 16, actual: 32)) {
      try AES.ctr128(
        key: SecureBytes(counting(32)), iv: Self.ctrCounter, data: [UInt8](repeating: 0, count: 4))
    }
    #expect(throws: CryptoError.invalidLength(what: "an AES-CTR IV", expected: 16, actual: 12)) {
      try AES.ctr128(
        key: SecureBytes(Self.ctrKey), iv: counting(12), data: [UInt8](repeating: 0, count: 4))
    }
  }

  // AES-256-GCM with a 16-byte IV (browser-passworder's shape), no AAD; values from Python
  // `cryptography` (AESGCM.encrypt).
  static let gcmKey = SecureBytes(counting(32))
  static let gcmIV = bytes("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")
  static let gcmPlaintext = utf8("freedom-keys vault plaintext, 45 bytes long..")
  static let gcmSealed =
    "4cd146d97ca2a05ba8fb66c2cd62ece5ee316309125538c2897712c2351512b2"
    + "2cf39f17f0a09fd18167578c36"  // 45 bytes of ciphertext
    + "242a83d9c265f6c838ff624d23d090d6"  // tag

  @Test func gcm256Seal() throws {
    let sealed = try AES.gcm256Seal(key: Self.gcmKey, iv: Self.gcmIV, plaintext: Self.gcmPlaintext)
    #expect(Hex.encode(sealed) == Self.gcmSealed)
  }

  @Test func gcm256Open() throws {
    let sealed = bytes(Self.gcmSealed)
    let opened = try AES.gcm256Open(
      key: Self.gcmKey, iv: Self.gcmIV, ciphertext: sealed[..<45], tag: sealed[45...])
    #expect(opened == SecureBytes(Self.gcmPlaintext))
  }

  @Test func gcm256EmptyPlaintext() throws {
    let sealed = try AES.gcm256Seal(key: Self.gcmKey, iv: Self.gcmIV, plaintext: [UInt8]())
    #expect(Hex.encode(sealed) == "022f841c702b66b0bec8111f67de221d")
    let opened = try AES.gcm256Open(
      key: Self.gcmKey, iv: Self.gcmIV, ciphertext: [UInt8](), tag: sealed)
    #expect(opened.count == 0)
  }

  /// McGrew–Viega GCM test cases 13 and 14 (zero key, zero 96-bit IV).
  @Test func gcm256TwelveByteIV() throws {
    let zeroKey = SecureBytes([UInt8](repeating: 0, count: 32))
    let iv = [UInt8](repeating: 0, count: 12)
    #expect(
      Hex.encode(try AES.gcm256Seal(key: zeroKey, iv: iv, plaintext: [UInt8]()))
        == "530f8afbc74536b9a963b4f1c4cb738b")
    #expect(
      Hex.encode(
        try AES.gcm256Seal(key: zeroKey, iv: iv, plaintext: [UInt8](repeating: 0, count: 16)))
        == "cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919")
  }

  @Test func gcm256TamperedTagFails() {
    let sealed = bytes(Self.gcmSealed)
    var tag = Array(sealed[45...])
    tag[15] ^= 0x01
    #expect(throws: CryptoError.authenticationFailed) {
      try AES.gcm256Open(key: Self.gcmKey, iv: Self.gcmIV, ciphertext: sealed[..<45], tag: tag)
    }
  }

  @Test func gcm256TamperedCiphertextFails() {
    var sealed = bytes(Self.gcmSealed)
    sealed[0] ^= 0x80
    #expect(throws: CryptoError.authenticationFailed) {
      try AES.gcm256Open(
        key: Self.gcmKey, iv: Self.gcmIV, ciphertext: sealed[..<45], tag: sealed[45...])
    }
  }

  @Test func gcm256WrongKeyFails() {
    let sealed = bytes(Self.gcmSealed)
    #expect(throws: CryptoError.authenticationFailed) {
      try AES.gcm256Open(
        key: SecureBytes([UInt8](repeating: 7, count: 32)), iv: Self.gcmIV,
        ciphertext: sealed[..<45],
        tag: sealed[45...])
    }
  }

  @Test func gcm256RejectsBadLengths() {
    #expect(throws: CryptoError.invalidLength(what: "an AES-256 key", expected: 32, actual: 16)) {
      try AES.gcm256Seal(key: SecureBytes(counting(16)), iv: Self.gcmIV, plaintext: [UInt8]())
    }
    #expect(throws: CryptoError.invalidLength(what: "a GCM tag", expected: 16, actual: 12)) {
      try AES.gcm256Open(key: Self.gcmKey, iv: Self.gcmIV, ciphertext: [UInt8](), tag: counting(12))
    }
  }
}

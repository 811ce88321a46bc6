import CryptoPrimitives
import Testing

@Suite struct PBKDF2Tests {
  // RFC 7914 §11.

  @Test func sha256OneIteration() {
    let key = PBKDF2.hmacSHA256(
      password: utf8("passwd"), salt: utf8("salt"), iterations: 1, keyByteCount: 64)
    #expect(
      key.revealHex()
        == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
  }

  @Test func sha256EightyThousandIterations() {
    let key = PBKDF2.hmacSHA256(
      password: utf8("Password"), salt: utf8("NaCl"), iterations: 80_000, keyByteCount: 64)
    #expect(
      key.revealHex()
        == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
        + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
  }

  // Edge cases cross-checked with Python's hashlib.pbkdf2_hmac (OpenSSL).

  /// A 100-byte password (longer than SHA-256's 64-byte block) and a 70-byte key (three blocks).
  @Test func sha256PasswordLongerThanBlock() {
    let key = PBKDF2.hmacSHA256(
      password: [UInt8](repeating: 0x78, count: 100), salt: utf8("salt"), iterations: 3,
      keyByteCount: 70)
    #expect(
      key.revealHex()
        == "59bfa49750dd5462ce38370a1e7abe0736ff334cf1c2f0d84f23a03435d660d1"
        + "537367bcfb776a103c5ccee2fb714fb7ed7f2563b3eb88c72457fbae9f0191e5"
        + "ec4f19e16620")
  }

  /// A password of exactly one block is used as is; a 200-byte salt spans several blocks.
  @Test func sha256BlockSizedPasswordLongSalt() {
    let key = PBKDF2.hmacSHA256(
      password: [UInt8](repeating: 0x79, count: 64), salt: counting(200), iterations: 5,
      keyByteCount: 32)
    #expect(key.revealHex() == "ab813e14d3cea0f2d134c04e5dfafd44a3bb37310cfc62d2249a7482f56486a8")
  }

  /// The SHA-512 counterpart: a 128-byte password and a 200-byte salt.
  @Test func sha512BlockSizedPasswordLongSalt() {
    let key = PBKDF2.hmacSHA512(
      password: [UInt8](repeating: 0x7a, count: 128), salt: counting(200), iterations: 5,
      keyByteCount: 64)
    #expect(
      key.revealHex()
        == "15b7306b250d143c53b420b0ee9867b29b3d67472eb198d33c3c544f1f057c50"
        + "e77c1d1fc2c3a30e803f636f3f951eced12a68b564e109698f93b5665fecef59")
  }

  // PBKDF2-HMAC-SHA512: widely republished vectors for RFC 6070's inputs, cross-checked with
  // Python's hashlib.pbkdf2_hmac (OpenSSL).

  @Test func sha512OneIteration() {
    let key = PBKDF2.hmacSHA512(
      password: utf8("password"), salt: utf8("salt"), iterations: 1, keyByteCount: 64)
    #expect(
      key.revealHex()
        == "867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252"
        + "c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce")
  }

  @Test func sha512TwoIterations() {
    let key = PBKDF2.hmacSHA512(
      password: utf8("password"), salt: utf8("salt"), iterations: 2, keyByteCount: 64)
    #expect(
      key.revealHex()
        == "e1d9c16aa681708a45f5c7c4e215ceb66e011a2e9f0040713f18aefdb866d53c"
        + "f76cab2868a39b9f7840edce4fef5a82be67335c77a6068e04112754f27ccf4e")
  }

  @Test func sha512LongPasswordAndSalt() {
    let key = PBKDF2.hmacSHA512(
      password: utf8("passwordPASSWORDpassword"),
      salt: utf8("saltSALTsaltSALTsaltSALTsaltSALTsalt"),
      iterations: 4096, keyByteCount: 64)
    #expect(
      key.revealHex()
        == "8c0511f4c6e597c6ac6315d8f0362e225f3c501495ba23b868c005174dc4ee71"
        + "115b59f9e60cd9532fa33e0f75aefe30225c583a186cd82bd4daea9724a3d3b8")
  }

  /// 100 bytes: a second block T_2 (with INT(2) in the first MAC) truncated to 36 bytes.
  @Test func sha512TwoBlocks() {
    let key = PBKDF2.hmacSHA512(
      password: utf8("password"), salt: utf8("salt"), iterations: 2, keyByteCount: 100)
    #expect(
      key.revealHex()
        == "e1d9c16aa681708a45f5c7c4e215ceb66e011a2e9f0040713f18aefdb866d53c"
        + "f76cab2868a39b9f7840edce4fef5a82be67335c77a6068e04112754f27ccf4e"
        + "473e311ad827b68945f4e2dddb204c78e40e2495141e411cd272d020640d673cd34aa29f")
  }

  /// A 200-byte password is longer than SHA-512's 128-byte block, so HMAC hashes it first;
  /// 150 bytes span three blocks.
  @Test func sha512PasswordLongerThanBlock() {
    let key = PBKDF2.hmacSHA512(
      password: [UInt8](repeating: 0x6b, count: 200), salt: utf8("salt"), iterations: 3,
      keyByteCount: 150)
    #expect(
      key.revealHex()
        == "35af7cebd2e1c297550a8cdeae79788b876bbd859d95d49da98b89812d99542e"
        + "35fe4c71ab53970bf637721774594169913c31b29e3a1f03b3d601d30215647f"
        + "3598fddd65d8b2047454b00ab3cf6f920ac4e827ba51db47b4933d90f2471dd8"
        + "de38d9db66558942d3173a387bf36830f06ff6fc76a21083215bb60b13a76115"
        + "e0c434d3dea269165e367cbe7a575c875d636cb749a4")
  }

  /// Embedded NUL bytes are data, and a key shorter than one block is a prefix of T_1.
  @Test func sha512NulBytesShortKey() {
    let key = PBKDF2.hmacSHA512(
      password: utf8("pass\0word"), salt: utf8("sa\0lt"), iterations: 1000, keyByteCount: 16)
    #expect(key.revealHex() == "c50f36d34df3c2310621ce3b3815bb63")
  }

  /// BIP-39's seed for the published abandon…about mnemonic, without and with passphrase "TREZOR".
  @Test func sha512BIP39Seeds() {
    let phrase = SecureBytes(
      utf8:
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
    )
    let plain = PBKDF2.hmacSHA512(
      password: phrase, salt: utf8("mnemonic"), iterations: 2048, keyByteCount: 64)
    #expect(
      plain.revealHex()
        == "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1"
        + "9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4")
    let trezor = PBKDF2.hmacSHA512(
      password: phrase, salt: utf8("mnemonicTREZOR"), iterations: 2048, keyByteCount: 64)
    #expect(
      trezor.revealHex()
        == "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e5349553"
        + "1f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04")
  }

  @Test func zeroLengthKey() {
    let key = PBKDF2.hmacSHA512(
      password: utf8("p"), salt: utf8("s"), iterations: 1, keyByteCount: 0)
    #expect(key.count == 0)
  }
}

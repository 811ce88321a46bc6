import CryptoPrimitives
import Testing

/// FIPS 180-2 appendix examples (one-block, two-block and long messages).
@Suite struct SHA2Tests {
  static let twoBlock256 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
  static let twoBlock512 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

  @Test func sha256Empty() {
    #expect(
      Hex.encode(SHA256.hash([UInt8]()))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  @Test func sha256ABC() {
    #expect(
      Hex.encode(SHA256.hash(utf8("abc")))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  /// The allocation-free form (OpenSSL's) agrees with the libsodium one on every length up
  /// to three blocks, across the padding boundaries at 55/56 and 119/120 bytes.
  @Test func sha256IntoAgrees() {
    for length in 0...192 {
      let message = counting(length)
      var digest = [UInt8](repeating: 0, count: SHA256.byteCount)
      digest.withUnsafeMutableBytes { out in
        message.withUnsafeBytes { SHA256.hash($0, into: out.baseAddress!) }
      }
      #expect(digest == SHA256.hash(message), "\(length) bytes")
    }
  }

  @Test func sha256TwoBlocks() {
    #expect(
      Hex.encode(SHA256.hash(utf8(Self.twoBlock256)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func sha256MillionA() {
    #expect(
      Hex.encode(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func sha512Empty() {
    #expect(
      Hex.encode(SHA512.hash([UInt8]()))
        == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
        + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
  }

  @Test func sha512ABC() {
    #expect(
      Hex.encode(SHA512.hash(utf8("abc")))
        == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
  }

  @Test func sha512TwoBlocks() {
    #expect(
      Hex.encode(SHA512.hash(utf8(Self.twoBlock512)))
        == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
        + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
  }

  @Test func sha512MillionA() {
    #expect(
      Hex.encode(SHA512.hash([UInt8](repeating: 0x61, count: 1_000_000)))
        == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
        + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
  }

  @Test func byteCounts() {
    #expect(SHA256.byteCount == 32)
    #expect(SHA512.byteCount == 64)
  }
}

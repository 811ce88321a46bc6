import CryptoPrimitives
import Testing

/// RFC 4231 §4.2–4.8: HMAC-SHA-256 and HMAC-SHA-512 test cases 1–7.
@Suite struct HMACTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let id: Int
    let key: [UInt8]
    let data: [UInt8]
    let sha256: String
    let sha512: String
    /// Test case 5 publishes only the first 128 bits of each tag.
    var truncatedTo: Int? = nil

    var testDescription: String { "RFC 4231 test case \(id)" }
  }

  static let cases: [Case] = [
    Case(
      id: 1, key: [UInt8](repeating: 0x0b, count: 20), data: utf8("Hi There"),
      sha256: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
      sha512: "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
        + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
    Case(
      id: 2, key: utf8("Jefe"), data: utf8("what do ya want for nothing?"),
      sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      sha512: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
        + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
    Case(
      id: 3, key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
      sha256: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
      sha512: "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
        + "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"),
    Case(
      id: 4, key: bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"),
      data: [UInt8](repeating: 0xcd, count: 50),
      sha256: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
      sha512: "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
        + "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
    Case(
      id: 5, key: [UInt8](repeating: 0x0c, count: 20), data: utf8("Test With Truncation"),
      sha256: "a3b6167473100ee06e0c796c2955552b",
      sha512: "415fad6271580a531d4179bc891d87a6", truncatedTo: 16),
    Case(
      id: 6, key: [UInt8](repeating: 0xaa, count: 131),
      data: utf8("Test Using Larger Than Block-Size Key - Hash Key First"),
      sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
      sha512: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
        + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
    Case(
      id: 7, key: [UInt8](repeating: 0xaa, count: 131),
      data: utf8(
        "This is a test using a larger than block-size key and a larger than block-size data."
          + " The key needs to be hashed before being used by the HMAC algorithm."),
      sha256: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
      sha512: "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
        + "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
  ]

  @Test(arguments: cases) func hmacSHA256(_ c: Case) {
    let tag = HMACSHA256.authenticate(key: c.key, message: c.data)
    #expect(tag.count == HMACSHA256.byteCount)
    #expect(tag[0..<(c.truncatedTo ?? tag.count)].revealHex() == c.sha256)
  }

  @Test(arguments: cases) func hmacSHA512(_ c: Case) {
    let tag = HMACSHA512.authenticate(key: c.key, message: c.data)
    #expect(tag.count == HMACSHA512.byteCount)
    #expect(tag[0..<(c.truncatedTo ?? tag.count)].revealHex() == c.sha512)
  }

  /// A key held in SecureBytes gives the same tag as the same key in an array.
  @Test func secureBytesKey() {
    let tag = HMACSHA512.authenticate(
      key: SecureBytes(utf8: "Jefe"), message: utf8("what do ya want for nothing?"))
    #expect(tag.revealHex() == Self.cases[1].sha512)
  }

  /// The kept-pads form (one block of message) gives RFC 4231's tags for cases 1–6, whose data
  /// fit one block; case 6's 131-byte key is hashed first.
  @Test(arguments: cases.filter { $0.data.count <= HMACSHA512.maxOneBlockMessageByteCount })
  func hmacSHA512WithPads(_ c: Case) {
    let tag = Self.tagWithPads(key: c.key, message: c.data)
    #expect(Hex.encode(tag.prefix(c.truncatedTo ?? tag.count)) == c.sha512)
  }

  /// Every message length one block holds, under keys shorter than, as long as and longer
  /// than a block, against libsodium's HMAC: the padding of the inner and outer blocks.
  @Test(arguments: [0, 12, 32, 128, 129])
  func padsAgreeWithLibsodium(keyLength: Int) {
    let key = counting(keyLength).map { $0 ^ 0x5a }
    for length in 0...HMACSHA512.maxOneBlockMessageByteCount {
      let message = counting(length)
      let expected = HMACSHA512.authenticate(key: key, message: message).revealHex()
      #expect(
        Hex.encode(Self.tagWithPads(key: key, message: message)) == expected,
        "key \(keyLength) bytes, message \(length) bytes")
    }
  }

  /// One set of pads serves many messages: the state they hold is not consumed.
  @Test func padsAreReusable() {
    let key = counting(32)
    var pads = [UInt8](repeating: 0, count: HMACSHA512.padsByteCount)
    pads.withUnsafeMutableBytes { out in
      key.withUnsafeBytes { HMACSHA512.preparePads(key: $0, into: out.baseAddress!) }
    }
    for length in [37, 0, 64, 37] {
      let message = counting(length)
      var tag = [UInt8](repeating: 0, count: HMACSHA512.byteCount)
      tag.withUnsafeMutableBytes { tag in
        pads.withUnsafeBytes { pads in
          message.withUnsafeBytes {
            HMACSHA512.authenticate($0, pads: pads.baseAddress!, into: tag.baseAddress!)
          }
        }
      }
      #expect(tag == Self.libsodiumTag(key: key, message: message), "message \(length) bytes")
    }
  }

  private static func tagWithPads(key: [UInt8], message: [UInt8]) -> [UInt8] {
    var pads = [UInt8](repeating: 0, count: HMACSHA512.padsByteCount)
    var tag = [UInt8](repeating: 0, count: HMACSHA512.byteCount)
    pads.withUnsafeMutableBytes { out in
      key.withUnsafeBytes { HMACSHA512.preparePads(key: $0, into: out.baseAddress!) }
    }
    tag.withUnsafeMutableBytes { tag in
      pads.withUnsafeBytes { pads in
        message.withUnsafeBytes {
          HMACSHA512.authenticate($0, pads: pads.baseAddress!, into: tag.baseAddress!)
        }
      }
    }
    return tag
  }

  private static func libsodiumTag(key: [UInt8], message: [UInt8]) -> [UInt8] {
    bytes(HMACSHA512.authenticate(key: key, message: message).revealHex())
  }
}

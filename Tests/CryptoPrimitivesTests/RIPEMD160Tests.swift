import CryptoPrimitives
import Testing

/// The examples of Dobbertin, Bosselaers and Preneel, "RIPEMD-160: A Strengthened Version of RIPEMD".
@Suite struct RIPEMD160Tests {
  @Test(arguments: [
    ("", "9c1185a5c5e9fc54612808977ee8f548b2258d31"),
    ("a", "0bdc9d2d256b3ee9daae347be6f4dc835a467ffe"),
    ("abc", "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"),
    ("message digest", "5d0689ef49d2fae572b881b123a85ffa21595f36"),
    ("abcdefghijklmnopqrstuvwxyz", "f71c27109c692c1b56bbdceb5b9d2865b3708dbc"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "12a053384a9c0c88e405a06c27dcf49ada62eb2b"
    ),
    (
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
      "b0e20b6e3116640286ed3a87a5713079b21f5189"
    ),
    (String(repeating: "1234567890", count: 8), "9b752e45573d4b39f4dbd3323cab82bf63326bfb"),
  ])
  func paperExample(_ message: String, _ digest: String) {
    #expect(Hex.encode(RIPEMD160.hash(utf8(message))) == digest)
  }

  @Test func millionA() {
    #expect(
      Hex.encode(RIPEMD160.hash([UInt8](repeating: 0x61, count: 1_000_000)))
        == "52783243c1697bdbe16d37f97f68f08325dc1528")
  }
}

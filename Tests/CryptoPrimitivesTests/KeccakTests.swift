import CryptoPrimitives
import Testing

/// Keccak-256 (the pre-FIPS padding Ethereum uses), values from pycryptodome's keccak.
/// 136 bytes is the rate, so 135/136/137 and 272 probe the padding and block boundaries.
@Suite struct KeccakTests {
  @Test func empty() {
    #expect(
      Hex.encode(Keccak256.hash([UInt8]()))
        == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
  }

  @Test func abc() {
    #expect(
      Hex.encode(Keccak256.hash(utf8("abc")))
        == "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
  }

  @Test(arguments: [
    (135, "cbdfd9dee5faad3818d6b06f95a219fd290b0e1706f6a82e5a595b9ce9faca62"),
    (136, "7ce759f1ab7f9ce437719970c26b0a66ff11fe3e38e17df89cf5d29c7d7f807e"),
    (137, "ac73d4fae68b8453f764007c1a20ce95994187861f0c3227a3a8e99a73a3b1db"),
    (272, "fdf2ec49e749960d3c8521a0219af8d03e30e2b3bf19bd16150ee0eaf133d66e"),
  ])
  func blockBoundaries(_ count: Int, _ digest: String) {
    #expect(Hex.encode(Keccak256.hash(counting(count))) == digest)
  }

}

import CryptoPrimitives
import Testing

@Test func keccakEmpty() {
  #expect(Hex.encode(Keccak256.hash([UInt8]())) == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
}

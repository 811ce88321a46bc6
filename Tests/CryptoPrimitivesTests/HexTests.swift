import CryptoPrimitives
import Testing

@Suite struct HexTests {
  @Test func encodesLowercase() {
    #expect(Hex.encode([0x00, 0x01, 0x7f, 0x80, 0xab, 0xff]) == "00017f80abff")
    #expect(Hex.encode([UInt8]()) == "")
  }

  @Test func roundTripsEveryByte() {
    let all = counting(256)
    let text = Hex.encode(all)
    #expect(text.count == 512)
    #expect(Hex.decode(text) == all)
  }

  @Test(
    arguments: [
      ("00ff", [0x00, 0xff]),
      ("ABcd", [0xab, 0xcd]),
      ("0x0102", [0x01, 0x02]),
      ("0X0a", [0x0a]),
      ("", []),
      ("0x", []),
    ] as [(String, [UInt8])])
  func decodes(_ text: String, _ expected: [UInt8]) {
    #expect(Hex.decode(text) == expected)
  }

  @Test(arguments: ["0", "abc", "0x1", "zz", "0g", " 00", "00 ", "0x0x00", "+1", "é"])
  func rejects(_ text: String) {
    #expect(Hex.decode(text) == nil)
  }

  @Test func decodesSubstring() {
    let text = "xx0a0b"
    #expect(Hex.decode(text.dropFirst(2)) == [0x0a, 0x0b])
  }
}

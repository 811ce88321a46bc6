import CryptoPrimitives
import Testing
import VaultKeys

@Suite struct Base58Tests {
  @Test(arguments: [
    ("", ""), ("00", "1"), ("0000ff", "115Q"), ("61", "2g"), ("626262", "a3gV"),
    ("516b6fcd0f", "ABnLTmg"),
    ("00eb15231dfceb60925886b67d065299925915aeb172c06647", "1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L"),
  ])
  func roundTrip(hex: String, text: String) throws {
    let bytes = try #require(Hex.decode(hex))
    #expect(Base58.encode(bytes) == text)
    #expect(Base58.decode(text) == bytes)
  }

  @Test func rejectsCharactersOutsideTheAlphabet() {
    for text in ["0", "O", "I", "l", "abc!", "é"] { #expect(Base58.decode(text) == nil, "\(text)") }
  }

  @Test func checkDetectsCorruption() throws {
    let text = Base58.encodeCheck([0, 1, 2, 3])
    #expect(Base58.decodeCheck(text) == [0, 1, 2, 3])
    var chars = Array(text)
    chars[chars.count - 1] = chars.last == "2" ? "3" : "2"
    #expect(Base58.decodeCheck(String(chars)) == nil)
  }
}

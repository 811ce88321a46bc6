import FreedomNodes
import Testing
import VaultKeys

/// profile.json's slot as desktop Freedom reads it (issue 19 item 1): `JSON.parse` keeps the
/// last of two members with one name, `Number.isInteger(2.0)` is true. On 5001ebb the first
/// two cases gave nil (so Radicle's key went to radicle-data while desktop reads R/2).
@Suite struct DesktopProfileMetadataTests {
  private func slot(_ text: String) throws(DesktopProfileMetadataError) -> Int? {
    try DesktopProfileMetadata(json: Array(text.utf8)).slot
  }

  @Test func theLastMemberWinsAndIntegralNumbersAreIntegers() throws {
    #expect(try slot(#"{"slot": 1, "slot": 2}"#) == 2)
    #expect(try slot(#"{"slot": 2, "slot": "x"}"#) == nil)
    #expect(try slot(#"{"slot": 2.0}"#) == 2)
    #expect(try slot(#"{"slot": 2e0}"#) == 2)
    #expect(try slot(#"{"slot": 20e-1}"#) == 2)
    #expect(try slot(#"{"slot": 2.000000000000000001}"#) == 2)  // the nearest double is 2
    #expect(try slot(#"{"slot": -0}"#) == 0)
    #expect(try slot(#"{"slot": -1}"#) == -1)  // desktop's R/-1
    #expect(try slot(#"{"slot": 9007199254740991}"#) == 9_007_199_254_740_991)
    #expect(try slot(#"{"nodes": {"slot": 3}, "slot": 4}"#) == 4)
  }

  @Test func whatIsNoIntegerMeansNoSlot() throws {
    for text in [
      #"{"slot": 2.5}"#, #"{"slot": "2"}"#, #"{"slot": null}"#, #"{"slot": true}"#,
      #"{"slot": [2]}"#, #"{"slot": 1e400}"#, #"{"slot": -1e400}"#, #"{"Slot": 2}"#, "{}",
      "[2]", "2", #""slot""#,
    ] {
      #expect(try slot(text) == nil, "\(text)")
    }
  }

  @Test func whatDesktopCannotReadIsRefused() {
    #expect(throws: DesktopProfileMetadataError.nullDocument) { try slot("null") }
    #expect(throws: DesktopProfileMetadataError.slotOutOfRange) {
      try slot(#"{"slot": 9007199254740992}"#)
    }
    #expect(throws: DesktopProfileMetadataError.slotOutOfRange) { try slot(#"{"slot": -1e300}"#) }
    for text in ["not json", "\u{FEFF}{\"slot\": 1}", #"{"slot": 1,}"#, ""] {
      #expect(throws: DesktopProfileMetadataError.self, "\(text)") { try slot(text) }
    }
  }

  @Test func theLenientReaderAgreesWhereDesktopReadsASlot() {
    #expect(DesktopProfileMetadata.slot(json: Array(#"{"slot": 1, "slot": 2}"#.utf8)) == 2)
    #expect(DesktopProfileMetadata.slot(json: Array(#"{"slot": 2.0}"#.utf8)) == 2)
    #expect(DesktopProfileMetadata.slot(json: Array("null".utf8)) == nil)
  }
}

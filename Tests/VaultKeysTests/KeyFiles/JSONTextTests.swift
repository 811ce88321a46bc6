import Testing

@testable import VaultKeys

private func parse(_ text: String) -> Result<JSONNode, JSONSyntaxError> {
  Array(text.utf8).withUnsafeBytes { bytes in
    do throws(JSONSyntaxError) {
      return .success(try JSONText.parse(bytes))
    } catch {
      return .failure(error)
    }
  }
}

@Suite struct JSONTextTests {
  @Test(arguments: [
    "", "{", "{\"a\":1,}", "[1,]", "01", "1.", "-", "1e", "+1", "tru", "\"a", "\"\\x\"",
    "\"\\u12\"",
    "\"a\u{01}b\"", "{} {}", "{'a':1}", "[1 2]", "{\"a\" 1}", "NaN",
  ])
  func rejects(_ text: String) {
    guard case .failure = parse(text) else {
      Issue.record("accepted \(text.debugDescription)")
      return
    }
  }

  @Test(arguments: [
    "0", "-0", "1.5e-3", "1E+2", "true", "null", " [ ] ", "{\"\":{}}",
    "\"\\/\\b\\f\\n\\r\\t\\\\\\\"\"",
  ])
  func accepts(_ text: String) throws {
    _ = try parse(text).get()
  }

  @Test func decodesEscapesIncludingSurrogatePairs() throws {
    let text = #""caf\u00e9 \ud83d\ude00 \ud800 \"q\" \\ \/""#
    let bytes = Array(text.utf8)
    let decoded = try bytes.withUnsafeBytes { raw in
      JSONText.string(try JSONText.parse(raw), in: raw)
    }
    #expect(decoded == "café 😀 \u{FFFD} \"q\" \\ /")
  }

  @Test func nestingIsBounded() {
    let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    guard case .failure(let error) = parse(deep) else {
      Issue.record("accepted 200 levels")
      return
    }
    #expect(error.description == "invalid JSON at byte 129: nesting deeper than 128")
    #expect(
      (try? parse(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).get())
        != nil)
  }

  @Test func unsignedIntegers() throws {
    let cases: [(String, UInt64?)] = [
      ("0", 0), ("262144", 262144), ("18446744073709551615", .max), ("18446744073709551616", nil),
      ("-1", nil), ("1.0", nil), ("1e3", nil), ("\"3\"", nil),
    ]
    for (text, expected) in cases {
      let bytes = Array(text.utf8)
      let value = try bytes.withUnsafeBytes { raw in
        JSONText.unsignedInteger(try JSONText.parse(raw), in: raw)
      }
      #expect(value == expected, "\(text)")
    }
  }

  @Test func quotedEscapesLikeGo() {
    #expect(
      String(decoding: JSONText.quoted("a\"b\\c\n<&>\u{01}é"), as: UTF8.self)
        == #""a\"b\\c\n\u003c\u0026\u003e\u0001é""#)
  }
}

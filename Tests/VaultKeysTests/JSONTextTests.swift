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
    let text = #""caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \u0000""#
    let bytes = Array(text.utf8)
    let decoded = try bytes.withUnsafeBytes { raw in
      JSONText.string(try JSONText.parse(raw), in: raw)
    }
    #expect(decoded == "café 😀 \"q\" \\ / \u{0}")
  }

  /// Each class of text that is not strict RFC 8259 JSON in UTF-8, with the one-line reason.
  @Test(
    arguments: [
      (
        [0xEF, 0xBB, 0xBF] + Array("{}".utf8), 0,
        "the text starts with a byte-order mark (U+FEFF); save it as UTF-8 without one"
      ),
      ([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], 0, "the text is UTF-16; save it as UTF-8"),
      ([0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D], 0, "the text is UTF-16; save it as UTF-8"),
      ([0x7B, 0x00, 0x7D, 0x00], 0, "the text is UTF-16; save it as UTF-8"),
      ([0x00, 0x7B, 0x00, 0x7D], 0, "the text is UTF-16; save it as UTF-8"),
      (
        [0x7B, 0x00, 0x00, 0x00, 0x7D, 0x00, 0x00, 0x00], 0, "the text is UTF-32; save it as UTF-8"
      ),
      (
        [0x00, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00, 0x7D], 0, "the text is UTF-32; save it as UTF-8"
      ),
      (
        [0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00], 0, "the text is UTF-32; save it as UTF-8"
      ),
      ([0x22, 0xFE, 0x22], 1, "invalid UTF-8; the file must be UTF-8 text"),
      ([0x22, 0xC3, 0x22], 1, "invalid UTF-8; the file must be UTF-8 text"),
      ([0x22, 0xC0, 0xAF, 0x22], 1, "invalid UTF-8; the file must be UTF-8 text"),
      ([0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8; the file must be UTF-8 text"),
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8; the file must be UTF-8 text"),
      ([0x22, 0xE2, 0x82], 1, "invalid UTF-8 at the end"),
      ([0x22, 0xFF, 0x22], 1, "invalid UTF-8; the file must be UTF-8 text"),
      ([0x5B, 0xC3, 0xA9, 0x5D], 1, "non-ASCII byte outside a string; is the file UTF-8 JSON?"),
      (Array(#"{"a":1,}"#.utf8), 7, "trailing comma before '}'"),
      (Array("[1, ]".utf8), 4, "trailing comma before ']'"),
      (Array("{\"a\":1 // note\n}".utf8), 7, "comments are not allowed in JSON"),
      (Array("/* c */ {}".utf8), 0, "comments are not allowed in JSON"),
      (Array("[1, # c\n 2]".utf8), 4, "comments are not allowed in JSON"),
      (Array("{'a': 1}".utf8), 1, "strings must use double quotes"),
      (Array(#"{"a":1,"a":2}"#.utf8), 7, "the member \"a\" appears twice in one object"),
      (
        Array(#"{"x":{"a\u0062":1,"ab":1}}"#.utf8), 18,
        "the member \"ab\" appears twice in one object"
      ),
      (Array(#""\ud800""#.utf8), 1, "lone high surrogate escape (no low surrogate after it)"),
      (Array(#""\ud800\u0041""#.utf8), 1, "lone high surrogate escape (no low surrogate after it)"),
      (Array(#""a\udc00""#.utf8), 2, "lone low surrogate escape"),
      (Array("\"a\u{01}b\"".utf8), 2, "control character in a string; escape it"),
    ] as [([UInt8], Int, String)])
  func refusesWithAReason(bytes: [UInt8], offset: Int, problem: String) {
    let result = bytes.withUnsafeBytes { raw -> JSONSyntaxError? in
      do throws(JSONSyntaxError) {
        _ = try JSONText.parse(raw)
        return nil
      } catch {
        return error
      }
    }
    #expect(result == JSONSyntaxError(offset: offset, problem: problem))
  }

  @Test func sizeIsBounded() {
    let big = [UInt8](repeating: 0x20, count: JSONText.maximumByteCount) + [0x30]
    let error = big.withUnsafeBytes { raw -> JSONSyntaxError? in
      do throws(JSONSyntaxError) {
        _ = try JSONText.parse(raw)
        return nil
      } catch {
        return error
      }
    }
    #expect(error?.problem == "the text is larger than 4 MiB")
    #expect(
      (try? parse(String(repeating: " ", count: JSONText.maximumByteCount - 1) + "0").get()) != nil)
  }

  @Test func validMultibyteUTF8IsAccepted() throws {
    let text = "\"é あ 😀 \u{10FFFF}\""
    let decoded = try Array(text.utf8).withUnsafeBytes { raw in
      JSONText.string(try JSONText.parse(raw), in: raw)
    }
    #expect(decoded == "é あ 😀 \u{10FFFF}")
  }

  @Test func positionsCoverEachValueExactly() throws {
    let text = #" {"a" : [1, "x\n"], "b":{"c":null}} "#
    let bytes = Array(text.utf8)
    try bytes.withUnsafeBytes { raw in
      let root = try JSONText.parse(raw)
      func source(_ node: JSONNode) -> String {
        String(decoding: bytes[node.range], as: UTF8.self)
      }
      #expect(source(root) == #"{"a" : [1, "x\n"], "b":{"c":null}}"#)
      let a = try #require(root.member(exactly: "a"))
      #expect(String(decoding: bytes[a.nameRange], as: UTF8.self) == #""a""#)
      #expect(source(a.value) == #"[1, "x\n"]"#)
      guard case .array(let elements) = a.value.kind else {
        Issue.record("not an array")
        return
      }
      #expect(elements.map(source) == ["1", #""x\n""#])
      let c = try #require(root.member(exactly: "b")?.value.member(exactly: "c"))
      #expect(source(c.value) == "null")
    }
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

  @Test func writerEscapesWhatRFC8259Requires() {
    #expect(
      JSONValue.quoted("a\"b\\c\n<&>\u{01}\u{08}\u{0C}\té\u{7F}")
        == #""a\"b\\c\n<&>\u0001\b\f\té\#u{7F}""#)
  }

  /// Whatever the writer emits, the reader reads back to the same value.
  @Test func writerOutputReadsBack() throws {
    let texts = ["", "plain", "\u{0}\u{1F}\"\\/", "é あ 😀", String(repeating: "\n", count: 3)]
    for text in texts {
      let object: JSONValue = .object([
        "k": .string(text), "n": .number(7), "a": .array([.bool(true)]),
      ])
      for rendering in [object.rendered(), object.compact] {
        let bytes = Array(rendering.utf8)
        let back = try bytes.withUnsafeBytes { raw in
          let root = try JSONText.parse(raw)
          return JSONText.string(try #require(root.member(exactly: "k")).value, in: raw)
        }
        #expect(back == text)
      }
    }
    #expect(JSONValue.object(["a": .array([]), "b": .object([:])]).compact == #"{"a":[],"b":{}}"#)
  }
}

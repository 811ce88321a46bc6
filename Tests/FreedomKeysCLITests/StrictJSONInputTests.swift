import Foundation
import Testing

/// Issue 8, reproducer 1: a Radicle `config.json` that is not plain UTF-8 JSON is refused with
/// one line naming the problem, and nothing is written: no key, no temp file, the config as it was.
@Suite("strict JSON input")
struct StrictJSONInputTests {
  static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
    text.utf16.flatMap { unit -> [UInt8] in
      let bytes = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      return bigEndian ? bytes.reversed() : bytes
    }
  }

  static func utf32LE(_ text: String) -> [UInt8] {
    text.unicodeScalars.flatMap { s -> [UInt8] in
      (0..<4).map { UInt8(truncatingIfNeeded: s.value >> (8 * $0)) }
    }
  }

  static let bomUTF8 = [0xEF, 0xBB, 0xBF] + Array(#"{"node":{"alias":"old"},"x":1}"#.utf8)

  @Test(
    arguments: [
      (
        utf16(#"{ "a": 1 }"#, bigEndian: false),
        "invalid JSON at byte 0: the text is UTF-16; save it as UTF-8"
      ),
      (
        [0xFF, 0xFE] + utf16(#"{"a":1}"#, bigEndian: false),
        "invalid JSON at byte 0: the text is UTF-16; save it as UTF-8"
      ),
      (
        utf16(#"{"node":{"alias":"old"}}"#, bigEndian: true),
        "invalid JSON at byte 0: the text is UTF-16; save it as UTF-8"
      ),
      (utf32LE(#"{"node":{}}"#), "invalid JSON at byte 0: the text is UTF-32; save it as UTF-8"),
      (
        bomUTF8,
        "invalid JSON at byte 0: the text starts with a byte-order mark (U+FEFF); save it as UTF-8 without one"
      ),
      (
        Array(#"{"node":{"alias":"old"},}"#.utf8),
        "invalid JSON at byte 24: trailing comma before '}'"
      ),
      (
        Array("{\"node\":{\"alias\":\"old\"} /* c */}".utf8),
        "invalid JSON at byte 24: comments are not allowed in JSON"
      ),
      (
        Array(#"{"node":{"alias":"\udc00"}}"#.utf8),
        "invalid JSON at byte 18: lone low surrogate escape"
      ),
      (
        [0x7B, 0x22, 0x6E, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D],
        "invalid JSON at byte 6: invalid UTF-8; the file must be UTF-8 text"
      ),
    ] as [([UInt8], String)])
  func radicleConfigThatIsNotUTF8JSONIsRefused(config: [UInt8], problem: String) throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    try makeDirectory(home)
    _ = try fixture.directory.file("radicle/config.json", Data(config), mode: 0o644)
    let run = try fixture.run(["export", "radicle", "--home", home, "--alias", "bob"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: cannot set the alias in \(home)/config.json: it is not valid JSON (\(problem)); fix it or move it away first\n"
    )
    #expect(tree(home) == ["config.json"])
    #expect(contents(home + "/config.json") == config)
  }
}

import FreedomNodes
import Testing
import VaultKeys

@Suite struct RadicleConfigTests {
  /// Every byte outside the alias value is kept: odd spacing, unknown members, number spelling,
  /// escapes elsewhere, CRLF line ends and non-ASCII text.
  @Test func aliasEditKeepsEveryOtherByte() throws {
    let before =
      "{\r\n\t\"preferredSeeds\" : [ \"z6Mk…@seed.radicle.xyz:8776\" ],\r\n"
      + "\t\"node\" :{ \"alias\"  :  \"old\\u0021\" , \"listen\":[],\"n\": 1.50E+2 },"
      + "\"cli\": {\"hints\": true, \"note\": \"héllo \\\"x\\\"\"}\r\n}"
    let bytes = Array(before.utf8)
    let config = try RadicleConfig(json: bytes)
    #expect(config.alias == "old!")
    let after = try config.settingAlias("bob\"é")
    let expected = Array(before.replacingOccurrences(of: #""old\u0021""#, with: #""bob\"é""#).utf8)
    #expect(after == expected)
    #expect(try RadicleConfig(json: after).alias == "bob\"é")
  }

  @Test(arguments: [
    ("{\"node\": {\"listen\": []}}", "{\"node\": {\"alias\": \"bob\", \"listen\": []}}"),
    (
      "{\n  \"node\": {\n    \"x\": 1\n  }\n}",
      "{\n  \"node\": {\n    \"alias\": \"bob\",\n    \"x\": 1\n  }\n}"
    ),
    ("{\n  \"cli\": {}\n}", "{\n  \"node\": {\"alias\": \"bob\"},\n  \"cli\": {}\n}"),
    ("{}", "{ \"node\": {\"alias\": \"bob\"} }"),
    ("{\"node\":{}}", "{\"node\":{ \"alias\": \"bob\" }}"),
  ])
  func missingMembersAreInserted(before: String, after: String) throws {
    let edited = try RadicleConfig(json: Array(before.utf8)).settingAlias("bob")
    #expect(String(decoding: edited, as: UTF8.self) == after)
    #expect(try RadicleConfig(json: edited).alias == "bob")
  }

  @Test func newConfigHoldsOnlyTheAlias() throws {
    let bytes = try RadicleConfig.new(alias: "a\\b")
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "{\n  \"node\": {\n    \"alias\": \"a\\\\b\"\n  }\n}\n")
    #expect(try RadicleConfig(json: bytes).alias == "a\\b")
  }

  @Test(arguments: [
    ("[1]", RadicleConfigError.notAnObject),
    ("{\"node\": 1}", .nodeNotAnObject),
    ("{\"node\": {\"alias\": null}}", .aliasNotAString),
    (
      "{\"node\": {}, \"node\": {}}",
      .invalidJSON("invalid JSON at byte 13: the member \"node\" appears twice in one object")
    ),
    (
      "{\"node\": {\"alias\": \"a\", \"alias\": \"b\"}}",
      .invalidJSON("invalid JSON at byte 24: the member \"alias\" appears twice in one object")
    ),
    ("{\"node\": {},}", .invalidJSON("invalid JSON at byte 12: trailing comma before '}'")),
  ])
  func refusals(json: String, error: RadicleConfigError) {
    #expect(throws: error) { try RadicleConfig(json: Array(json.utf8)) }
  }

  @Test func aliasRules() throws {
    #expect(RadicleConfig.aliasProblem("alice") == nil)
    #expect(RadicleConfig.aliasProblem(String(repeating: "é", count: 16)) == nil)
    #expect(RadicleConfig.aliasProblem("") == "the alias cannot be empty")
    #expect(
      RadicleConfig.aliasProblem(String(repeating: "a", count: 33))
        == "the alias cannot be longer than 32 bytes")
    #expect(
      RadicleConfig.aliasProblem("a b")
        == "the alias cannot contain whitespace or control characters")
    #expect(throws: RadicleConfigError.invalidAlias("the alias cannot be empty")) {
      try RadicleConfig.new(alias: "")
    }
    #expect(throws: RadicleConfigError.invalidAlias("the alias cannot be empty")) {
      try RadicleConfig(json: Array("{}".utf8)).settingAlias("")
    }
  }
}

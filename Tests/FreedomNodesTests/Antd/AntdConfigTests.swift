import CryptoPrimitives
import FreedomNodes
import Testing
import VaultKeys

private func config(_ text: String) throws(AntdConfigError) -> AntdConfig {
  try AntdConfig(yaml: SecureBytes(Array(text.utf8)))
}

private func string(_ bytes: SecureBytes?) -> String? {
  bytes?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

private func error(_ text: String) -> AntdConfigError? {
  do {
    _ = try config(text)
    return nil
  } catch {
    return error
  }
}

/// The file desktop Freedom's ant-manager writes (buildAntConfigContent, ultra-light mode).
private let desktop = """
  # Ant node configuration (bee-compatible keys)
  api-addr: 127.0.0.1:11633
  p2p-addr: :12633
  swap-enable: false
  mainnet: true
  full-node: false
  blockchain-rpc-endpoint: ""
  skip-postage-snapshot: true
  resolver-options: "https://ethereum.publicnode.com"
  storage-incentives-enable: false
  data-dir: /home/u/.config/Freedom/ant-data
  password: 3f1c2a9b8d7e6f5041322314a5b6c7d8e9f00112233445566778899aabbccdde

  """

@Suite struct AntdConfigTests {
  @Test func readsDesktopsFile() throws {
    let read = try config(desktop)
    #expect(
      string(read.password) == "3f1c2a9b8d7e6f5041322314a5b6c7d8e9f00112233445566778899aabbccdde")
    #expect(read.dataDir == "/home/u/.config/Freedom/ant-data")
    #expect(read.passwordFile == nil)
  }

  @Test func scalarShapes() throws {
    #expect(string(try config("password: hunter2 # old\n").password) == "hunter2")
    #expect(string(try config("password:   spaced   \r\n").password) == "spaced")
    #expect(string(try config("password: \"a b#c\"\n").password) == "a b#c")
    #expect(string(try config("password: \"q\\\"uo\\\\te\"\n").password) == "q\"uo\\te")
    #expect(string(try config("password: 'single quoted'\n").password) == "single quoted")
    #expect(try config("password:\n").password == nil)
    #expect(try config("password: ~\n").password == nil)
    #expect(try config("api-addr: x\n").password == nil)
    #expect(try config("password-file: /run/pw\n").passwordFile == "/run/pw")
    // Indented lines belong to other keys and are not top-level passwords.
    #expect(try config("resolver-options:\n  password: nested\n").password == nil)
  }

  @Test func refusesWhatItCannotReadSafely() {
    #expect(error("password: a\npassword: b\n") == .duplicateKey("password", line: 2))
    #expect(
      error("password: |\n  block\n")
        == .unsupported(
          "a block scalar (| or >) as the value of 'password'", line: 1))
    #expect(
      error("password:\n  continued\n")
        == .unsupported(
          "the value of 'password' continuing on the next line", line: 2))
    #expect(
      error("{password: x}\n")
        == .unsupported(
          "a flow collection ({ … } or [ … ]) where a key should be", line: 1))
    #expect(error("password: 12345\n") == .ambiguousPassword(line: 1))
    #expect(error("password: true\n") == .ambiguousPassword(line: 1))
    #expect(
      error("password: \"bad\\qescape\"\n")
        == .unsupported(
          "an unknown escape in a double-quoted scalar", line: 1))
  }

  @Test func settingThePasswordKeepsEveryOtherByte() throws {
    let read = try config(desktop)
    let edited = try read.settingPassword(SecureBytes(Array("abcdef0123".utf8)))
    let expected = desktop.replacingPassword(with: "abcdef0123")
    #expect(string(edited) == expected)
    #expect(string(try AntdConfig(yaml: edited).password) == "abcdef0123")
  }

  @Test func settingThePasswordAppendsALineWhenThereIsNone() throws {
    let withNewline = try config("api-addr: 127.0.0.1:1633\r\n")
    #expect(
      string(try withNewline.settingPassword(SecureBytes(Array("pw1".utf8))))
        == "api-addr: 127.0.0.1:1633\r\npassword: pw1\n")
    let without = try config("mainnet: true")
    #expect(
      string(try without.settingPassword(SecureBytes(Array("kpass".utf8))))
        == "mainnet: true\npassword: kpass\n")
    #expect(
      string(try AntdConfig.fresh(password: SecureBytes(Array("kpass".utf8))))
        == "password: kpass\n")
  }

  @Test func passwordsThatNeedQuotesAreQuotedAndReadBack() throws {
    for password in [
      "12345", "true", "with space", "quo\"te", "back\\slash", "#hash", "e1", "ü-umlaut",
    ] {
      let written = try AntdConfig.fresh(password: SecureBytes(Array(password.utf8)))
      #expect(string(try AntdConfig(yaml: written).password) == password, "\(password)")
    }
    #expect(throws: AntdConfigError.controlCharacterInPassword) {
      try AntdConfig.fresh(password: SecureBytes(Array("line\nbreak".utf8)))
    }
    #expect(throws: AntdConfigError.emptyPassword) {
      try AntdConfig.fresh(password: SecureBytes(count: 0) { _ in })
    }
  }

  @Test func generatedPasswordsAreDesktopShapedAndPlain() throws {
    for _ in 0..<20 {
      let password = AntdConfig.generatePassword()
      let text = try #require(string(password))
      #expect(text.count == 64)
      #expect(text.allSatisfy { "0123456789abcdef".contains($0) })
      #expect(string(try AntdConfig.fresh(password: password)) == "password: \(text)\n")
    }
  }

  @Test func passwordFilesLoseTrailingLineEndsOnly() {
    let content = SecureBytes(Array(" pw \r\n\n\r".utf8))
    #expect(string(AntdConfig.passwordFromFile(content)) == " pw ")
  }
}

extension String {
  fileprivate func replacingPassword(with password: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.hasPrefix("password:") ? "password: \(password)" : String($0)
    }.joined(separator: "\n")
  }
}

@Suite struct AntdConfigYAMLResolverTests {
  @Test func numbersBooleansAndNullsAreRecognised() {
    for word in [
      "12", "-3", "1_000", "0777", "0o17", "0x1F", "0b101", "1:20", "1.5", ".5", "1e5", "6.02E+23",
      "YES", "off", "~", ".NaN",
    ] {
      #expect(AntdConfig.resolvesToNonString(word), "\(word)")
    }
    for word in ["3f1c2a9b", "e", "1x", "abc", "1.2.3a", "0xZZ", "hunter2"] {
      #expect(!AntdConfig.resolvesToNonString(word), "\(word)")
    }
  }
}

/// config.yaml read as YAML (issue 16 item 6): every shape here is valid YAML that serde_yaml
/// and PyYAML read with this password; 5001ebb read none of the first three (and appended a
/// second `password:` line antd then refused).
@Suite struct AntdConfigYAMLShapeTests {
  @Test func shapesTheIssueNamed() throws {
    #expect(string(try config("password :  X\n").password) == "X")
    #expect(string(try config("\u{FEFF}password: bom\n").password) == "bom")
    #expect(string(try config("  api-addr: :1633\n  password: indented\n").password) == "indented")
  }

  @Test func spacingCommentsAndLineBreaks() throws {
    let text = "# c\r\n\r\napi-addr: 127.0.0.1:1633   # api\r\npassword   :   pw-1   # p\r\n"
    #expect(string(try config(text).password) == "pw-1")
    #expect(string(try config("---\npassword: afterMarker\n").password) == "afterMarker")
    #expect(string(try config("password: no-final-break").password) == "no-final-break")
    #expect(string(try config("password: a#b\n").password) == "a#b")
    #expect(string(try config("p2p-addr: :1634\npassword: -dash\n").password) == "-dash")
  }

  @Test func quotedScalarsAndKeys() throws {
    #expect(string(try config("password: 'it''s'\n").password) == "it's")
    #expect(string(try config("password: 'a \"b\" \\\\n'\n").password) == "a \"b\" \\\\n")
    #expect(
      string(try config(#"password: "\x41\u00e9\U0001F511\/\\\"\t\ e""# + "\n").password)
        == "Aé🔑/\\\"\t e")
    #expect(string(try config("\"password\": dq-key\n").password) == "dq-key")
    #expect(string(try config("'password' : sq-key\n").password) == "sq-key")
    #expect(string(try config("\"pass\\x77ord\": escaped-key\n").password) == "escaped-key")
    #expect(string(try config("password: \"12345\"\n").password) == "12345")
    #expect(try config("password-file: '/run/a b'\n").passwordFile == "/run/a b")
    #expect(try config("data-dir: \"/d\"\n").dataDir == "/d")
  }

  @Test func otherKeysValuesAreSkippedWholly() throws {
    let text = """
      resolver-options:
        - "https://a.example"
        - password: in-a-list
      cors-allowed-origins:
      - "null"
      - '*'
      note: |
        password: in-a-block-scalar
      nested:
        deeper:
          password: nested
      flow: {password: in-flow, b: [1, 2]}
      anchor: &a value
      alias: *a
      tagged: !!str 5
      password: top
      """
    let read = try config(text)
    #expect(string(read.password) == "top")
    #expect(read.passwordFile == nil)
  }

  @Test func nullsAreAbsent() throws {
    #expect(try config("password: null # none\n").password == nil)
    #expect(try config("password: # none\n").password == nil)
    #expect(try config("").password == nil)
    #expect(try config("\u{FEFF}").password == nil)
    #expect(try config("# only a comment\n").password == nil)
  }
}

@Suite struct AntdConfigYAMLRefusalTests {
  @Test func duplicatesOfAnyKeyAreRefusedWithTheirLine() {
    #expect(error("password: a\n# c\n\"password\": b\n") == .duplicateKey("password", line: 3))
    #expect(error("a: 1\npassword: x\na: 2\n") == .duplicateKey("a", line: 3))
    #expect(error("data-dir: /a\n'data-dir': /b\n") == .duplicateKey("data-dir", line: 2))
  }

  @Test func anEmptyPasswordIsRefused() {
    #expect(error("password: \"\"\n") == .emptyPasswordInFile(line: 1))
    #expect(error("api-addr: x\npassword: ''\n") == .emptyPasswordInFile(line: 2))
  }

  @Test func shapesThatCannotBeReadSafelyNameTheirLine() {
    let cases: [(String, AntdConfigError)] = [
      ("a: 1\npassword:\tx\n", .unsupported("a tab", line: 2)),
      ("a: 1\n\tb: 2\n", .unsupported("a tab in the indentation", line: 2)),
      (
        "a: 1\rpassword: x\n",
        .unsupported("a carriage return that is not part of a CR LF", line: 1)
      ),
      ("a: 1\u{85}password: x\n", .unsupported("a control character or a NEL line break", line: 1)),
      ("a: 1\u{2028}password: x\n", .unsupported("a Unicode line or paragraph separator", line: 1)),
      (
        "a: \"x\npassword: y\"\n",
        .unsupported("a quoted value that does not end on its line", line: 1)
      ),
      (
        "a: [1,\npassword: y]\n",
        .unsupported("a flow collection that does not end on its line", line: 1)
      ),
      ("password: &p x\n", .unsupported("an anchor (&) as the value of 'password'", line: 1)),
      ("a: &p x\npassword: *p\n", .unsupported("an alias (*) as the value of 'password'", line: 2)),
      (
        "<<: {password: x}\n",
        .unsupported("a key that YAML reads as something other than text", line: 1)
      ),
      ("  a: 1\n b: 2\n", .unsupported("a line indented less than the mapping's keys", line: 2)),
      ("a: 1\n...\n", .unsupported("a document marker ('...')", line: 2)),
      ("%YAML 1.1\n---\npassword: x\n", .unsupported("a YAML directive", line: 1)),
      ("? password\n: x\n", .unsupported("a '?' or ':' indicator where a key should be", line: 1)),
      ("- password: x\n", .unsupported("a sequence entry where a key should be", line: 1)),
      ("password: a: b\n", .unsupported("a ': ' inside a plain value", line: 1)),
      ("password: \"x\" y\n", .unsupported("text after a quoted value", line: 1)),
      ("password: \"\\ud800\"\n", .unsupported("an escape that is no Unicode character", line: 1)),
      (
        "password: [a]\n",
        .unsupported("a flow collection ({ … } or [ … ]) as the value of 'password'", line: 1)
      ),
      (
        "password: x\n  more\n",
        .unsupported("the value of 'password' continuing on the next line", line: 2)
      ),
      (
        "password: \"x\"\n  more\n",
        .unsupported("an indented line that continues no value", line: 2)
      ),
      ("a: 1\njust text\n", .unsupported("a line that is not 'key: value'", line: 2)),
      (
        "a:\n    b: 1\n  password: x\n",
        .unsupported("a line indented less than the lines before it", line: 3)
      ),
      ("1: x\n", .unsupported("a key that YAML reads as something other than text", line: 1)),
      ("password: 2024-01-01\n", .ambiguousPassword(line: 1)),
      ("data-dir: 12\n", .ambiguousValue(key: "data-dir", line: 1)),
    ]
    for (text, expected) in cases {
      #expect(error(text) == expected, "\(text.debugDescription)")
    }
    #expect(throws: AntdConfigError.notUTF8) {
      try AntdConfig(yaml: SecureBytes([0x61, 0x3A, 0x20, 0xFF]))
    }
  }
}

/// `settingPassword` changes only the value's bytes, or appends one line at the mapping's
/// indentation, and the result reads back with the new password.
@Suite struct AntdConfigEditTests {
  private func edit(_ text: String, _ password: String) throws -> String? {
    let edited = try config(text).settingPassword(SecureBytes(Array(password.utf8)))
    #expect(string(try AntdConfig(yaml: edited).password) == password)
    return string(edited)
  }

  @Test func replacesOnlyTheValue() throws {
    #expect(
      try edit("  a: 1\r\n  password :  old   # c\r\n  b: 2\r\n", "new1")
        == "  a: 1\r\n  password :  new1   # c\r\n  b: 2\r\n")
    #expect(
      try edit("\u{FEFF}password: 'o''ld' # c\n", "it's") == "\u{FEFF}password: 'it''s' # c\n")
    #expect(try edit("\"password\": \"old\"\n", "q\"b\\") == "\"password\": \"q\\\"b\\\\\"\n")
    #expect(try edit("password: old\n", "needs quotes") == "password: \"needs quotes\"\n")
    #expect(try edit("password: ~\nb: 2\n", "n") == "password: \"n\"\nb: 2\n")
    #expect(try edit("password:   # none\n", "pw") == "password: pw   # none\n")
    #expect(try edit("password:", "pw") == "password: pw")
  }

  @Test func appendsOneLineAtTheMappingsIndentation() throws {
    #expect(
      try edit("  a: 1\r\n  b:\r\n    c: 2\r\n", "pw")
        == "  a: 1\r\n  b:\r\n    c: 2\r\n  password: pw\n")
    #expect(try edit("a: 1", "pw") == "a: 1\npassword: pw\n")
    #expect(try edit("\u{FEFF}", "pw") == "\u{FEFF}password: pw\n")
    #expect(try edit("", "pw") == "password: pw\n")
    #expect(try edit("a: |\n  text\n", "pw") == "a: |\n  text\npassword: pw\n")
  }

  @Test func refusesAnAppendThatWouldChangeAnotherValue() throws {
    let read = try config("a: |\n  text")
    #expect(
      throws: AntdConfigError.unsupported(
        "a block scalar at the end of the file without a final line break", line: 0)
    ) {
      try read.settingPassword(SecureBytes(Array("pw".utf8)))
    }
  }
}

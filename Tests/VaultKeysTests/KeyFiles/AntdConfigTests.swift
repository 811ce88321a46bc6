import CryptoPrimitives
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
    #expect(error("password: a\npassword: b\n") == .duplicateKey("password"))
    #expect(error("password: |\n  block\n")?.description.contains("not a plain") == true)
    #expect(error("password:\n  continued\n") != nil)
    #expect(error("{password: x}\n") != nil)
    #expect(error("password: 12345\n") == .ambiguousPassword)
    #expect(error("password: true\n") == .ambiguousPassword)
    #expect(error("password: \"bad\\tescape\"\n") != nil)
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

import CryptoPrimitives
import Foundation
import Testing

/// Reading a secret from a file: bounded, checked as UTF-8 text free of control characters,
/// a byte order mark dropped, every refusal naming the source and never the content.
@Suite struct SecretInputTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("secret-input-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// A file holding `content` with `mode`; its path.
  func file(_ content: [UInt8], mode: Int = 0o600) throws -> String {
    let path = directory.appendingPathComponent("secret").path
    try Data(content).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    return path
  }

  func read(_ path: String, limit: Int = SecretInput.maximumByteCount) -> (
    Result<SecureBytes, SecretInputError>, [String]
  ) {
    var warnings: [String] = []
    let result = Result { () throws(SecretInputError) -> SecureBytes in
      try SecretInput.read(
        SecretSource(role: "mnemonic", path: path), limit: limit, warning: { warnings.append($0) })
    }
    return (result, warnings)
  }

  func failure(_ result: Result<SecureBytes, SecretInputError>) -> String? {
    guard case .failure(let error) = result else { return nil }
    return error.description
  }

  @Test func readsTheFileWithoutItsByteOrderMark() throws {
    let path = try file([0xEF, 0xBB, 0xBF] + Array("abandon\r\n".utf8))
    let (result, warnings) = read(path)
    let bytes = try result.get()
    #expect(bytes == SecureBytes(utf8: "abandon\r\n"))
    #expect(SecretInput.droppingLineEnding(bytes) == SecureBytes(utf8: "abandon"))
    #expect(warnings.isEmpty)
  }

  @Test func keepsTheByteOrderMarkForAReaderThatTakesIt() throws {
    let path = try file([0xEF, 0xBB, 0xBF] + Array("pass".utf8))
    let kept = try SecretInput.read(
      SecretSource(role: "password", path: path), keepsByteOrderMark: true, warning: nil)
    #expect(kept == SecureBytes([0xEF, 0xBB, 0xBF] + Array("pass".utf8)))
  }

  @Test func dropsOneLineEndingAndNothingElse() {
    #expect(SecretInput.droppingLineEnding(SecureBytes(utf8: "a\n\n")) == SecureBytes(utf8: "a\n"))
    #expect(SecretInput.droppingLineEnding(SecureBytes(utf8: "a\r")) == SecureBytes(utf8: "a\r"))
    #expect(SecretInput.droppingLineEnding(SecureBytes(utf8: " a \n")) == SecureBytes(utf8: " a "))
    #expect(SecretInput.droppingLineEnding(SecureBytes(utf8: "")) == SecureBytes(utf8: ""))
  }

  @Test func refusesWhatIsNotText() throws {
    let (invalid, _) = read(try file(Array("ab".utf8) + [0xC3, 0x28]))
    #expect(
      failure(invalid) == "mnemonic file '\(directory.path)/secret' is not valid UTF-8 (byte 3)")
    let (control, _) = read(try file(Array("ab\u{7}".utf8)))
    #expect(
      failure(control)
        == "mnemonic file '\(directory.path)/secret' contains a control character (U+0007) at byte 3"
    )
    let (c1, _) = read(try file(Array("é\u{85}".utf8)))
    #expect(failure(c1)?.hasSuffix("a control character (U+0085) at byte 3") == true)
    // The content itself is never in the message.
    #expect(failure(control)?.contains("ab") == false)
  }

  @Test func refusesWhatIsTooLargeUnread() throws {
    let path = try file(
      Array(repeating: UInt8(ascii: "a"), count: SecretInput.maximumByteCount + 1))
    #expect(
      failure(read(path).0)
        == "mnemonic file '\(path)' is larger than 64 KiB; it should hold only the secret")
    #expect(
      failure(read(path, limit: 1 << 20).0) == nil)
    #expect(
      failure(read(path, limit: 1024).0)
        == "mnemonic file '\(path)' is larger than 1 KiB; check that it is the right file")
  }

  @Test func namesADirectoryAndAMissingFile() {
    #expect(
      failure(read(directory.path).0)
        == "mnemonic file '\(directory.path)' is a directory, not a file")
    let missing = directory.appendingPathComponent("none").path
    #expect(
      failure(read(missing).0)
        == "cannot read mnemonic file '\(missing)': No such file or directory")
  }

  @Test func warnsOfAFileOthersCanRead() throws {
    let path = try file(Array("abandon".utf8), mode: 0o644)
    let (result, warnings) = read(path)
    #expect(throws: Never.self) { try result.get() }
    #expect(warnings == ["\(path) is readable by other users (mode 0644); run chmod 600 \(path)"])
    #expect(read(try file(Array("abandon".utf8), mode: 0o600)).1.isEmpty)
    // An encrypted file is meant to sit on disk: no one is told.
    let quiet = try SecretInput.read(SecretSource(role: "vault", path: path), warning: nil)
    #expect(quiet == SecureBytes(utf8: "abandon"))
  }

  @Test func namesItsSourceWithoutItsContent() {
    #expect(
      SecretSource(role: "passphrase", path: nil).description == "passphrase entered at the prompt")
    #expect(
      SecretSource(role: "passphrase", path: "-").description == "passphrase on standard input")
    #expect(SecretSource(role: "passphrase", path: "p").description == "passphrase file 'p'")
    #expect(SecretSource(role: "password", path: nil).isNew == false)
    #expect(
      SecretInputError.mismatch(SecretSource(role: "vault password", path: nil)).description
        == "the two vault passwords entered differ; nothing was written (type the same one twice)")
  }
}

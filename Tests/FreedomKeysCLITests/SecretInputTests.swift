import Foundation
import Testing

/// Reading mnemonic and passphrase files: limits, encodings and messages that name the file but
/// never its content. Every failure is exit status 1 with one line on stderr and nothing on stdout.
@Suite("Secret input")
struct SecretInputTests {
  static let mnemonic =
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

  func expectFailure(
    _ run: CLIRun, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(run.status == 1, sourceLocation: sourceLocation)
    #expect(run.stdout == "", sourceLocation: sourceLocation)
    #expect(run.stderr == "freedom-keys: error: \(message)\n", sourceLocation: sourceLocation)
    #expect(!run.stderr.contains("abandon"), sourceLocation: sourceLocation)
  }

  @Test func missingFile() throws {
    let dir = try TemporaryDirectory()
    let path = dir.url.appendingPathComponent("nowhere.txt").path
    let run = try CLI.run(["derive", "--mnemonic-file", path])
    expectFailure(run, "cannot read mnemonic file '\(path)': No such file or directory")
  }

  @Test func directory() throws {
    let dir = try TemporaryDirectory()
    let run = try CLI.run(["derive", "--mnemonic-file", dir.url.path])
    expectFailure(run, "mnemonic file '\(dir.url.path)' is a directory, not a file")
  }

  @Test func passphraseDirectory() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", Self.mnemonic)
    let run = try CLI.run(["derive", "--mnemonic-file", words, "--passphrase-file", dir.url.path])
    expectFailure(run, "passphrase file '\(dir.url.path)' is a directory, not a file")
  }

  @Test(.disabled(if: getuid() == 0, "root reads files whatever their mode"))
  func unreadableFile() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words", Self.mnemonic, mode: 0o000)
    let run = try CLI.run(["derive", "--mnemonic-file", path])
    expectFailure(run, "cannot read mnemonic file '\(path)': Permission denied")
  }

  @Test func fileOverTheLimitIsRefusedUnread() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("big", Data(Self.mnemonic.utf8) + Data(repeating: 0x20, count: 65_536))
    let run = try CLI.run(["derive", "--mnemonic-file", path])
    expectFailure(
      run, "mnemonic file '\(path)' is larger than 64 KiB; it should hold only the secret")
  }

  @Test func standardInputOverTheLimit() throws {
    let input = Data(repeating: 0x20, count: 65_537)
    let run = try CLI.run(["derive", "--mnemonic-file", "-"], stdinBytes: input)
    expectFailure(
      run, "mnemonic on standard input is larger than 64 KiB; it should hold only the secret")
  }

  @Test func endlessDeviceIsCutOff() throws {
    let run = try CLI.run(["derive", "--mnemonic-file", "/dev/zero"])
    expectFailure(
      run, "mnemonic file '/dev/zero' is larger than 64 KiB; it should hold only the secret")
  }

  @Test func invalidUTF8() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words", Data("abandon ".utf8) + Data([0xC3, 0x28]))
    let run = try CLI.run(["derive", "--mnemonic-file", path])
    expectFailure(run, "mnemonic file '\(path)' is not valid UTF-8 (byte 9)")
  }

  @Test func overlongEncodingIsNotUTF8() throws {
    let run = try CLI.run(
      ["derive", "--mnemonic-file", "-"], stdinBytes: Data([0x61, 0xC0, 0xAF]))
    expectFailure(run, "mnemonic on standard input is not valid UTF-8 (byte 2)")
  }

  @Test func nulByte() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words", Data("abandon".utf8) + Data([0]) + Data(" about".utf8))
    let run = try CLI.run(["derive", "--mnemonic-file", path])
    expectFailure(run, "mnemonic file '\(path)' contains a control character (U+0000) at byte 8")
  }

  @Test func escapeInPassphrase() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", Self.mnemonic)
    let passphrase = try dir.file("pass", "\u{FEFF}ab\u{1B}[0m")
    let run = try CLI.run(["derive", "--mnemonic-file", words, "--passphrase-file", passphrase])
    // Byte offsets count the byte order mark: they point into the file as it is on disk.
    expectFailure(
      run, "passphrase file '\(passphrase)' contains a control character (U+001B) at byte 6")
  }

  @Test func c1ControlCharacter() throws {
    let run = try CLI.run(["derive", "--mnemonic-file", "-"], stdin: "abandon\u{85}")
    expectFailure(run, "mnemonic on standard input contains a control character (U+0085) at byte 8")
  }

  @Test func pathWithANewlineStaysOnOneLine() throws {
    let run = try CLI.run(["derive", "--mnemonic-file", "/nonexistent/a\nb"])
    expectFailure(run, "cannot read mnemonic file '/nonexistent/a?b': No such file or directory")
  }
}

import Foundation
import TestSupport
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

  // MARK: - What is read

  /// The seed `derive` computed: proves which mnemonic and passphrase bytes it used.
  func seed(
    _ arguments: [String], stdin: Data = Data(), sourceLocation: SourceLocation = #_sourceLocation
  )
    throws -> (seed: String?, stderr: String)
  {
    let run = try CLI.run(["derive", "--json", "--include-secrets"] + arguments, stdinBytes: stdin)
    #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    return (json?["seed"] as? String, run.stderr)
  }

  @Test func standardInput() throws {
    let result = try seed(["--mnemonic-file", "-"], stdin: Data((Self.mnemonic + "\n").utf8))
    #expect(result.seed == DeriveTests.seed)
    #expect(result.stderr == "")
  }

  @Test(arguments: [
    "\u{FEFF}\(mnemonic)\r\n", "\t\(mnemonic)\n\n",
    "\(mnemonic.replacingOccurrences(of: " ", with: "\r\n"))",
  ])
  func byteOrderMarkAndLineEndings(content: String) throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words", content)
    #expect(try seed(["--mnemonic-file", path]).seed == DeriveTests.seed)
  }

  /// BIP-39 passphrase = the file minus ONE trailing "\n" or "\r\n"; nothing else is stripped.
  @Test(arguments: [
    ("TREZOR", DeriveTests.trezorSeed),
    ("TREZOR\n", DeriveTests.trezorSeed),
    ("TREZOR\r\n", DeriveTests.trezorSeed),
    ("\u{FEFF}TREZOR\n", DeriveTests.trezorSeed),
    (
      "TREZOR\n\n",
      "80acc490587e914e4af621f60338450b31d5b020da5015c3c4c8e6542ca6547e5d599e2f873ca37999d725d785e39aab2b95b5f3f5f44828fdbc3e26f0fabcf5"
    ),
    (
      "TREZOR\r",
      "d034f7ecb9249ad3bdc877da1ca13206afb0042e55209fb2e25388f5f000923309bb131f6663fd5c326cb481644cb90b60330bcc5741f8d03ff26c1fe6a438c7"
    ),
    (
      " TREZOR ",
      "c3e2744f57e3f6e362753a4a240fa209988f367d09b2d77b05b62ced64c7f175ebebd7bfa2d424260697eafa26991241992d6627d64f4b4eba2d178db20a0275"
    ),
    ("", DeriveTests.seed),
    ("\n", DeriveTests.seed),
  ])
  func passphraseFile(content: String, expectedSeed: String) throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", Self.mnemonic)
    let passphrase = try dir.file("passphrase", content)
    #expect(
      try seed(["--mnemonic-file", words, "--passphrase-file", passphrase]).seed == expectedSeed)
  }

  @Test func passphraseFromStandardInput() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", Self.mnemonic)
    let result = try seed(
      ["--mnemonic-file", words, "--passphrase-file", "-"], stdin: Data("TREZOR\n".utf8))
    #expect(result.seed == DeriveTests.trezorSeed)
  }

  @Test func fileOfExactlyTheLimitIsRead() throws {
    let dir = try TemporaryDirectory()
    let content = Data(Self.mnemonic.utf8)
    let path = try dir.file(
      "padded", content + Data(repeating: 0x20, count: 65_536 - content.count))
    #expect(try seed(["--mnemonic-file", path]).seed == DeriveTests.seed)
  }

  @Test func standardInputOfExactlyTheLimitIsRead() throws {
    let content = Data(Self.mnemonic.utf8)
    let input = content + Data(repeating: 0x0A, count: 65_536 - content.count)
    #expect(try seed(["--mnemonic-file", "-"], stdin: input).seed == DeriveTests.seed)
  }

  @Test(arguments: [0o644, 0o640, 0o604])
  func sharedFileWarnsOnce(mode: Int) throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words", Self.mnemonic, mode: mode)
    let result = try seed(["--mnemonic-file", path])
    #expect(result.seed == DeriveTests.seed)
    let octal = "0" + String(mode, radix: 8)
    #expect(
      result.stderr
        == "freedom-keys: warning: \(path) is readable by other users (mode \(octal)); run chmod 600 \(path)\n"
    )
  }

  @Test func sharedPassphraseFileWarns() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", Self.mnemonic)
    let passphrase = try dir.file("passphrase", "TREZOR", mode: 0o664)
    let result = try seed(["--mnemonic-file", words, "--passphrase-file", passphrase])
    #expect(result.seed == DeriveTests.trezorSeed)
    #expect(
      result.stderr
        == "freedom-keys: warning: \(passphrase) is readable by other users (mode 0664); run chmod 600 \(passphrase)\n"
    )
  }

  @Test(arguments: [0o600, 0o400, 0o700])
  func privateFileIsQuiet(mode: Int) throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words", Self.mnemonic, mode: mode)
    #expect(try seed(["--mnemonic-file", path]).stderr == "")
  }
}

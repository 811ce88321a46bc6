import Foundation
import TestSupport
import Testing

/// `mnemonic generate`: every word count and language round-trips through `check` and
/// `derive`; --out writes a private file and never replaces one.
@Suite("mnemonic generate")
struct MnemonicGenerateTests {
  static let languages = [
    "english", "japanese", "korean", "spanish", "chinese_simplified", "chinese_traditional",
    "french", "italian", "czech", "portuguese",
  ]
  static let wordCounts = [12, 15, 18, 21, 24]

  /// A full standard output is one line naming the mnemonic, exit 1, never a crash.
  @Test func aFullStandardOutputIsOneError() throws {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["mnemonic", "generate"]
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let error = Pipe()
    process.standardOutput = full
    process.standardError = error
    try process.run()
    let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(stderr == "freedom-keys: error: cannot write the mnemonic: No space left on device\n")
  }

  @Test(arguments: languages, wordCounts)
  func roundTrip(language: String, words: Int) throws {
    let generated = try CLI.run(
      ["mnemonic", "generate", "--words", String(words), "--language", language])
    #expect(generated.status == 0)
    #expect(generated.stderr == "")
    let line = generated.stdout
    #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
    let separator: Character = language == "japanese" ? "\u{3000}" : " "
    let other: Character = language == "japanese" ? " " : "\u{3000}"
    #expect(line.dropLast().split(separator: separator).count == words)
    #expect(!line.contains(other))

    // Chinese traditional and simplified share 1,275 characters at the same indices; a
    // phrase of shared characters only is read as simplified (same entropy, same seed).
    let accepted =
      language == "chinese_traditional" ? [language, "chinese_simplified"] : [language]
    let checked = try CLI.run(["mnemonic", "check", "--mnemonic-file", "-", "--json"], stdin: line)
    #expect(checked.status == 0, "\(checked.stderr)")
    let verdict = try #require(
      try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
    #expect(verdict["valid"] as? Bool == true)
    #expect(accepted.contains(verdict["language"] as? String ?? ""))
    #expect(verdict["words"] as? Int == words)

    let derived = try CLI.run(
      ["derive", "--json", "--mnemonic-file", "-", "--language", language], stdin: line)
    #expect(derived.status == 0, "\(derived.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(derived.stdout.utf8)) as? [String: Any])
    let mnemonic = try #require(json["mnemonic"] as? [String: Any])
    #expect(mnemonic["language"] as? String == language)
    #expect(mnemonic["words"] as? Int == words)
    let wallet = try #require(json["wallet"] as? [String: Any])
    #expect((wallet["address"] as? String)?.count == 42)
  }

  @Test func defaultIs24EnglishWords() throws {
    let run = try CLI.run(["mnemonic", "generate"])
    #expect(run.status == 0)
    let checked = try CLI.run(["mnemonic", "check", "--mnemonic-file", "-"], stdin: run.stdout)
    #expect(checked.stdout == "valid — 24 words, english\n")
  }

  @Test func twoGenerationsDiffer() throws {
    let first = try CLI.run(["mnemonic", "generate", "--words", "12"])
    let second = try CLI.run(["mnemonic", "generate", "--words", "12"])
    #expect(first.status == 0 && second.status == 0)
    #expect(first.stdout.count > 12 * 3)
    #expect(first.stdout != second.stdout)
  }

  @Test func outWritesAPrivateFile() throws {
    let dir = try TemporaryDirectory()
    let path = dir.url.appendingPathComponent("new-words.txt").path
    let run = try CLI.run(["mnemonic", "generate", "--words", "18", "--out", path])
    #expect(run.status == 0)
    #expect(run.stdout == "wrote 18 english words to \(path) (mode 0600)\n")
    #expect(run.stderr == "")
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
    // The directory holds only the file: no temporary file was left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["new-words.txt"])

    let checked = try CLI.run(["mnemonic", "check", "--mnemonic-file", path])
    #expect(checked.stdout == "valid — 18 words, english\n")
    #expect(checked.stderr == "")
  }

  @Test func outNeverReplacesAFile() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.file("words.txt", "keep me\n", mode: 0o644)
    let run = try CLI.run(["mnemonic", "generate", "--out", path])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: \(path) already exists; refusing to overwrite it — choose another path\n"
    )
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["words.txt"])
  }

  @Test func outIntoAMissingDirectory() throws {
    let dir = try TemporaryDirectory()
    let path = dir.url.appendingPathComponent("no/such/words.txt").path
    let run = try CLI.run(["mnemonic", "generate", "--out", path])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: the directory for \(path) does not exist; create it first or check the path\n"
    )
  }

  static let hint = " (see 'freedom-keys mnemonic generate --help')\n"

  @Test(arguments: [
    (["--words", "13"], "--words <n> must be 12, 15, 18, 21 or 24"),
    (["--words", "0"], "--words <n> must be 12, 15, 18, 21 or 24"),
    (["--words", "twelve"], "--words <n> must be 12, 15, 18, 21 or 24"),
    (["--words=-12"], "--words <n> must be 12, 15, 18, 21 or 24"),
    (
      ["--language", "klingon"],
      "unknown language 'klingon'; expected one of english, japanese, korean, spanish, "
        + "chinese_simplified, chinese_traditional, french, italian, czech, portuguese"
    ),
    (["--out="], "--out <path> must not be empty"),
    (["--mnemonic-file", "x"], "unknown option '--mnemonic-file'"),
    (["extra"], "unexpected argument 'extra'"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = try CLI.run(["mnemonic", "generate"] + arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "freedom-keys: error: " + message + Self.hint)
  }

  @Test func languageNameWithDash() throws {
    let run = try CLI.run([
      "mnemonic", "generate", "--words", "12", "--language", "Chinese-Simplified",
    ])
    #expect(run.status == 0)
    #expect(run.stdout.unicodeScalars.filter { $0 == " " }.count == 11)
  }
}

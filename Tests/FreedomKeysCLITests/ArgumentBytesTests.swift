import Foundation
import Glibc
import Testing

/// Issue 26, item 3: a path argument that is not UTF-8 is refused, never turned into U+FFFD
/// (`--data-dir $'node\xff'` wrote, and with --force replaced, the key of `node\u{FFFD}`).
@Suite("arguments that are not UTF-8")
struct ArgumentBytesTests {
  /// Runs `freedom-keys` through sh, `\377` (0xFF) appended to `$1` where the script says.
  static func run(_ script: String, _ arguments: [String]) throws -> CLIRun {
    try CLI.run(
      ["-c", script, CLI.executable.path] + arguments, executable: "/bin/sh")
  }

  @Test func aDirectoryNameThatIsNotUTF8IsRefusedAndTheReplacementNameUntouched() throws {
    let fixture = try ExportFixture()
    let parent = fixture.path("nodes")
    try makeDirectory(parent)
    // The directory U+FFFD would name holds B's key.
    let lookalike = parent + "/node\u{FFFD}"
    let b = try fixture.run(
      ["export", "bee", "--scrypt-n", "1024", "--data-dir", lookalike], other: true)
    try #require(b.status == 0, "\(b.stderr)")
    let before = snapshot(parent)
    let forms = [
      ("--data-dir \"$1/node$(printf '\\377')\"", "the argument after --data-dir"),
      ("--data-dir=\"$1/node$(printf '\\377')\"", "the value of --data-dir"),
    ]
    for (form, named) in forms {
      let run = try Self.run(
        "exec \"$0\" export bee --scrypt-n 1024 --force \(form) --mnemonic-file \"$2\"",
        [parent, fixture.mnemonic])
      #expect(run.status == 1, "\(form)")
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "freedom-keys: error: \(named) is not valid UTF-8: freedom-keys takes file and "
          + "directory names as UTF-8 text only and changed nothing; rename the file or "
          + "directory to a UTF-8 name\n")
      #expect(snapshot(parent) == before, "\(form)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["node\u{FFFD}"])
    }
    let verify = try fixture.run(["verify", "--bee-dir", lookalike], other: true)
    #expect(verify.status == 0, "B's key is still there: \(verify.stderr)")
  }

  @Test func aPositionalArgumentIsNamedByItsPlace() throws {
    let fixture = try ExportFixture()
    let run = try Self.run("exec \"$0\" undo \"$1/x$(printf '\\377')\"", [fixture.path("")])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("freedom-keys: error: argument 2 is not valid UTF-8: "))
    #expect(!run.stderr.dropLast().contains("\n"))
  }
}

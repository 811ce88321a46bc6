import Foundation
import TestSupport
import Testing

/// `recover password --tokens` with btcrecover's wildcards and anchors: the password found on a
/// vault, a hundred million candidates searched without being held (peak memory measured by
/// GNU time), and a token this reader does not know refused by its line.
@Suite("recover password: token syntax")
struct RecoverPasswordTokenTests {
  typealias R = RecoverPasswordTests

  /// "Correct horse", then " battery ", then s or t and "tapl" last, and one or two digits
  /// anywhere: found on the 1,000-iteration vault, its tokens named, never its text.
  @Test func anchoredWildcardTokensOpenTheVault() throws {
    let dir = try TemporaryDirectory()
    let run = try R().recover(
      ["--vault", R.shiftedVault, "--tokens", "{tokens}", "--json"],
      files: ["tokens": "^Correct%shorse\n%sbattery%s\n%[st]tapl$\n%1,2d\n"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    // Alone 114, two 555, three 882, four 440.
    #expect(run.stderr.contains("searching 1,991 passwords (duplicates possible) against"))
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let password = try #require(json["password"] as? [String: Any])
    #expect(password["origin"] as? String == "tokens")
    let tokens = try #require(password["tokens"] as? [[String: Int]])
    #expect(
      tokens == [["line": 1, "token": 1], ["line": 2, "token": 1], ["line": 3, "token": 1]])
    R().expectNoSecret(run, ["horse battery", "%[st]"])
  }

  /// 100,000,001 candidates: the search starts at once, finds the first, and the process's peak
  /// memory stays under 512 MiB (nothing of the set is built).
  @Test func aHundredMillionCandidatesStartAtOnce() throws {
    let time = try #require(
      which("time")
        ?? (FileManager.default.isExecutableFile(
          atPath: "/usr/bin/time") ? "/usr/bin/time" : nil),
      "GNU time is not installed")
    let dir = try TemporaryDirectory()
    let tokens = try dir.file("tokens", "+ ^Correct%shorse%sbattery%sstapl\n%8d\n")
    let peak = dir.file("peak")
    let run = try CLI.run(
      [
        "-f", "%M", "-o", peak, CLI.executable.path, "recover", "password", "--threads", "2",
        "--vault", R.shiftedVault, "--tokens", tokens,
      ], executable: time)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("searching 100,000,001 passwords (duplicates possible)"))
    #expect(run.stdout.hasPrefix("the password is made of tokens"), "\(run.stdout)")
    let kibibytes = try String(contentsOfFile: peak, encoding: .utf8)
      .split(separator: "\n").last.flatMap { Int($0) }
    let measured = try #require(kibibytes)
    #expect(measured > 0 && measured < 512 * 1024, "peak RSS \(measured) KiB")
  }

  /// A wildcard this reader does not know: refused with its line, the token never echoed.
  @Test func anUnknownWildcardIsRefusedByItsLine() throws {
    let dir = try TemporaryDirectory()
    let run = try R().recover(
      ["--vault", R.shiftedVault, "--tokens", "{tokens}"],
      files: ["tokens": "Correct\nsecret%b\n"], in: dir)
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "freedom-keys: error: line 2 of the token list holds a wildcard or anchor that cannot "
        + "be read (or a count out of bounds): write it with the wildcards and anchors the "
        + "recovery manual lists\n")
    #expect(!run.stderr.contains("secret"))
  }
}

import Foundation
import TestSupport
import Testing

/// A candidates file over the held limit (2^23 lines) is no longer refused: it is read line by
/// line as the search takes it, and its lines are numbered, not compared. (The reading itself,
/// every part and resume point, and a file changed during the search are tested in process, in
/// RecoveryTests' CandidateLinesTests, with small sizes.)
@Suite("recover: candidates files of any size")
struct RecoverLargeCandidatesTests {
  @Test func aFileOfMoreThanTwoToTheTwentyThreeLinesIsSearched() throws {
    let directory = try TemporaryDirectory()
    // The password on line 1, then 2^23 empty lines (8 MiB): one line over the held limit.
    let lines = 1 << 23 + 1
    let list = try directory.file(
      "list", VaultTests.password + "\n" + String(repeating: "\n", count: lines - 1))
    let run = try CLI.run([
      "recover", "password", "--vault", RecoverPasswordTests.legacyVault,
      "--password-candidates", list, "--threads", "2",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("the password is password candidate line 1\n"), "\(run.stdout)")
    // Counted exactly, and the repeated empty lines not dropped: numbered, not compared.
    #expect(
      run.stderr.contains("searching 8,388,609 passwords (duplicates possible)"), "\(run.stderr)")
  }
}

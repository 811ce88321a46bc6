import Foundation
import TestSupport
import Testing

/// `recover --order-lost` from the command line: a shuffled phrase found with the words kept in
/// place, the first line saying what is searched and its exact count, and bad input refused in
/// one line with exit 2.
@Suite("recover command: the order of the words lost")
struct RecoverOrderTests {
  /// BIP-39 vector (Trezor) of 0xc0ba5a8e914111210f2bd131f3d5e08d: twelve distinct words.
  static let truth = "scheme spot photo card baby mountain device kick cradle pact join borrow"

  func recover(_ options: [String], stdin: String) throws -> CLIRun {
    try CLI.run(["recover", "--mnemonic-file", "-", "--threads", "2"] + options, stdin: stdin)
  }

  /// The phrase with the words at 1-based positions 4, 6, 7, 10 and 11 rotated by two.
  static var shuffled: [String] {
    let words = truth.split(separator: " ").map(String.init)
    var written = words
    let free = [3, 5, 6, 9, 10]
    for (index, position) in free.enumerated() {
      written[position] = words[free[(index + 2) % free.count]]
    }
    return written
  }

  @Test func fiveShuffledAreFound() throws {
    let address = try RecoverDamageTests.swarm(Self.truth)
    let run = try recover(
      ["--order-lost", "--keep-positions", "1,2,3,5,8,9,12", "--address", address],
      stdin: Self.shuffled.joined(separator: " ") + "\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        the words in order are the written words 1 2 3 10 5 11 4 8 9 6 7 12
        matched swarm.address
        give --out FILE to write the whole corrected phrase to a new file

        """)
    #expect(
      run.stderr.contains(
        "candidates of 12 english words in any order (50 likely orders first, then all 120 "
          + "orders of the 5 free positions, 7 kept in place)"), "\(run.stderr)")
  }

  @Test func shardsAndCollectTellTheOrder() throws {
    let address = try RecoverDamageTests.swarm(Self.truth)
    let directory = try TemporaryDirectory()
    for k in 1...3 {
      let run = try recover(
        [
          "--order-lost", "--keep-positions", "1,2,3,5,8,9,12", "--address", address,
          "--shard", "\(k)/3", "--json",
        ], stdin: Self.shuffled.joined(separator: " ") + "\n")
      #expect(run.status == 0 || run.status == 4, "\(run.stderr)")
      _ = try directory.file("shard-\(k).json", run.stdout)
    }
    let json = try CLI.run(["recover", "collect", directory.path, "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["candidates"] as? Int == 170)
    let results = try #require(object["results"] as? [[String: Any]])
    let found = results.filter { $0["found"] as? Bool == true }
    #expect(found.count == 1)
    #expect(found.first?["order"] as? [Int] == [1, 2, 3, 10, 5, 11, 4, 8, 9, 6, 7, 12])
    let text = try CLI.run(["recover", "collect", directory.path])
    #expect(
      text.stdout.contains(
        "the words in order are the written words 1 2 3 10 5 11 4 8 9 6 7 12\n"
          + "matched swarm.address\n"), "\(text.stdout)")
    for word in ["scheme", "spot", "photo", "mountain"] {
      #expect(!text.stdout.contains(word) && !json.stdout.contains(word))
    }
  }

  @Test func exhaustedSaysHowToWiden() throws {
    let other = try RecoverDamageTests.swarm(RecoverTests.truth)
    let run = try recover(
      ["--order-lost", "--keep-positions", "1,2,3,5,8,9,12", "--address", other],
      stdin: Self.shuffled.joined(separator: " ") + "\n")
    #expect(run.status == 4, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("keep fewer positions in place (--keep-positions), or check"))
  }

  @Test func countedWithoutATarget() throws {
    let run = try recover(
      ["--order-lost", "--keep-positions", "1,2,3,5,8,9,12"],
      stdin: Self.shuffled.joined(separator: " ") + "\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("counting candidates only (170 candidates of 12 english words"))
  }

  @Test(arguments: [
    ["--order-lost", "--keep-positions", "1,x"],
    ["--order-lost", "--keep-positions", "0"],
    ["--order-lost", "--keep-positions", "1,13"],
    ["--order-lost", "--keep-positions", "2,2"],
    ["--order-lost", "--keep-positions", ""],
    ["--keep-positions", "1"],
    ["--order-lost", "--typos", "1"],
    ["--order-lost", "--missing", "1"],
  ])
  func badInputIsOneLineAndExitTwo(_ options: [String]) throws {
    let run = try recover(options, stdin: Self.truth + "\n")
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(!run.stderr.contains("scheme"))
  }
}

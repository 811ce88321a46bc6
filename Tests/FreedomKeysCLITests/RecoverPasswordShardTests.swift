import Foundation
import TestSupport
import Testing

/// `recover password --shard K/N`: each part tries its share of the passwords and prints a part
/// result (never the password); `recover collect` names the part that found it and refuses parts
/// of another search or of a phrase search.
@Suite("recover password shards and collect")
struct RecoverPasswordShardTests {
  /// eth-keyfile's scrypt keystore ("testpassword") remembered with a neighbouring key: with
  /// one likely typo, 200 passwords; the match is number 90 (origin: character 10 replaced).
  static let remembered = "testpasswprd"
  static let keystore = RecoverPasswordTests.scryptKeystore

  /// Part `k` of 3 of the keystore search, `remembered` as the password file's content.
  static func part(
    _ k: Int, of count: Int = 3, remembered: String = remembered, in dir: TemporaryDirectory,
    extra: [String] = []
  ) throws -> CLIRun {
    let password = try dir.file("remembered-\(remembered)", remembered)
    return try CLI.run(
      [
        "recover", "password", "--threads", "2", "--keystore", keystore, "--password-file",
        password, "--password-typos", "1", "--shard", "\(k)/\(count)", "--json",
      ] + extra)
  }

  static func object(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// Three parts: exactly one finds it (exit 0), the others exit 4; each prints its part
  /// result, no password anywhere; `recover collect` names the part and how to write the
  /// password, and that part run again with its checkpoint and --out writes it.
  @Test func threePartsOneFindsItAndCollectNamesIt() throws {
    let dir = try TemporaryDirectory()
    let results = try TemporaryDirectory()
    var statuses: [Int32] = []
    var counts: [Int] = []
    for k in 1...3 {
      let run = try Self.part(
        k, in: dir, extra: ["--resume", dir.file("checkpoint-\(k).json")])
      statuses.append(run.status)
      let object = try Self.object(run.stdout)
      #expect(object["kind"] as? String == "password")
      #expect(object["shard"] as? [String: Int] == ["index": k, "count": 3])
      #expect(object["searchCandidates"] as? Int == 200)
      #expect(object["found"] as? Bool == (run.status == 0))
      #expect(object["complete"] as? Bool == true)
      counts.append(try #require(object["candidates"] as? Int))
      RecoverPasswordTests().expectNoSecret(run, ["testpassword", Self.remembered])
      _ = try results.file("part-\(k).json", run.stdout)
    }
    // The split rule: 200·(k−1)/3 ..< 200·k/3, so the match (90) is in part 2.
    #expect(statuses == [4, 0, 4])
    #expect(counts == [66, 67, 67])

    let collect = try CLI.run(["recover", "collect", results.path])
    #expect(collect.status == 0, "\(collect.stderr)")
    // Part 2 stops at the match: how many it tried first depends on its threads.
    let tried = try searched(results)
    #expect(tried > 66 + 67 && tried < 200)
    #expect(
      collect.stdout == """
        found by shard 2 of 3 (\(results.path)/part-2.json)
        the password opens the keystore of \(RecoverPasswordTests.keystoreAddress)
        the password is not in the results: to write it, run that shard's recover password \
        command again with --shard 2/3 --out FILE (with its --resume file the file is opened \
        again without searching; without, that shard is searched again)
        3 of 3 shards: \(tried) of 200 passwords tried

        """)
    let json = try Self.object(try CLI.run(["recover", "collect", results.path, "--json"]).stdout)
    #expect(json["status"] as? String == "found")
    #expect(json["kind"] as? String == "password")
    let found = (json["results"] as? [[String: Any]])?.filter { $0["found"] as? Bool == true }
    #expect(found?.map { $0["shard"] as? Int } == [2])

    // What collect says to run writes the password without searching.
    let out = dir.file("password.txt")
    let again = try Self.part(
      2, in: dir, extra: ["--resume", dir.file("checkpoint-2.json"), "--out", out])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("found earlier"))
    #expect(try Self.object(again.stdout)["foundEarlier"] as? Bool == true)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "testpassword")
    #expect(permissions(out) == 0o600)
    for k in 1...3 {
      let checkpoint = try String(contentsOfFile: dir.file("checkpoint-\(k).json"), encoding: .utf8)
      #expect(checkpoint.contains("\"shard\": {\"index\": \(k), \"count\": 3}"))
      #expect(!checkpoint.contains("testpass"))
    }
  }

  /// The passwords tried, as the part results say.
  private func searched(_ results: TemporaryDirectory) throws -> Int {
    try (1...3).reduce(0) { sum, k in
      let text = try String(contentsOfFile: results.file("part-\(k).json"), encoding: .utf8)
      return sum + (try #require(try Self.object(text)["searched"] as? Int))
    }
  }

  /// A part without the match exits 4, says to collect, and writes no --out file.
  @Test func anExhaustedPartExitsFourAndWritesNothing() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("password.txt")
    let run = try Self.part(3, in: dir, extra: ["--out", out])
    #expect(run.status == 4)
    #expect(
      run.stderr.hasSuffix(
        "freedom-keys: no password of shard 3/3 opened \(Self.keystore): all 67 of its "
          + "passwords tried; this shard holds no match: merge every shard's --json result "
          + "with 'freedom-keys recover collect DIR'\n"))
    #expect(!run.stderr.contains("error:"), "a part without the match is no error")
    #expect(!FileManager.default.fileExists(atPath: out))
    let object = try Self.object(run.stdout)
    #expect(object["found"] as? Bool == false)
    #expect(object["searched"] as? Int == 67)
    #expect(object["matched"] == nil)
    RecoverPasswordTests().expectNoSecret(run, ["testpassword", Self.remembered])
  }

  /// Parts of another search (another remembered password), of another file, or of a phrase
  /// search are refused, naming the files; a missing part is reported.
  @Test func collectRefusesPartsOfAnotherSearch() throws {
    let dir = try TemporaryDirectory()
    let mine = try Self.part(1, in: dir)
    let other = try Self.part(2, remembered: "testpasswore", in: dir)
    let results = try TemporaryDirectory()
    _ = try results.file("part-1.json", mine.stdout)
    _ = try results.file("part-2.json", other.stdout)
    let refused = try CLI.run(["recover", "collect", results.path])
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "\(results.path)/part-2.json is a part of another search than \(results.path)/"
          + "part-1.json (other passwords, or the same ones made another way)"))

    // Alone, part 1 is a search with parts missing.
    let alone = try TemporaryDirectory()
    _ = try alone.file("part-1.json", mine.stdout)
    let missing = try CLI.run(["recover", "collect", alone.path])
    #expect(missing.status == 1)
    #expect(missing.stdout.contains("missing: shard 2, 3\n"))

    // Another file: the pbkdf2 keystore, same password.
    let pbkdf2 = try CLI.run([
      "recover", "password", "--threads", "2", "--keystore",
      RecoverPasswordTests.vector("keystores/eth-keyfile-pbkdf2.json"), "--password-candidates",
      try dir.file("list", "nothing\n"), "--shard", "2/3", "--json",
    ])
    _ = try results.file("part-2.json", pbkdf2.stdout)
    let otherFile = try CLI.run(["recover", "collect", results.path])
    #expect(otherFile.status == 1)
    #expect(
      otherFile.stderr.contains(
        "part-2.json is a part of a search for the password of another file than"))

    // A phrase search's part.
    let target = try RecoverShardTests.address(RecoverTests.truth)
    let phrase = try RecoverShardTests.recover(["--address", target, "--shard", "2/3", "--json"])
    _ = try results.file("part-2.json", phrase.stdout)
    let mixed = try CLI.run(["recover", "collect", results.path])
    #expect(mixed.status == 1)
    #expect(
      mixed.stderr.contains(
        "\(results.path)/part-2.json is a part of a phrase search, \(results.path)/part-1.json "
          + "of a password search"))
  }

  /// A part's checkpoint is of that part: another part's is refused.
  @Test func anotherPartsCheckpointIsRefused() throws {
    let dir = try TemporaryDirectory()
    let checkpoint = dir.file("checkpoint.json")
    let first = try Self.part(1, in: dir, extra: ["--resume", checkpoint])
    #expect(first.status == 4)
    let second = try Self.part(3, in: dir, extra: ["--resume", checkpoint])
    #expect(second.status == 1)
    #expect(
      second.stderr.contains(
        "\(checkpoint): it is the checkpoint of part 1 of 3 of the search, not of this part"))
  }
}

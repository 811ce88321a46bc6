import Foundation
import TestSupport
import Testing

/// `recover --shard slurm | k8s/N` (K and N from the batch system's environment), the fields of
/// `--json` a collector needs, and `recover collect` over the shards' result files.
@Suite("recover shards and collect")
struct RecoverShardTests {
  /// The last word unreadable: 2048 candidates, 128 pass the checksum.
  static let damaged = RecoverTests.truth.replacingOccurrences(of: "yellow", with: "?") + "\n"

  static func address(_ phrase: String) throws -> String {
    RecoverTests.field(try RecoverTests.identities(phrase), "wallet", "address")
  }

  static func recover(
    _ options: [String], environment: [String: String]? = nil, stdin: String = damaged
  ) throws -> CLIRun {
    try CLI.run(
      ["recover", "--mnemonic-file", "-", "--threads", "2"] + options, stdin: stdin,
      environment: environment)
  }

  static func object(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// Runs the three shards of the search for `target` and writes their --json output to
  /// `directory`/shard-K.json.
  static func shards(of target: String, into directory: TemporaryDirectory) throws {
    for k in 1...3 {
      let run = try recover(["--address", target, "--shard", "\(k)/3", "--json"])
      #expect(run.status == 0 || run.status == 4)
      _ = try directory.file("shard-\(k).json", run.stdout)
    }
  }

  @Test(arguments: [
    // --array=1-3, task 2.
    (["ID": "2", "MIN": "1", "MAX": "3", "COUNT": "3"], 2, 3),
    // --array=5-9:2 (5, 7, 9), task 7: the second of three.
    (["ID": "7", "MIN": "5", "MAX": "9", "COUNT": "3", "STEP": "2"], 2, 3),
    (["ID": "0", "MIN": "0", "MAX": "3", "COUNT": "4", "STEP": "1"], 1, 4),
  ])
  func slurmTakesTheShardFromTheArrayTask(variables: [String: String], index: Int, count: Int)
    throws
  {
    let environment = Dictionary(
      uniqueKeysWithValues: variables.map { ("SLURM_ARRAY_TASK_" + $0.key, $0.value) })
    let target = try Self.address(RecoverTests.truth)
    let run = try Self.recover(
      ["--address", target, "--shard", "slurm", "--json"], environment: environment)
    let plain = try Self.recover(["--address", target, "--shard", "\(index)/\(count)", "--json"])
    #expect(run.status == plain.status)
    let object = try Self.object(run.stdout)
    #expect(object["shard"] as? [String: Int] == ["index": index, "count": count])
    #expect(object["candidates"] as? Int == (try Self.object(plain.stdout))["candidates"] as? Int)
    #expect(run.stderr.contains("(shard \(index)/\(count))"))
  }

  /// A task submitted again on its own (`sbatch --array=2` of a search of 4 parts) keeps its
  /// part with `--shard slurm/N`; plain `slurm` would take it for a search of one part, and
  /// refuses, naming slurm/N.
  @Test func aTaskSubmittedAgainKeepsItsPartWithSlurmN() throws {
    let environment = [
      "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2",
      "SLURM_ARRAY_TASK_COUNT": "1",
    ]
    let target = try Self.address(RecoverTests.other)
    let run = try Self.recover(
      ["--address", target, "--shard", "slurm/4", "--json"], environment: environment)
    #expect(run.status == 4)
    #expect((try Self.object(run.stdout))["shard"] as? [String: Int] == ["index": 2, "count": 4])
    let plain = try Self.recover(
      ["--address", target, "--shard", "slurm", "--json"], environment: environment)
    #expect(plain.status == 2)
    #expect(plain.stdout.isEmpty)
    #expect(plain.stderr.contains("give --shard slurm/N"))
    let outside = try Self.recover(
      ["--address", target, "--shard", "slurm/4"], environment: ["SLURM_ARRAY_TASK_ID": "5"])
    #expect(outside.status == 2)
    #expect(outside.stderr.contains("SLURM_ARRAY_TASK_ID must be a whole number from 1 to N"))
  }

  @Test(arguments: [
    ([:], "--shard slurm must run inside an sbatch array task (sbatch --array=1-N)"),
    (["ID": "2", "MIN": "1", "MAX": "3"], "--shard slurm must run inside an sbatch array task"),
    // --array=1,3,7: three tasks that are not one range.
    (["ID": "3", "MIN": "1", "MAX": "7", "COUNT": "3"], "--shard slurm needs a contiguous array"),
    (["ID": "4", "MIN": "1", "MAX": "7", "COUNT": "4", "STEP": "2"], "needs a contiguous array"),
    (["ID": "9", "MIN": "1", "MAX": "3", "COUNT": "3"], "needs a contiguous array"),
    (["ID": "x", "MIN": "1", "MAX": "3", "COUNT": "3"], "are not whole numbers"),
  ])
  func slurmOutsideAContiguousArrayIsAUsageError(variables: [String: String], message: String)
    throws
  {
    let environment = Dictionary(
      uniqueKeysWithValues: variables.map { ("SLURM_ARRAY_TASK_" + $0.key, $0.value) })
    // The mnemonic file does not exist: reading it would be exit 1, not 2.
    let run = try CLI.run(
      ["recover", "--mnemonic-file", "/nonexistent/words.txt", "--shard", "slurm"],
      environment: environment)
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("freedom-keys: error: "))
    #expect(run.stderr.contains(message))
    #expect(run.stderr.split(separator: "\n").count == 1)
  }

  @Test func kubernetesIndexedJobsCountFromZero() throws {
    let target = try Self.address(RecoverTests.truth)
    for index in 0..<3 {
      let run = try Self.recover(
        ["--address", target, "--shard", "k8s/3", "--json"],
        environment: ["JOB_COMPLETION_INDEX": "\(index)"])
      #expect(run.status == 0 || run.status == 4)
      #expect(
        (try Self.object(run.stdout))["shard"] as? [String: Int] == [
          "index": index + 1, "count": 3,
        ])
    }
  }

  @Test(arguments: [
    (["k8s/3"], ["JOB_COMPLETION_INDEX": "3"], "JOB_COMPLETION_INDEX must be a whole number"),
    (["k8s/3"], [:], "--shard k8s/<n> must run in a pod of a Kubernetes Indexed Job"),
    (["k8s/0"], ["JOB_COMPLETION_INDEX": "0"], "--shard k8s/<n> needs the Job's completions"),
    (["k8s/"], ["JOB_COMPLETION_INDEX": "0"], "--shard k8s/<n> needs the Job's completions"),
    (["0/3"], [:], "--shard <k/n> must be K/N with 1 ≤ K ≤ N"),
    (["+1/3"], [:], "--shard <k/n> must be K/N with 1 ≤ K ≤ N"),
  ])
  func kubernetesAndPlainShardUsageErrors(
    shard: [String], environment: [String: String], message: String
  ) throws {
    let run = try CLI.run(
      ["recover", "--mnemonic-file", "/nonexistent/words.txt", "--shard"] + shard,
      environment: environment)
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("freedom-keys: error: \(message)"))
  }

  @Test func jsonNamesTheShardTheWholeSearchAndAPublicHash() throws {
    let target = try Self.address(RecoverTests.truth)
    var hashes: Set<String> = []
    var total = 0
    var found = 0
    for k in 1...3 {
      let run = try Self.recover(["--address", target, "--shard", "\(k)/3", "--json"])
      let object = try Self.object(run.stdout)
      #expect(object["shard"] as? [String: Int] == ["index": k, "count": 3])
      #expect(object["searchCandidates"] as? Int == 2048)
      #expect(object["complete"] as? Bool == true)
      let hash = try #require(object["search"] as? String)
      #expect(hash.count == 64 && hash.allSatisfy(\.isHexDigit))
      hashes.insert(hash)
      total += try #require(object["candidates"] as? Int)
      if object["found"] as? Bool == true { found += 1 }
      for word in Set(RecoverTests.truth.split(separator: " ")) {
        #expect(!run.stdout.contains(word) || word == "yellow")
      }
    }
    #expect(hashes.count == 1)
    #expect(total == 2048)
    #expect(found == 1)
    // Another target is another search.
    let other = try Self.recover(
      ["--address", try Self.address(RecoverTests.other), "--shard", "1/3", "--json"])
    #expect((try Self.object(other.stdout))["search"] as? String != hashes.first)
  }

  /// The public hash, pinned: shards of builds with another are another search to `recover
  /// collect` (since it covers the words and passphrases, those before it are).
  @Test func thePublicHashIsStable() throws {
    let target = try Self.address(RecoverTests.truth)
    let plain = try Self.recover(["--address", target, "--shard", "1/3", "--json"])
    #expect(
      try Self.object(plain.stdout)["search"] as? String
        == "2ff042c111d53d5507489027391122944a3e465da646dcd73de1bff23167279b")
    // The later damage models and several passphrases enter the hash too.
    let directory = try TemporaryDirectory()
    let candidates = try directory.file("candidates.txt", "a\nb\nc\n")
    let extra = try Self.recover(
      [
        "--address", target, "--extra", "1", "--passphrase-candidates", candidates, "--shard",
        "2/2", "--json",
      ], stdin: RecoverTests.truth + " thank\n")
    #expect(
      try Self.object(extra.stdout)["search"] as? String
        == "266198ba6a1df88d477552123367e663a0bbe8549552be9c687f40548bc8fbc1")
  }

  /// SIGTERM (what Slurm and Kubernetes send a task they preempt) stops the search like Ctrl-C,
  /// and --json still prints the shard's result, marked incomplete.
  @Test func anInterruptedShardStillPrintsItsResult() throws {
    let directory = try TemporaryDirectory()
    let words = try directory.file(
      "words.txt", "legal winner ? year wave sausage worth ? legal winner ? yellow\n")
    let checkpoint = directory.file("progress.json")
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = [
      "recover", "--mnemonic-file", words, "--address", try Self.address(RecoverTests.other),
      "--resume", checkpoint, "--threads", "2", "--shard", "2/4", "--json",
    ]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    var early = Data()
    while !String(decoding: early, as: UTF8.self).contains("pass the checksum") {
      let chunk = error.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      early += chunk
    }
    Thread.sleep(forTimeInterval: 1)
    process.terminate()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      Issue.record("recover did not stop within a minute of SIGTERM")
    }
    process.waitUntilExit()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 130)
    let object = try Self.object(stdout)
    #expect(object["complete"] as? Bool == false)
    #expect(object["found"] as? Bool == false)
    #expect(object["shard"] as? [String: Int] == ["index": 2, "count": 4])
    #expect(object["searchCandidates"] as? Int == 8_589_934_592)
    let searched = try #require(object["searched"] as? Int)
    #expect(searched < (object["candidates"] as? Int ?? 0))
    #expect(FileManager.default.fileExists(atPath: checkpoint))
  }

  // MARK: - collect

  @Test func collectFindsTheShardThatFoundIt() throws {
    let directory = try TemporaryDirectory()
    try Self.shards(of: try Self.address(RecoverTests.truth), into: directory)
    let run = try CLI.run(["recover", "collect", directory.path, "--json"])
    #expect(run.status == 0)
    let object = try Self.object(run.stdout)
    #expect(object["status"] as? String == "found")
    #expect(object["shards"] as? Int == 3)
    #expect(object["missing"] as? [Int] == [])
    #expect(object["incomplete"] as? [Int] == [])
    #expect(object["candidates"] as? Int == 2048)
    let results = try #require(object["results"] as? [[String: Any]])
    #expect(results.map { $0["shard"] as? Int } == [1, 2, 3])
    let found = results.filter { $0["found"] as? Bool == true }
    #expect(found.count == 1)
    let changes = try #require(found.first?["changes"] as? [[String: Any]])
    #expect(changes.count == 1)
    #expect(changes.first?["position"] as? Int == 12)
    #expect(changes.first?["word"] as? String == "yellow")
    #expect(found.first?["matched"] as? String == "wallet.address")

    let text = try CLI.run(["recover", "collect", directory.path])
    #expect(text.status == 0)
    #expect(text.stdout.contains("word 12 is 'yellow' (was '?')\nmatched wallet.address\n"))
    for word in ["legal", "winner", "thank", "wave", "sausage", "worth", "useful"] {
      #expect(!text.stdout.contains(word) && !run.stdout.contains(word))
    }
  }

  @Test func collectSaysExhaustedWhenEveryShardIsCompleteAndNoneFound() throws {
    let directory = try TemporaryDirectory()
    try Self.shards(of: try Self.address(RecoverTests.other), into: directory)
    let run = try CLI.run(["recover", "collect", directory.path, "--json"])
    #expect(run.status == 4)
    let object = try Self.object(run.stdout)
    #expect(object["status"] as? String == "exhausted")
    #expect(object["candidates"] as? Int == 2048)
    #expect(object["searched"] as? Int == 2048)
    #expect(run.stderr.hasPrefix("freedom-keys: error: no shard matched the targets"))
    #expect(run.stderr.split(separator: "\n").count == 1)
  }

  @Test func collectNamesTheMissingAndInterruptedShards() throws {
    let directory = try TemporaryDirectory()
    try Self.shards(of: try Self.address(RecoverTests.other), into: directory)
    try FileManager.default.removeItem(atPath: directory.file("shard-1.json"))
    // Shard 3 as an interrupted run leaves it.
    let third = try String(contentsOfFile: directory.file("shard-3.json"), encoding: .utf8)
    try third.replacingOccurrences(of: "\"complete\": true", with: "\"complete\": false")
      .write(toFile: directory.file("shard-3.json"), atomically: true, encoding: .utf8)
    let run = try CLI.run(["recover", "collect", directory.path, "--json"])
    #expect(run.status == 1)
    let object = try Self.object(run.stdout)
    #expect(object["status"] as? String == "incomplete")
    #expect(object["missing"] as? [Int] == [1])
    #expect(object["incomplete"] as? [Int] == [3])
    #expect(run.stderr.contains("shard 1 missing, 3 interrupted"))
    #expect(run.stderr.split(separator: "\n").count == 1)
  }

  /// The text a user of a cluster reads: the exact command that writes the phrase, the count
  /// against the whole search with parts missing, a file still being written.
  @Test func collectSaysHowToWriteThePhraseAndCountsAgainstTheWholeSearch() throws {
    let directory = try TemporaryDirectory()
    try Self.shards(of: try Self.address(RecoverTests.truth), into: directory)
    let found = try CLI.run(["recover", "collect", directory.path])
    #expect(found.status == 0)
    let index = try #require(
      (1...3).first { k in
        found.stdout.contains("found by shard \(k) of 3")
      })
    #expect(
      found.stdout.contains(
        "to write the corrected phrase, run that shard's recover command again with --shard "
          + "\(index)/3 --out FILE (with its --resume file it is written without searching)\n"))

    let none = try TemporaryDirectory()
    try Self.shards(of: try Self.address(RecoverTests.other), into: none)
    let second = try String(contentsOfFile: none.file("shard-2.json"), encoding: .utf8)
    try FileManager.default.removeItem(atPath: none.file("shard-3.json"))
    // A task still writing its result: cut short, or not begun.
    try String(second.prefix(30)).write(
      toFile: none.file("shard-2.json"), atomically: true, encoding: .utf8)
    let run = try CLI.run(["recover", "collect", none.path])
    #expect(run.status == 1)
    #expect(run.stdout.contains("1 of 3 shards: 682 of 2,048 candidates searched\n"))
    #expect(run.stdout.contains("still being written: \(none.file("shard-2.json"))\n"))
    #expect(run.stderr.contains("shard 2 missing, 3 missing"))
    #expect(run.stderr.contains("still being written"))
    #expect(!run.stderr.contains("remove it"))
    #expect(run.stderr.split(separator: "\n").count == 1)
  }

  /// A shard with no match says so, and does not send the user widening a search another
  /// shard may have found.
  @Test func aShardWithoutAMatchPointsToCollect() throws {
    let run = try Self.recover([
      "--address", try Self.address(RecoverTests.other), "--shard", "1/3",
    ])
    #expect(run.status == 4)
    #expect(
      run.stderr.contains(
        "\nfreedom-keys: no candidate of shard 1/3 matched the targets: all 682 candidates"))
    #expect(!run.stderr.contains("error:"), "a part without the match is no error")
    #expect(run.stderr.contains("this shard holds no match: merge every shard's --json result"))
    #expect(!run.stderr.contains("widen the search"))
  }

  /// The phrase's words enter the public hash (through PBKDF2): a shard of the corrected
  /// words file is another search to collect.
  @Test func collectRefusesAShardWhoseWordsChanged() throws {
    let directory = try TemporaryDirectory()
    try Self.shards(of: try Self.address(RecoverTests.other), into: directory)
    let changed = try Self.recover(
      ["--address", try Self.address(RecoverTests.other), "--shard", "1/3", "--json"],
      stdin: Self.damaged.replacingOccurrences(of: "legal winner", with: "letter winner"))
    _ = try directory.file("shard-1.json", changed.stdout)
    let run = try CLI.run(["recover", "collect", directory.path])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("is a shard of another search than"))
  }

  @Test(arguments: [
    ("{]", "invalid JSON at byte"),
    ("[]", "it is not a JSON object"),
    ("{\"found\": false}", "it needs exactly one \"shard\""),
  ])
  func collectRefusesAMalformedFileByName(content: String, reason: String) throws {
    let directory = try TemporaryDirectory()
    try Self.shards(of: try Self.address(RecoverTests.other), into: directory)
    let bad = try directory.file("shard-9.json", content)
    let run = try CLI.run(["recover", "collect", directory.path])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("freedom-keys: error: \(bad): \(reason)"))
    #expect(run.stderr.split(separator: "\n").count == 1)
  }

  @Test func collectRefusesShardsOfDifferentSearchesOrSplits() throws {
    let directory = try TemporaryDirectory()
    try Self.shards(of: try Self.address(RecoverTests.other), into: directory)
    let other = try Self.recover(
      ["--address", try Self.address(RecoverTests.truth), "--shard", "1/3", "--json"])
    _ = try directory.file("shard-0.json", other.stdout)
    let mixed = try CLI.run(["recover", "collect", directory.path])
    #expect(mixed.status == 1)
    #expect(mixed.stdout.isEmpty)
    #expect(mixed.stderr.contains("is a shard of another search than"))

    try FileManager.default.removeItem(atPath: directory.file("shard-0.json"))
    let split = try Self.recover(
      ["--address", try Self.address(RecoverTests.other), "--shard", "1/2", "--json"])
    _ = try directory.file("shard-4.json", split.stdout)
    let run = try CLI.run(["recover", "collect", directory.path])
    #expect(run.status == 1)
    #expect(run.stderr.contains("is shard 1 of 2"))
  }

  @Test func collectUsage() throws {
    let missing = try CLI.run(["recover", "collect"])
    #expect(missing.status == 2)
    #expect(missing.stderr.hasPrefix("freedom-keys: error: missing <dir>"))
    let empty = try TemporaryDirectory()
    let none = try CLI.run(["recover", "collect", empty.path])
    #expect(none.status == 1)
    #expect(none.stderr.contains("holds no .json results"))
  }
}

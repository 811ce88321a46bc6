import Foundation
import TestSupport
import Testing

/// `recover`'s damage model from the command line: alternatives and patterns, extra words,
/// damage files, automatic phases and --max-hours, passphrase candidates and typos, and the
/// refusal of a search too large before anything is allocated for it.
@Suite("recover command: damage and passphrases")
struct RecoverDamageTests {
  static let truth = RecoverTests.truth
  /// "TREZOR": the passphrase of the published BIP-39 test vectors.
  static let passphrase = "TREZOR"

  static func swarm(_ phrase: String, passphrase: String? = nil) throws -> String {
    var arguments = ["derive", "--mnemonic-file", "-", "--json"]
    let directory = try TemporaryDirectory()
    if let passphrase {
      arguments += ["--passphrase-file", try directory.file("p.txt", passphrase)]
    }
    let run = try CLI.run(arguments, stdin: phrase)
    #expect(run.status == 0)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    return try #require((object["swarm"] as? [String: Any])?["address"] as? String)
  }

  func recover(_ options: [String], stdin: String) throws -> CLIRun {
    try CLI.run(["recover", "--mnemonic-file", "-", "--threads", "2"] + options, stdin: stdin)
  }

  static func words(_ changes: [Int: String]) -> String {
    var words = truth.split(separator: " ").map(String.init)
    for (position, word) in changes { words[position - 1] = word }
    return words.joined(separator: " ") + "\n"
  }

  @Test func alternativesAndStarsAnywhere() throws {
    let run = try recover(
      ["--address", try Self.swarm(Self.truth), "--typos", "0"],
      stdin: Self.words([3: "thnak|that", 7: "w*th"]))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        word 3 is 'thank' (was 'thnak|that')
        word 7 is 'worth' (was 'w*th')
        matched swarm.address
        give --out FILE to write the whole corrected phrase to a new file

        """)
  }

  @Test func anExtraWordIsFound() throws {
    var words = Self.truth.split(separator: " ").map(String.init)
    words.insert("zoo", at: 5)
    let run = try recover(
      ["--address", try Self.swarm(Self.truth), "--extra", "1", "--json"],
      stdin: words.joined(separator: " "))
    #expect(run.status == 0, "\(run.stderr)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(object["candidates"] as? Int == 13)
    let text = try recover(
      ["--address", try Self.swarm(Self.truth), "--extra", "1"],
      stdin: words.joined(separator: " "))
    #expect(
      text.stdout.hasPrefix("word 6 as written was extra (left out)\nmatched swarm.address\n"))
  }

  @Test func aDamageFileIsReadAsASecret() throws {
    let directory = try TemporaryDirectory()
    let lines = Self.truth.split(separator: " ").enumerated().map { offset, word in
      offset == 2 ? "# word 3 was smudged\nthank | than k*\n" : "\(word)\n"
    }
    let file = try directory.file("damage.txt", lines.joined())
    chmod(file, 0o644)
    let run = try CLI.run([
      "recover", "--damage-file", file, "--address", try Self.swarm(Self.truth), "--typos", "0",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("word 3 is 'thank' (was 'thank|than|k*')\n"))
    #expect(run.stderr.contains("\(file) is readable by other users (mode 0644)"))
    #expect(!run.stderr.contains("winner"))
    let both = try CLI.run(["recover", "--damage-file", file, "--mnemonic-file", file])
    #expect(both.status == 2)
    #expect(
      both.stderr.hasPrefix(
        "freedom-keys: error: --damage-file and --mnemonic-file cannot be combined"))
  }

  @Test func automaticPhasesTryTheLikelyDamageInTurn() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.url.appendingPathComponent("progress.json").path
    let swapped = Self.words([10: "thank", 11: "winner"])
    let address = try Self.swarm(Self.truth)
    let run = try recover(["--address", address, "--resume", checkpoint], stdin: swapped)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("words 10 and 11 were swapped\nmatched swarm.address\n"))
    // The engine line first (RecoverPathTests), then the phases.
    let afterEngine = run.stderr.split(separator: "\n", maxSplits: 1).last ?? ""
    #expect(run.stderr.hasPrefix("engine: "))
    #expect(afterEngine.hasPrefix("phase 1 of 9: the phrase as written\nsearching 1 candidates"))
    #expect(
      run.stderr.contains(
        "phase 1 of 9 (the phrase as written): no match in 1 candidates\n"
          + "phase 2 of 9: two adjacent words exchanged\nsearching 11 candidates of 12 english words"
      ))
    #expect(!run.stderr.contains("phase 3"))
    // The checkpoint is phase 2's: run again, phase 1 is not searched again.
    let again = try recover(["--address", address, "--resume", checkpoint], stdin: swapped)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.hasPrefix("resuming at phase 2 of 9: \(checkpoint) shows the phases"))
    #expect(again.stdout.hasPrefix("found earlier\nwords 10 and 11 were swapped\n"))
    // With --shard (or any damage option) exactly the search given: no phases.
    let shard = try recover(["--address", address, "--shard", "1/1"], stdin: swapped)
    #expect(shard.status == 4)
    #expect(!shard.stderr.contains("phase"))
  }

  /// Before the last, widest phase, stderr says what else than the words could explain the
  /// likelier phases' finding nothing: here an address of MetaMask's sixth account (index 5).
  @Test func beforeTheLastPhaseTheTargetsAreQuestioned() throws {
    let derived = try CLI.run(
      ["derive", "--mnemonic-file", "-", "--path", "m/44'/60'/0'/0/5", "--json"],
      stdin: Self.truth)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(derived.stdout.utf8)) as? [String: Any])
    let address = try #require(object["address"] as? String)
    // 11 words: phase 1 of 2 (one missing word) is 24,576 candidates, phase 2 hours.
    let directory = try TemporaryDirectory()
    let words = try directory.file(
      "words.txt", Self.truth.split(separator: " ").dropLast().joined(separator: " ") + "\n")
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = [
      "recover", "--mnemonic-file", words, "--address", address, "--threads", "2",
    ]
    // The checkpoint the search keeps by itself goes to the test's folder, not the user's.
    process.environment = ProcessInfo.processInfo.environment.merging([
      "XDG_STATE_HOME": directory.url.path
    ]) { $1 }
    let error = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = error
    try process.run()
    var stderr = ""
    while !stderr.contains("phase 2 of 2:") {
      let chunk = error.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      stderr += String(decoding: chunk, as: UTF8.self)
    }
    process.terminate()
    process.waitUntilExit()
    #expect(
      stderr.contains(
        "phase 1 of 2 (one missing word): no match in 24,576 candidates\n"
          + "the likelier phases found nothing; if the phrase is nearly right, the targets may "
          + "be what differs: an address of an account beyond the 3 tried (--accounts N or "
          + "--path TEMPLATE); a BIP-39 passphrase (--passphrase-file or --passphrase-candidates "
          + "FILE)\nphase 2 of 2: one missing word and one wrong word\n"), "\(stderr)")
    // The hint was right: with --accounts 6 the first phase finds it.
    let found = try recover(
      ["--address", address, "--accounts", "6"],
      stdin: Self.truth.split(separator: " ").dropLast().joined(separator: " ") + "\n")
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("matched metamask[5].address"), "\(found.stdout)")
    #expect(!found.stderr.contains("likelier"))
  }

  @Test func maxHoursStopsResumably() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.url.appendingPathComponent("progress.json").path
    let address = try Self.swarm(RecoverTests.other)
    let phrase = "legal winner ? year wave sausage worth ? legal winner ? yellow\n"
    // 0.0003 h: about a second.
    let options = ["--address", address, "--resume", checkpoint, "--max-hours", "0.0003"]
    let run = try recover(options + ["--typos", "0"], stdin: phrase)
    #expect(run.status == 130, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr.contains("freedom-keys: error: stopped after --max-hours 0.0003, having searched ")
    )
    #expect(run.stderr.hasSuffix(": run the same command again to continue from \(checkpoint)\n"))
    let saved = try String(contentsOfFile: checkpoint, encoding: .utf8)
    #expect(saved.hasPrefix("{\"format\": \"freedom-keys recover checkpoint 1\""))
    let again = try recover(options + ["--typos", "0"], stdin: phrase)
    #expect(again.status == 130)
    #expect(again.stderr.contains("; resuming, "))
    let usage = try recover(["--max-hours", "0"], stdin: phrase)
    #expect(usage.status == 2)
    #expect(
      usage.stderr.hasPrefix("freedom-keys: error: --max-hours <h> must be a number of hours"))
  }

  @Test func passphraseCandidatesNameTheLineNeverThePassphrase() throws {
    let directory = try TemporaryDirectory()
    let candidates = try directory.file(
      "candidates.txt", "\nTrezor\ntrezor\n\(Self.passphrase)\nTREZOR!\n")
    chmod(candidates, 0o644)
    let out = directory.url.appendingPathComponent("fixed.txt").path
    let address = try Self.swarm(Self.truth, passphrase: Self.passphrase)
    let run = try recover(
      ["--address", address, "--passphrase-candidates", candidates, "--out", out],
      stdin: RecoverTests.damaged)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        word 3 is 'thank' (was 'th*')
        the passphrase is passphrase candidate line 4
        matched swarm.address
        wrote the corrected phrase to \(out) (mode 0600)
        wrote the passphrase to \(out).passphrase (mode 0600)

        """)
    #expect(
      run.stderr.contains(
        "searching 75 candidates of 12 english words (15 phrases × 5 passphrases)"))
    #expect(run.stderr.contains("\(candidates) is readable by other users (mode 0644)"))
    #expect(!run.stderr.contains("TREZOR") && !run.stderr.contains("Trezor"))
    #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.truth + "\n")
    #expect(try String(contentsOfFile: out + ".passphrase", encoding: .utf8) == "TREZOR\n")
    let mode =
      try FileManager.default.attributesOfItem(atPath: out + ".passphrase")[.posixPermissions]
      as? Int
    #expect(mode == 0o600)
  }

  /// btcrecover's token syntax for the passphrase: the tokens named, never the passphrase.
  @Test func passphraseTokensNameTheTokensNeverThePassphrase() throws {
    let directory = try TemporaryDirectory()
    let tokens = try directory.file("tokens.txt", "%[Tt]REZOR\n%y$\n")
    let address = try Self.swarm(Self.truth, passphrase: Self.passphrase)
    let run = try recover(
      ["--address", address, "--passphrase-tokens", tokens], stdin: RecoverTests.damaged)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        word 3 is 'thank' (was 'th*')
        the passphrase is made of tokens line 1 token 1 of the passphrase token list
        matched swarm.address
        give --out FILE to write the whole corrected phrase to a new file

        """)
    // T or t, 32 symbols alone, and T or t then a symbol: 98, numbered, not compared.
    #expect(
      run.stderr.contains(
        "searching 1,470 candidates of 12 english words (15 phrases × 98 passphrases, "
          + "duplicates possible)"))
    #expect(!run.stderr.contains("REZOR"))
    let mixed = try recover(
      ["--address", address, "--passphrase-tokens", tokens, "--passphrase-candidates", tokens],
      stdin: RecoverTests.damaged)
    #expect(mixed.status == 2)
    #expect(mixed.stderr.contains("--passphrase-tokens cannot be combined"))
  }

  @Test func shardsOfAPassphraseSearchAddUpInCollect() throws {
    let directory = try TemporaryDirectory()
    let candidates = try directory.file("candidates.txt", "one\ntwo\n\(Self.passphrase)\n")
    let results = directory.url.appendingPathComponent("results")
    try FileManager.default.createDirectory(at: results, withIntermediateDirectories: false)
    let address = try Self.swarm(Self.truth, passphrase: Self.passphrase)
    var searched = 0
    for k in 1...2 {
      let run = try recover(
        [
          "--address", address, "--passphrase-candidates", candidates, "--shard", "\(k)/2",
          "--json",
        ], stdin: RecoverTests.damaged)
      let object = try #require(
        JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      #expect(object["searchCandidates"] as? Int == 45)
      searched += try #require(object["searched"] as? Int)
      // The third passphrase is candidates 30-44: in the second half.
      #expect(run.status == (k == 2 ? 0 : 4), "\(run.stderr)")
      #expect(!run.stdout.contains("TREZOR"))
      try Data(run.stdout.utf8).write(to: results.appendingPathComponent("part-\(k).json"))
    }
    #expect(searched <= 45)
    let collect = try CLI.run(["recover", "collect", results.path, "--json"])
    #expect(collect.status == 0, "\(collect.stderr)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(collect.stdout.utf8)) as? [String: Any])
    #expect(object["status"] as? String == "found")
    #expect(object["searchCandidates"] as? Int == 45)
  }

  /// `--keyboard` says whose neighbours a key has: U is next to Z on a German keyboard, not on
  /// QWERTY, so "TREUOR" is a neighbouring key there and a plain replacement here.
  @Test func theKeyboardSaysWhichKeysAreNeighbours() throws {
    let directory = try TemporaryDirectory()
    let remembered = try directory.file("passphrase.txt", "TREUOR\n")
    let address = try Self.swarm(Self.truth, passphrase: Self.passphrase)
    func run(_ keyboard: [String]) throws -> CLIRun {
      try recover(
        [
          "--address", address, "--passphrase-file", remembered, "--passphrase-typos", "1",
          "--typos", "0",
        ] + keyboard, stdin: Self.truth)
    }
    let german = try run(["--keyboard", "qwertz"])
    #expect(german.status == 0, "\(german.stderr)")
    #expect(
      german.stdout.contains(
        "the passphrase is the one remembered with character 4 replaced by a neighbouring key\n"))
    let english = try run([])
    #expect(english.status == 0, "\(english.stderr)")
    #expect(
      english.stdout.contains("the passphrase is the one remembered with character 4 replaced\n"))
    let unknown = try run(["--keyboard", "dvorak"])
    #expect(unknown.status == 2)
    #expect(unknown.stdout.isEmpty)
    #expect(unknown.stderr.contains("--keyboard <layout> must be qwerty, qwertz or azerty"))
    #expect(!unknown.stderr.contains("dvorak"))
  }

  @Test func passphraseTyposSayTheEdit() throws {
    let directory = try TemporaryDirectory()
    let remembered = try directory.file("passphrase.txt", "TERZOR\n")
    let address = try Self.swarm(Self.truth, passphrase: Self.passphrase)
    let run = try recover(
      [
        "--address", address, "--passphrase-file", remembered, "--passphrase-typos", "1",
        "--typos", "0",
      ], stdin: Self.truth)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.hasPrefix(
        "the phrase was right as remembered\n"
          + "the passphrase is the one remembered with characters 2 and 3 exchanged\n"))
    #expect(!run.stdout.contains("TREZOR") && !run.stderr.contains("TREZOR"))
  }

  @Test(arguments: [
    (
      ["--passphrase-typos", "1", "--address", "0x0d3eb21b6b21833a4939cfff4810e9ae0758e12c"],
      "--passphrase-typos <k> needs --passphrase-file PATH"
    ),
    (
      ["--passphrase-candidates", "/nonexistent/c.txt"],
      "--passphrase-candidates, --passphrase-tokens and --passphrase-typos need a target"
    ),
    (
      ["--passphrase-candidates", "/nonexistent/c.txt", "--passphrase-file", "/nonexistent/p"],
      "--passphrase-candidates and --passphrase-file cannot be combined"
    ),
    (["--extra", "x"], "--extra <n> must be a whole number from 0 to 12"),
  ])
  func passphraseUsageErrorsComeBeforeAnyRead(options: [String], message: String) throws {
    let run = try CLI.run(["recover", "--mnemonic-file", "/nonexistent/words.txt"] + options)
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("freedom-keys: error: \(message)"), "\(run.stderr)")
  }

  @Test func anExhaustedSearchWithoutAPassphraseSaysOneCouldExplainIt() throws {
    let address = try Self.swarm(Self.truth, passphrase: Self.passphrase)
    let run = try recover(["--address", address, "--typos", "0"], stdin: RecoverTests.damaged)
    #expect(run.status == 4)
    #expect(
      run.stderr.hasSuffix(
        "; a BIP-39 passphrase could explain it: give --passphrase-file (or "
          + "--passphrase-candidates FILE)\n"))
    let directory = try TemporaryDirectory()
    let given = try directory.file("p.txt", "wrong")
    let with = try recover(
      ["--address", address, "--typos", "0", "--passphrase-file", given],
      stdin: RecoverTests.damaged)
    #expect(with.status == 4)
    #expect(!with.stderr.contains("passphrase could explain"))
  }

  /// 24 words with --typos 12, or 12 with --missing 12: more than 2^63 candidates in millions
  /// of parts. Refused at once, in a process allowed 1 GB of address space.
  @Test(arguments: [
    (Array(repeating: "abandon", count: 23) + ["art"], ["--typos", "12"]),
    (Array(repeating: "abandon", count: 11) + ["about"], ["--missing", "12"]),
    (Array(repeating: "abandon", count: 11) + ["about"], ["--typos", "6", "--swaps"]),
  ])
  func aHugeSearchIsRefusedWithoutAllocatingIt(words: [String], damage: [String]) throws {
    let directory = try TemporaryDirectory()
    let file = try directory.file("words.txt", words.joined(separator: " ") + "\n")
    let command =
      ([
        CLI.executable.path, "recover", "--mnemonic-file", file, "--address",
        "0x0d3eb21b6b21833a4939cfff4810e9ae0758e12c",
      ] + damage)
      .map { "'\($0)'" }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "ulimit -v 1000000; exec " + command]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // The messages are one line each: the pipes cannot fill before the process ends.
    process.waitUntilExit()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 1, "\(stderr)")
    #expect(stdout.isEmpty)
    #expect(
      stderr.hasPrefix("freedom-keys: error: the search has more than 2^63 candidates")
        || stderr.hasPrefix("freedom-keys: error: the damage models combine into"),
      "\(stderr)")
  }

  /// The library says what is wrong in plain words; the command names the options to change.
  @Test(arguments: [
    (
      "zzzq zzzq zzzq zzzq zzzq zzzq zzzq zzzq zzzq zzzq zzzq zzzq", [String](),
      "no word of the phrase is in a wordlist, so its language is unknown: give --language"
    ),
    (
      "legal winner thank year wave sausage worth useful legal winner thank", [],
      "11 words, but a BIP-39 phrase has 12, 15, 18, 21 or 24 words: write ? for each word you "
        + "cannot read, or give --missing N for words left out"
    ),
    (truth, ["--typos", "13"], "--typos 13 is more than the 12 words of the phrase"),
    (
      Array(repeating: "abandon", count: 11).joined(separator: " ") + " about",
      ["--missing", "12"],
      "the search has more than 2^63 candidates: narrow it (fewer ? words, a lower --typos)"
    ),
    (
      Array(repeating: "abandon", count: 23).joined(separator: " "),
      ["--typos", "3", "--swaps", "--missing", "1"],
      "the damage models combine into 6001 overlapping parts, more than can be searched at "
        + "once: use fewer of --missing, --swaps and --typos together"
    ),
  ])
  func aSearchThatCannotBeMadeNamesTheOptions(phrase: String, options: [String], message: String)
    throws
  {
    let run = try recover(options, stdin: phrase + "\n")
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "freedom-keys: error: \(message)\n")
  }

  /// The damage file holds the phrase, so the passphrase may come on standard input; two
  /// inputs on standard input are still refused.
  @Test func aDamageFileLeavesStandardInputToThePassphrase() throws {
    let directory = try TemporaryDirectory()
    // One line per position.
    let file = try directory.file(
      "damage.txt", Self.truth.split(separator: " ").joined(separator: "\n") + "\n")
    let address = try Self.swarm(Self.truth, passphrase: Self.passphrase)
    let run = try CLI.run(
      [
        "recover", "--damage-file", file, "--passphrase-file", "-", "--address", address,
        "--typos", "0", "--threads", "2",
      ], stdin: Self.passphrase)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.hasPrefix("the phrase was right as remembered\nmatched swarm.address\n"),
      "\(run.stdout)")
    #expect(!run.stderr.contains(Self.passphrase))
    let both = try CLI.run(
      ["recover", "--damage-file", "-", "--passphrase-file", "-", "--address", address],
      stdin: Self.truth)
    #expect(both.status == 2)
    #expect(
      both.stderr.hasPrefix(
        "freedom-keys: error: only one of the files given can be standard input ('-')"))
  }
}

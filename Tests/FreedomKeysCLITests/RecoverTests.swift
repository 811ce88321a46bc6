import Foundation
import TestSupport
import Testing

/// `recover`: damaged published phrases found again through every kind of target, the output
/// and exit codes, --out, --json, --resume, and usage errors before anything is read.
@Suite("recover command")
struct RecoverTests {
  static let truth = "legal winner thank year wave sausage worth useful legal winner thank yellow"
  /// "th*" leaves 15 English words for word 3: a search of a few seeds.
  static let damaged = "legal winner th* year wave sausage worth useful legal winner thank yellow\n"
  static let other =
    "letter advice cage absurd amount doctor acoustic avoid letter advice cage above"

  /// `derive --json` of a phrase: the identities targets are made of.
  static func identities(_ phrase: String) throws -> [String: Any] {
    let run = try CLI.run(["derive", "--mnemonic-file", "-", "--json"], stdin: phrase)
    #expect(run.status == 0)
    return try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
  }

  static func field(_ identities: [String: Any], _ node: String, _ key: String) -> String {
    ((identities[node] as? [String: Any])?[key] as? String) ?? ""
  }

  func recover(_ options: [String], stdin: String = RecoverTests.damaged) throws -> CLIRun {
    try CLI.run(["recover", "--mnemonic-file", "-", "--threads", "2"] + options, stdin: stdin)
  }

  @Test func helpDescribesTheCommandWithinEightyColumns() throws {
    let run = try CLI.run(["recover", "--help"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    #expect(
      run.stdout.hasPrefix(
        "OVERVIEW: Find the unreadable, missing, misspelt or swapped words.\n\n"
          + "USAGE: freedom-keys recover [<options>]\n"))
    for option in ["--missing <n>", "--swaps", "--typos <k>", "--shard <k/n>", "--resume <path>"] {
      #expect(run.stdout.contains("  \(option) "))
    }
    #expect(run.stdout.contains("searches the K-th of N disjoint parts"))
    for line in run.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
  }

  @Test func findsTheWordAgainstAnAddress() throws {
    let swarm = Self.field(try Self.identities(Self.truth), "swarm", "address")
    let run = try recover(["--address", swarm])
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        word 3 is 'thank' (was 'th*')
        matched swarm.address
        give --out FILE to write the whole corrected phrase to a new file

        """)
    // The first line names the seed engine (RecoverPathTests); with no damage option come the
    // automatic phases, the phrase as written first.
    let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first?.hasPrefix("engine: ") == true)
    #expect(
      lines.dropFirst().joined(separator: "\n").hasPrefix(
        "phase 1 of 9: the phrase as written\n"
          + "searching 15 candidates of 12 english words, 1 pass the checksum; about "))
    #expect(!run.stdout.contains("legal") && !run.stderr.contains("legal"))
  }

  @Test func jsonHasTheDocumentedFields() throws {
    let peerID = Self.field(try Self.identities(Self.truth), "ipfs", "peerId")
    let run = try recover(["--peer-id", peerID, "--json"])
    #expect(run.status == 0)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(object["found"] as? Bool == true)
    let changes = try #require(object["changes"] as? [[String: Any]])
    #expect(changes.count == 1)
    #expect(changes.first?["position"] as? Int == 3)
    #expect(changes.first?["word"] as? String == "thank")
    #expect(changes.first?["was"] as? String == "th*")
    #expect(object["matched"] as? String == "ipfs.peerId")
    #expect(object["candidates"] as? Int == 15)
    #expect(object["checksumValid"] as? Int == 1)
    #expect(object["checked"] as? Int == 1)
    #expect(object["seconds"] is Double || object["seconds"] is Int)
    #expect(
      Set(object.keys) == [
        "found", "changes", "matched", "candidates", "checksumValid", "checked", "seconds",
        "complete", "searched", "shard", "searchCandidates", "search",
      ])
    #expect(object["complete"] as? Bool == true)
    // On two threads this one-chunk search is cut into slices the threads share, and the match
    // closes the chunk with the slices done by then: "searched" is what was done, 1 to 15.
    #expect((1...15).contains(object["searched"] as? Int ?? 0), "\(object)")
    #expect(object["searchCandidates"] as? Int == 15)
    #expect(object["shard"] as? [String: Int] == ["index": 1, "count": 1])
    // On one thread the chunk is searched whole, its one checksum-valid phrase last.
    let single = try CLI.run(
      ["recover", "--mnemonic-file", "-", "--threads", "1", "--peer-id", peerID, "--json"],
      stdin: RecoverTests.damaged)
    #expect(single.status == 0)
    let whole = try #require(
      JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
    #expect(whole["searched"] as? Int == 15)
    #expect(whole["checked"] as? Int == 1)
  }

  @Test func outWritesTheWholePhraseOnceWithMode0600() throws {
    let directory = try TemporaryDirectory()
    let out = directory.url.appendingPathComponent("fixed.txt").path
    let did = Self.field(try Self.identities(Self.truth), "radicle", "did")
    let run = try recover(["--did", did, "--out", out])
    #expect(run.status == 0)
    #expect(
      run.stdout.contains("matched radicle.did\nwrote the corrected phrase to \(out) (mode 0600)\n")
    )
    #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.truth + "\n")
    let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let again = try recover(["--did", did, "--out", out])
    #expect(again.status == 1)
    #expect(again.stdout.isEmpty)
    #expect(again.stderr.contains("already exists; refusing to overwrite it"))
  }

  @Test func overlayTarget() throws {
    let swarm = try #require(try Self.identities(Self.truth)["swarm"] as? [String: Any])
    let run = try recover([
      "--overlay", try #require(swarm["overlay"] as? String), "--network-id", "1",
    ])
    #expect(run.status == 0)
    #expect(run.stdout.contains("matched swarm.overlay\n"))
  }

  @Test func noMatchSearchesEverythingAndExits4() throws {
    let address = Self.field(try Self.identities(Self.other), "wallet", "address")
    // --typos 0: exactly the phrase as written, no automatic phases.
    let run = try recover(["--address", address, "--json", "--typos", "0"])
    #expect(run.status == 4)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(object["found"] as? Bool == false)
    #expect(object["candidates"] as? Int == 15)
    #expect(object["checked"] as? Int == 1)
    #expect(
      run.stderr.hasSuffix(
        "freedom-keys: error: no candidate matched the targets: all 15 candidates (1 checksum-valid) "
          + "were searched; widen the search (--typos, --swaps, --missing, --extra, more ? words) "
          + "or check the targets (an address may be of an account beyond the 3 tried: "
          + "--accounts N or --path TEMPLATE); a BIP-39 passphrase could explain it: give "
          + "--passphrase-file (or --passphrase-candidates FILE)\n"))
    // With --path the paths are the user's: no account to suggest.
    let paths = try recover([
      "--address", address, "--typos", "0", "--path", "m/44'/60'/0'/0/{0-1}",
    ])
    #expect(paths.status == 4)
    #expect(paths.stderr.contains("or check the targets; a BIP-39 passphrase could explain it"))
    #expect(!paths.stderr.contains("--accounts"))
  }

  @Test func countsWithoutTargets() throws {
    let phrase = Self.truth.replacingOccurrences(of: "yellow", with: "?")
    let run = try recover(["--json"], stdin: phrase)
    #expect(run.status == 0)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(object["candidates"] as? Int == 2048)
    #expect(object["checksumValid"] as? Int == 128)

    let directory = try TemporaryDirectory()
    let out = directory.url.appendingPathComponent("candidates.txt").path
    let tooMany = try recover(["--out", out], stdin: phrase)
    #expect(tooMany.status == 1)
    #expect(tooMany.stderr.contains("128 candidates pass the checksum; --out writes at most 100"))
    #expect(!FileManager.default.fileExists(atPath: out))

    let few = try recover(["--out", out])
    #expect(few.status == 0)
    #expect(
      few.stdout == "15 candidates, 1 passes the checksum\nwrote them to \(out) (mode 0600)\n")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.truth + "\n")
  }

  /// With no target only the candidates are counted, and it says so, in the singular for one.
  @Test func noTargetSaysItOnlyCounts() throws {
    let run = try recover([], stdin: Self.truth + "\n")
    #expect(run.status == 0)
    #expect(run.stdout == "1 candidate, 1 passes the checksum\n")
    #expect(
      run.stderr == "no target given: counting candidates only (1 candidate of 12 english words)\n")
  }

  @Test func nodeDirectoriesAreTargets() throws {
    let directory = try TemporaryDirectory()
    let words = try directory.file("words.txt", Self.truth + "\n")
    let identities = try Self.identities(Self.truth)
    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    // bee and antd: keys/swarm.key's address field, no password needed.
    #expect(
      try CLI.run(["export", "bee", "--data-dir", path("bee"), "--mnemonic-file", words]).status
        == 0)
    try FileManager.default.removeItem(atPath: path("bee/password"))
    #expect(
      try CLI.run(["export", "ant", "--data-dir", path("ant"), "--mnemonic-file", words]).status
        == 0)
    #expect(
      try CLI.run([
        "export", "radicle", "--home", path("rad"), "--alias", "x", "--mnemonic-file", words,
      ])
      .status == 0)
    try FileManager.default.createDirectory(
      atPath: path("kubo"), withIntermediateDirectories: false)
    _ = try directory.file(
      "kubo/config", "{\"Identity\": {\"PeerID\": \"\(Self.field(identities, "ipfs", "peerId"))\"}}"
    )
    try FileManager.default.createDirectory(
      atPath: path("freedom/identity"), withIntermediateDirectories: true)
    _ = try directory.file(
      "freedom/identity/vault-meta.json",
      "{\"userKnowsPassword\": true, \"addresses\": {\"userWallet\": \"\(Self.field(identities, "wallet", "address"))\"},"
        + " \"derivedWallets\": [{\"index\": 0, \"type\": \"mnemonic\", \"address\": \"\(Self.field(identities, "wallet", "address"))\"}]}"
    )

    for (option, directory, matched) in [
      ("--bee-dir", "bee", "swarm.address"), ("--antd-dir", "bee", "swarm.address"),
      ("--ant-dir", "ant", "swarm.address"), ("--radicle-home", "rad", "radicle.did"),
      ("--kubo-repo", "kubo", "ipfs.peerId"), ("--freedom-dir", "freedom", "wallet.address"),
    ] {
      let run = try recover([option, path(directory)])
      #expect(run.status == 0, "\(option): \(run.stderr)")
      #expect(run.stdout.contains("matched \(matched)\n"), "\(option)")
    }
    let missing = try recover(["--kubo-repo", path("bee")])
    #expect(missing.status == 1)
    #expect(
      missing.stderr
        == "freedom-keys: error: \(path("bee"))/config does not exist: --kubo-repo <dir> needs it as a target\n"
    )
  }

  @Test func resumeContinuesFromTheCheckpoint() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.url.appendingPathComponent("progress.json").path
    let address = Self.field(try Self.identities(Self.other), "wallet", "address")
    let first = try recover(["--address", address, "--resume", checkpoint, "--typos", "0"])
    #expect(first.status == 4)
    let saved = try String(contentsOfFile: checkpoint, encoding: .utf8)
    #expect(saved.contains("\"doneBelow\": 1"))
    for word in Set(Self.truth.split(separator: " ")) { #expect(!saved.contains(word)) }
    let mode =
      try FileManager.default.attributesOfItem(atPath: checkpoint)[.posixPermissions] as? Int
    #expect(mode == 0o600)

    let second = try recover([
      "--address", address, "--resume", checkpoint, "--json", "--typos", "0",
    ])
    #expect(second.status == 4)
    #expect(second.stderr.contains("resuming, 100.0% done"))
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
    #expect(object["checked"] as? Int == 1)

    let changed = try recover([
      "--address", address, "--resume", checkpoint, "--swaps", "--typos", "0",
    ])
    #expect(changed.status == 1)
    #expect(
      changed.stderr.contains(
        "the checkpoint belongs to a search with other damage options or targets"))
  }

  @Test func outIsCheckedBeforeTheSearch() throws {
    let directory = try TemporaryDirectory()
    let did = Self.field(try Self.identities(Self.truth), "radicle", "did")
    let dangling = directory.url.appendingPathComponent("dangling").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere")
    let existing = try directory.file("existing.txt", "kept\n")
    let noDirectory = directory.url.appendingPathComponent("absent/fixed.txt").path
    for (out, message) in [
      (dangling, "\(dangling) is a symbolic link; refusing to write through it"),
      (existing, "\(existing) already exists; refusing to overwrite it"),
      (noDirectory, "\(directory.url.appendingPathComponent("absent").path) is not a directory"),
    ] {
      let run = try recover(["--did", did, "--out", out])
      #expect(run.status == 1, "\(out)")
      #expect(run.stdout.isEmpty, "\(out)")
      #expect(run.stderr.hasPrefix("freedom-keys: error: \(message)"), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "no search: \(run.stderr)")
    }
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "kept\n")
    #expect(
      !FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("nowhere").path))
  }

  @Test func aMatchIsKeptInTheCheckpointAndFoundAgain() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.url.appendingPathComponent("progress.json").path
    let address = Self.field(try Self.identities(Self.truth), "swarm", "address")
    let first = try recover(["--address", address, "--resume", checkpoint])
    #expect(first.status == 0)
    let saved = try String(contentsOfFile: checkpoint, encoding: .utf8)
    // Which word changed (word 3, index 1790 of the English list), never a word of the phrase.
    #expect(saved.contains("\"found\": {\"part\": 0, \"changes\": [[3, 1790]]}"))
    for word in Set(Self.truth.split(separator: " ")) { #expect(!saved.contains(word)) }

    let again = try recover(["--address", address, "--resume", checkpoint])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      again.stdout == """
        found earlier
        word 3 is 'thank' (was 'th*')
        matched swarm.address
        give --out FILE to write the whole corrected phrase to a new file

        """)
    #expect(again.stderr.contains("found earlier: \(checkpoint) records this search's match"))
    #expect(!again.stderr.contains("searching"))

    let out = directory.url.appendingPathComponent("fixed.txt").path
    let written = try recover([
      "--address", address, "--resume", checkpoint, "--out", out, "--json",
    ])
    #expect(written.status == 0)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(written.stdout.utf8)) as? [String: Any])
    #expect(object["found"] as? Bool == true)
    #expect(object["foundEarlier"] as? Bool == true)
    #expect(object["matched"] as? String == "swarm.address")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.truth + "\n")
  }

  @Test(arguments: [
    // All searched without searching (exit 4 on 5001ebb).
    "\"doneBelow\": 18446744073709551615, \"doneChunks\": [], \"candidates\": 0",
    "\"doneBelow\": 1, \"doneChunks\": [], \"candidates\": 0",
    "\"doneBelow\": 0, \"doneChunks\": [1, 1], \"candidates\": 0",
    // Interrupted on every run (exit 130 on 5001ebb).
    "\"doneBelow\": 0, \"doneChunks\": [0], \"candidates\": 0",
    "\"doneBelow\": 0, \"doneChunks\": [5, 3], \"candidates\": 0",
    // A match the search does not hold.
    "\"doneBelow\": 1, \"doneChunks\": [], \"candidates\": 15, \"found\": {\"part\": 0, \"changes\": [[3, 0]]}",
    "\"doneBelow\": 1, \"doneChunks\": [], \"candidates\": 15, \"found\": {\"part\": 7, \"changes\": []}",
  ])
  func checkpointsThatDoNotFitTheirSearchAreRefused(fields: String) throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.url.appendingPathComponent("progress.json").path
    let address = Self.field(try Self.identities(Self.other), "wallet", "address")
    #expect(
      try recover(["--address", address, "--resume", checkpoint, "--typos", "0"]).status == 4)
    let saved = try String(contentsOfFile: checkpoint, encoding: .utf8)
    let hash = try #require(saved.split(separator: "\"").dropFirst(7).first)
    try FileManager.default.removeItem(atPath: checkpoint)
    _ = try directory.file(
      "progress.json",
      "{\"format\": \"freedom-keys recover checkpoint 1\", \"search\": \"\(hash)\", \(fields), "
        + "\"checksumValid\": 0, \"checked\": 0, \"milliseconds\": 0}\n")
    let run = try recover(["--address", address, "--resume", checkpoint, "--typos", "0"])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("freedom-keys: error: \(checkpoint): the checkpoint "))
    #expect(
      run.stderr.hasSuffix(
        "; it was changed or damaged: delete it (or give another --resume file) to search from "
          + "the start\n"))
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
  }

  @Test func ctrlCStopsCleanlyAndSaysHowToResume() throws {
    let directory = try TemporaryDirectory()
    // Three unknown words: billions of candidates, interrupted long before the end.
    let words = try directory.file(
      "words.txt", "legal winner ? year wave sausage worth ? legal winner ? yellow\n")
    let checkpoint = directory.url.appendingPathComponent("progress.json").path
    let address = Self.field(try Self.identities(Self.other), "wallet", "address")
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = [
      "recover", "--mnemonic-file", words, "--address", address, "--resume", checkpoint,
      "--threads", "2", "--typos", "0",
    ]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Interrupt once the search has started (the summary comes after Ctrl-C is handled).
    var early = Data()
    while !String(decoding: early, as: UTF8.self).contains("pass the checksum") {
      let chunk = error.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      early += chunk
    }
    Thread.sleep(forTimeInterval: 1)
    process.interrupt()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    if process.isRunning {
      // SIGKILL: the test must end even if the child ignores or blocks every other signal.
      kill(process.processIdentifier, SIGKILL)
      Issue.record("recover did not stop within a minute of SIGINT")
    }
    process.waitUntilExit()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(
      decoding: early + error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 130)
    #expect(stdout.isEmpty)
    #expect(stderr.hasPrefix("engine: "))
    #expect(
      stderr.split(separator: "\n").dropFirst().first?.hasPrefix(
        "searching 8,589,934,592 candidates of 12 english words, about 536,870,912 pass") == true)
    #expect(
      stderr.hasSuffix(
        ": run the same command again to continue from \(checkpoint)\n"))
    #expect(stderr.contains("freedom-keys: error: interrupted after searching "))
    let saved = try String(contentsOfFile: checkpoint, encoding: .utf8)
    #expect(saved.hasPrefix("{\"format\": \"freedom-keys recover checkpoint 1\""))
    for word in ["legal", "winner", "year", "wave", "sausage", "worth", "yellow"] {
      #expect(!saved.contains(word))
    }
  }

  @Test func progressLinesWithoutATerminal() throws {
    let directory = try TemporaryDirectory()
    let words = try directory.file(
      "words.txt", "legal winner ? year wave sausage worth ? legal winner ? yellow\n")
    let address = Self.field(try Self.identities(Self.other), "wallet", "address")
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = [
      "recover", "--mnemonic-file", words, "--address", address, "--threads", "2",
      "--progress-interval", "0.5", "--typos", "0",
    ]
    // The checkpoint the search keeps by itself goes to the test's folder, not the user's.
    process.environment = ProcessInfo.processInfo.environment.merging([
      "XDG_STATE_HOME": directory.url.path
    ]) { $1 }
    let error = Pipe()
    process.standardOutput = Pipe()
    process.standardError = error
    try process.run()
    // Standard error is a pipe, not a terminal: wait for two appended lines, then Ctrl-C.
    var early = Data()
    while String(decoding: early, as: UTF8.self).components(separatedBy: "\nprogress: ").count < 3 {
      let chunk = error.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      early += chunk
    }
    process.interrupt()
    process.waitUntilExit()
    let stderr = String(
      decoding: early + error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 130)
    let lines = stderr.split(separator: "\n").filter { $0.hasPrefix("progress: ") }
    #expect(lines.count >= 2, "\(stderr)")
    for line in lines {
      // "progress: 0.0% (16,384 of 8,589,934,592 candidates) · 1,021/s · ETA 4.2 years"
      #expect(line.contains(" of 8,589,934,592 candidates) · "), "\(line)")
      #expect(line.contains("/s · ETA "), "\(line)")
      #expect(!line.contains("\u{1B}"), "no terminal codes: \(line)")
    }
    #expect(!stderr.contains("legal"))
    // The count searched, exactly, beside the percentage; without --resume the search kept a
    // checkpoint by itself (0600 in a 0700 folder, no word in it) and says the command that
    // continues it.
    let folder = directory.url.appendingPathComponent("freedom-keys").path
    let kept = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(kept.count == 1 && kept[0].hasPrefix("recover-") && kept[0].hasSuffix(".json"))
    let checkpoint = folder + "/" + (kept.first ?? "")
    let command =
      "freedom-keys recover --mnemonic-file \(words) --address \(address) --threads 2 "
      + "--progress-interval 0.5 --typos 0 --resume \(checkpoint)"
    #expect(
      stderr.contains(
        " of 8,589,934,592 candidates): the checkpoint is kept in \(checkpoint) (no word or "
          + "password in it); to continue: \(command)\n"), "\(stderr)")
    let attributes = try FileManager.default.attributesOfItem(atPath: checkpoint)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
    let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions]
    #expect(folderMode as? Int == 0o700)
    let saved = try String(contentsOfFile: checkpoint, encoding: .utf8)
    #expect(saved.hasPrefix("{\"format\": \"freedom-keys recover checkpoint 1\""))
    for word in ["legal", "winner", "year", "wave", "sausage", "worth", "yellow"] {
      #expect(!saved.contains(word))
    }
    // The command printed continues the search (stopped again at once by --max-hours).
    let again = try CLI.run(
      command.split(separator: " ").dropFirst().map(String.init) + ["--max-hours", "0.0001"],
      environment: ProcessInfo.processInfo.environment.merging([
        "XDG_STATE_HOME": directory.url.path
      ]) { $1 })
    #expect(again.status == 130, "\(again.stderr)")
    #expect(again.stderr.contains("; resuming, "), "\(again.stderr)")
    // The same command without --resume finds it too, by the search's hash.
    let same = try CLI.run(
      Array(process.arguments ?? []) + ["--max-hours", "0.0001"],
      environment: ProcessInfo.processInfo.environment.merging([
        "XDG_STATE_HOME": directory.url.path
      ]) { $1 })
    #expect(same.status == 130, "\(same.stderr)")
    #expect(
      same.stderr.hasPrefix(
        "continuing from the checkpoint this search kept in \(checkpoint) (delete it to search "
          + "from the start)\n"), "\(same.stderr)")
    #expect(same.stderr.contains("; resuming, "), "\(same.stderr)")
  }

  @Test func aResumedSearchSaysExactlyHowMuchWasDone() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.url.appendingPathComponent("progress.json").path
    let address = Self.field(try Self.identities(Self.other), "wallet", "address")
    #expect(
      try recover(["--address", address, "--resume", checkpoint, "--typos", "0"]).status == 4)
    let again = try recover(["--address", address, "--resume", checkpoint, "--typos", "0"])
    #expect(again.status == 4)
    #expect(again.stderr.contains("; resuming, 100.0% done (15 of 15 candidates)\n"))
    #expect(again.stderr.contains("no candidate matched the targets: all 15 candidates"))
  }

  @Test func progressIntervalMustBeSeconds() throws {
    for value in ["0", "-1", "x", "nan", "90000"] {
      let run = try CLI.run([
        "recover", "--mnemonic-file", "/nonexistent/words.txt", "--progress-interval", value,
      ])
      #expect(run.status == 2)
      #expect(
        run.stderr.hasPrefix(
          "freedom-keys: error: --progress-interval <s> must be a number of seconds above 0"))
    }
  }

  /// The address of the key at `path`, from `derive --path`.
  static func address(at path: String) throws -> String {
    let run = try CLI.run(
      ["derive", "--mnemonic-file", "-", "--json", "--path", path], stdin: truth)
    #expect(run.status == 0)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    return try #require(object["address"] as? String)
  }

  @Test(arguments: [
    // MetaMask's third account is found with the default --accounts 3.
    ("m/44'/60'/0'/0/2", [], "metamask[2].address"),
    // --accounts N covers both numberings: MetaMask's …/0'/0/i and Freedom's …/i'/0/0.
    ("m/44'/60'/0'/0/7", ["--accounts", "10"], "metamask[7].address"),
    ("m/44'/60'/3'/0/0", ["--accounts", "10"], "wallets[3].address"),
    // --path: exactly the paths of the template.
    ("m/44'/60'/0'/0/7", ["--path", "m/44'/60'/0'/0/{0-19}"], "m/44'/60'/0'/0/7"),
    ("m/44'/60'/3'/0/0", ["--path", "m/44'/60'/{0-4}'/0/0"], "m/44'/60'/3'/0/0"),
    ("m/44'/60'/2'/0/5", ["--path", "m/44'/60'/{0-2}h/0/{4-5}"], "m/44'/60'/2'/0/5"),
  ])
  func addressAtOtherAccountsAndPaths(path: String, options: [String], matched: String) throws {
    let run = try recover(["--address", try Self.address(at: path)] + options)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("word 3 is 'thank' (was 'th*')\nmatched \(matched)\n"))
  }

  @Test func pathTemplateTriesOnlyItsPaths() throws {
    // The Swarm wallet (m/44'/60'/0'/0/1) is outside m/44'/60'/0'/0/{2-9}.
    let swarm = Self.field(try Self.identities(Self.truth), "swarm", "address")
    let run = try recover(["--address", swarm, "--path", "m/44'/60'/0'/0/{2-9}", "--typos", "0"])
    #expect(run.status == 4)
    #expect(run.stdout.isEmpty)
  }

  @Test(arguments: [
    (
      ["--path", "m/44'/60'/0'/0/{0-3}"],
      "--path <template> applies to one target: give it with one of --address, --peer-id or --did"
    ),
    (
      ["--address", "0x0d3eb21b6b21833a4939cfff4810e9ae0758e12c", "--path", "m/1/{5-2}"],
      "--path: the path template does not read: a range is {A-B} with whole numbers A ≤ B"
    ),
    (
      ["--address", "0x0d3eb21b6b21833a4939cfff4810e9ae0758e12c", "--path", "44'/60'"],
      "--path: the path template does not read: it must begin with m/"
    ),
    (
      ["--address", "0x0d3eb21b6b21833a4939cfff4810e9ae0758e12c", "--path", "m/{0-99}/{0-99}"],
      "--path: the path template does not read: it stands for more than 1000 paths"
    ),
    (
      [
        "--address", "0x0d3eb21b6b21833a4939cfff4810e9ae0758e12c", "--path", "m/0/{0-1}",
        "--accounts", "2",
      ],
      "--path <template> names the paths itself: give --accounts <n> or --path, not both"
    ),
  ])
  func pathUsageErrorsComeBeforeAnyRead(options: [String], message: String) throws {
    let run = try CLI.run(["recover", "--mnemonic-file", "/nonexistent/words.txt"] + options)
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("freedom-keys: error: \(message)"), "\(run.stderr)")
  }

  @Test func shardsSplitTheCount() throws {
    let phrase = Self.truth.replacingOccurrences(of: "yellow", with: "?")
    var total = 0
    for k in 1...3 {
      let run = try recover(["--shard", "\(k)/3", "--json"], stdin: phrase)
      #expect(run.status == 0)
      let object = try #require(
        JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      total += try #require(object["checksumValid"] as? Int)
    }
    #expect(total == 128)
  }

  @Test(arguments: [
    (["--address", "0x12"], "--address: an Ethereum address is 40 hex digits"),
    (["--peer-id", "nope"], "--peer-id: not a libp2p peer ID"),
    (["--shard", "4/3"], "--shard <k/n> must be K/N with 1 ≤ K ≤ N"),
    (["--typos", "x"], "--typos <k> must be a whole number from 0 to 24"),
    (["--network-id", "5"], "--network-id and --overlay-nonce only apply with --overlay <hex>"),
    (["--accounts", "2"], "--accounts <n> only applies with --address"),
    (["legal", "winner"], "the mnemonic is never accepted on the command line"),
  ])
  func usageErrorsComeBeforeAnyRead(options: [String], message: String) throws {
    // The mnemonic file does not exist: reading it would be exit 1, not 2.
    let run = try CLI.run(["recover", "--mnemonic-file", "/nonexistent/words.txt"] + options)
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("freedom-keys: error: \(message)"))
  }

  @Test func damagedPhraseErrorsNameTheWord() throws {
    let run = try recover(["--json"], stdin: "legal winner xq* year")
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "freedom-keys: error: word 3: no english word begins with 'xq'; write ? if the beginning is not certain\n"
    )
  }
}

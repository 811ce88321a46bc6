import CryptoPrimitives
import Foundation
import TestSupport
import Testing
import VaultKeys

/// A found answer is delivered whatever else fails: a checkpoint that cannot be written (the
/// system call failed by strace's fault injection), an --out that appeared during the search;
/// a --resume that cannot be written is refused before the search; checkpoints and next steps
/// that cannot lie.
@Suite("recover: the answer is delivered")
struct RecoverDeliveryTests {
  /// strace, when it is installed and may trace here (a container may forbid ptrace).
  static let strace: String? = {
    let path = "/usr/bin/strace"
    guard FileManager.default.isExecutableFile(atPath: path),
      (try? CLI.run(["-f", "-o", "/dev/null", "/bin/true"], executable: path))?.status == 0
    else { return nil }
    return path
  }()

  /// Every rename(2) fails with ENOSPC, as on a full checkpoint file system: a checkpoint is
  /// written by renaming a new file over it; --out is written with link(2).
  static let failingRenames = [
    "-f", "-qq", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
    "-e", "inject=rename,renameat,renameat2:error=ENOSPC",
  ]

  static func address(_ phrase: String) throws -> String {
    RecoverTests.field(try RecoverTests.identities(phrase), "swarm", "address")
  }

  @Test(.enabled(if: strace != nil, "strace is not installed (Debian package strace)"))
  func aPhraseFoundIsDeliveredWhenNoCheckpointCanBeWritten() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.file("progress.json")
    let out = directory.file("fixed.txt")
    let run = try CLI.run(
      Self.failingRenames + [
        CLI.executable.path, "recover", "--mnemonic-file", "-", "--threads", "2",
        "--address", try Self.address(RecoverTests.truth), "--resume", checkpoint, "--out", out,
      ], stdin: RecoverTests.damaged, executable: Self.strace)
    // Found: exit 0, the answer on stdout and in --out; the checkpoint's failure said once
    // during the search (phase 1 ended without a match) and once after the answer.
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        word 3 is 'thank' (was 'th*')
        matched swarm.address
        wrote the corrected phrase to \(out) (mode 0600)

        """)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == RecoverTests.truth + "\n")
    let reason =
      "cannot write the checkpoint \(checkpoint): no space left on the device for "
      + "\(checkpoint); free some space and retry"
    #expect(
      run.stderr.components(separatedBy: "freedom-keys: warning: \(reason); the search goes on")
        .count == 2, "\(run.stderr)")
    #expect(
      run.stderr.hasSuffix(
        "freedom-keys: warning: \(reason); the answer above stands (the checkpoint only lets a "
          + "run continue)\n"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: checkpoint))
  }

  @Test(.enabled(if: strace != nil, "strace is not installed (Debian package strace)"))
  func aPasswordFoundIsDeliveredWhenNoCheckpointCanBeWritten() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.file("progress.json")
    let out = directory.file("password.txt")
    let list = try directory.file(
      "list", ((1...40).map { "wrong \($0)" } + [VaultTests.password]).joined(separator: "\n"))
    let run = try CLI.run(
      Self.failingRenames + [
        CLI.executable.path, "recover", "password", "--threads", "2",
        "--vault", RecoverPasswordTests.legacyVault, "--password-candidates", list,
        "--resume", checkpoint, "--out", out,
      ], executable: Self.strace)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("the password is password candidate line 41\n"), "\(run.stdout)")
    #expect(run.stdout.contains("wrote the password to \(out) (mode 0600)\n"))
    #expect(try String(contentsOfFile: out, encoding: .utf8) == VaultTests.password)
    #expect(
      run.stderr.hasSuffix(
        "freedom-keys: warning: cannot write the checkpoint \(checkpoint): no space left on the "
          + "device for \(checkpoint); free some space and retry; the answer above stands (the "
          + "checkpoint only lets a run continue)\n"), "\(run.stderr)")
  }

  @Test func aResumeFileThatCannotBeWrittenIsRefusedBeforeTheSearch() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.file("missing/progress.json")
    let phrase = try CLI.run(
      [
        "recover", "--mnemonic-file", "-", "--address", try Self.address(RecoverTests.truth),
        "--resume", checkpoint,
      ], stdin: RecoverTests.damaged)
    let list = try directory.file("list", VaultTests.password + "\n")
    let password = try CLI.run([
      "recover", "password", "--vault", RecoverPasswordTests.legacyVault,
      "--password-candidates", list, "--resume", checkpoint,
    ])
    for run in [phrase, password] {
      #expect(run.status == 1)
      #expect(run.stdout.isEmpty)
      // One line, and nothing searched: no engine, no announcement.
      #expect(
        run.stderr
          == "freedom-keys: error: --resume cannot keep its checkpoint: the directory for "
          + "\(checkpoint) does not exist; create it first or check the path\n")
    }
  }

  @Test func anOutThatAppearsDuringTheSearchStillGetsTheAnswer() throws {
    let directory = try TemporaryDirectory()
    let out = directory.file("password.txt")
    let list = try directory.file("list", "wrong\n" + VaultTests.password + "\n")
    let process = Process()
    process.executableURL = CLI.executable
    // 900,000 iterations a candidate: the search runs for a while after it is announced.
    process.arguments = [
      "recover", "password", "--vault", RecoverPasswordTests.desktopVault,
      "--password-candidates", list, "--out", out, "--threads", "1",
    ]
    process.environment = ProcessInfo.processInfo.environment.merging([
      "XDG_STATE_HOME": directory.file("state")
    ]) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    var early = Data()
    while !String(decoding: early, as: UTF8.self).contains("searching 2 passwords") {
      let chunk = error.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      early += chunk
    }
    // Someone else's file takes the name --out was checked free for.
    #expect(process.isRunning, "the search ended before the file appeared")
    #expect(FileManager.default.createFile(atPath: out, contents: Data("theirs\n".utf8)))
    process.waitUntilExit()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(
      decoding: early + error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    // Delivered beside it, said on stdout; exit 1 says it is not where asked, and where it is.
    #expect(process.terminationStatus == 1, "\(stderr)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "theirs\n")
    #expect(try String(contentsOfFile: out + ".1", encoding: .utf8) == VaultTests.password)
    #expect(
      stdout.contains(
        "wrote the password to \(out).1 (mode 0600), as \(out) could not be written\n"
          + "next: freedom-keys derive --vault-file \(RecoverPasswordTests.desktopVault) "
          + "--vault-password-file \(out).1\n"), "\(stdout)")
    #expect(
      stderr.hasSuffix(
        "freedom-keys: error: the password is in \(out).1, not in \(out): \(out) already "
          + "exists; refusing to overwrite it (move it away first, or ask to replace it)\n"),
      "\(stderr)")
  }

  @Test func aPasswordCheckpointPastItsSearchsEndIsRefused() throws {
    let directory = try TemporaryDirectory()
    let checkpoint = directory.file("progress.json")
    let list = try directory.file("list", (1...300).map { "wrong \($0)" }.joined(separator: "\n"))
    let options = [
      "recover", "password", "--threads", "2", "--vault", RecoverPasswordTests.shiftedVault,
      "--password-candidates", list, "--resume", checkpoint,
    ]
    #expect(try CLI.run(options).status == 4)
    let saved = try String(contentsOfFile: checkpoint, encoding: .utf8)
    #expect(saved.contains("\"doneBelow\": 300}"), "\(saved)")
    try saved.replacingOccurrences(of: "\"doneBelow\": 300", with: "\"doneBelow\": 9999999")
      .write(toFile: checkpoint, atomically: true, encoding: .utf8)
    let run = try CLI.run(options)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr.hasSuffix(
        "freedom-keys: error: \(checkpoint): the checkpoint says the first 9,999,999 passwords "
          + "were tried, and the search has 300: it was changed or damaged: delete it (or give "
          + "another --resume file) to search from the start\n"), "\(run.stderr)")
  }

  /// A keystore whose password is empty: the next step printed opens it.
  @Test func theNextStepPrintedWorksForAnEmptyPassword() throws {
    let directory = try TemporaryDirectory()
    let key = try Secp256k1.PrivateKey(
      rawRepresentation: SecureBytes(Array(repeating: 7, count: 32)))
    let keystore = try directory.file(
      "key.json",
      Data(try Web3Keystore.encrypt(privateKey: key, password: SecureBytes([]), scryptN: 1024)))
    let out = directory.file("password.txt")
    // The first line is empty: the empty password.
    let list = try directory.file("list", "\nwrong\n")
    let run = try CLI.run([
      "recover", "password", "--keystore", keystore, "--password-candidates", list, "--out", out,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let next = try #require(
      run.stdout.split(separator: "\n").first { $0.hasPrefix("next: freedom-keys ") })
    #expect(next == "next: freedom-keys keystore inspect \(keystore) --password-file \(out)")
    let inspect = try CLI.run(next.split(separator: " ").dropFirst(2).map(String.init))
    #expect(inspect.status == 0, "\(inspect.stderr)")
    let address = EthereumAddress(publicKey: key.publicKey)
    #expect(inspect.stdout.contains(address.checksummed), "\(inspect.stdout)")
  }

  /// The README's GNU parallel example, one part after another through the shell: each part's
  /// --json result in results/, its checkpoint beside it under a name collect does not read;
  /// collect then names the part that found the phrase, and the parts without it are no error.
  @Test func theReadmeShardingExampleIsCollected() throws {
    let directory = try TemporaryDirectory()
    let words = try directory.file("words.txt", RecoverShardTests.damaged)
    let target = try RecoverShardTests.address(RecoverTests.truth)
    let script = """
      cd '\(directory.path)' && mkdir -p results && for k in 1 2 3; do
        '\(CLI.executable.path)' recover --mnemonic-file words.txt --address \(target) \\
          --shard $k/3 --resume results/part-$k.checkpoint --out found-$k.txt --json \\
          > results/part-$k.json 2>>log
      done
      """
    _ = try CLI.run(["-c", script], executable: "/bin/sh")
    #expect(words.hasPrefix(directory.path))
    let collect = try CLI.run(["recover", "collect", directory.file("results")])
    #expect(collect.status == 0, "\(collect.stderr)")
    #expect(collect.stderr.isEmpty)
    #expect(collect.stdout.hasPrefix("found by shard "), "\(collect.stdout)")
    #expect(collect.stdout.contains("\nword 12 is 'yellow' (was '?')\n"), "\(collect.stdout)")
    // Every part's result is read; the part with the match stops at it, after as many of its
    // candidates as its threads had reached (so fewer than 2,048 may be counted).
    let summary = try #require(collect.stdout.split(separator: "\n").last)
    #expect(summary.hasPrefix("3 of 3 shards: "), "\(collect.stdout)")
    #expect(summary.hasSuffix(" of 2,048 candidates searched"), "\(collect.stdout)")
    let found = try directory.contents().filter { $0.hasPrefix("found-") }
    #expect(found.count == 1)
    #expect(
      try String(contentsOfFile: directory.file(found.first ?? ""), encoding: .utf8)
        == RecoverTests.truth + "\n")
  }
}

import Foundation
import TestSupport
import Testing

/// `recover password`: desktop vaults (the Node-checked fixtures) and keystores (eth-keyfile's,
/// and bee's as `export bee` writes it) opened from what is remembered, the exit codes, --out,
/// and that the password is never printed.
@Suite("recover password")
struct RecoverPasswordTests {
  static func vector(_ path: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("GoldenVectors/Vectors/\(path)").path
  }

  /// abandon×23 art, no keyMetadata (10,000 iterations), "correct horse battery staple".
  static let legacyVault = vector("vaults/legacy-no-keymetadata.json")
  /// abandon×11 about, 1,000 iterations, "Correct horse battery stapl".
  static let shiftedVault = vector("vaults/shifted-truncated.json")
  /// abandon×11 about, 900,000 iterations, "correct horse battery staple".
  static let desktopVault = vector("vaults/abandon-about.json")
  /// eth-keyfile's, "testpassword".
  static let scryptKeystore = vector("keystores/eth-keyfile-scrypt.json")
  static let keystoreAddress = "0x008AeEda4D805471dF9b2A5B0f38A0C3bCBA786b"

  /// `recover password` with `files` written first (name → content, mode 0600) and each
  /// `{name}` in the arguments replaced by its path.
  func recover(_ arguments: [String], files: [String: String] = [:], in dir: TemporaryDirectory)
    throws -> CLIRun
  {
    var paths: [String: String] = [:]
    for (name, content) in files { paths[name] = try dir.file(name, content) }
    let resolved = arguments.map { argument in
      paths.reduce(argument) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }
    return try CLI.run(["recover", "password", "--threads", "2"] + resolved)
  }

  /// Neither stream holds any of `secrets` (as typed, or in any case).
  func expectNoSecret(_ run: CLIRun, _ secrets: [String]) {
    for secret in secrets {
      for stream in [run.stdout, run.stderr] {
        #expect(!stream.lowercased().contains(secret.lowercased()), "a password was printed")
      }
    }
  }

  @Test func helpFitsEightyColumns() throws {
    let run = try CLI.run(["recover", "password", "--help"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("OVERVIEW: Find the password of a vault or keystore.\n"))
    for option in ["--vault <path>", "--tokens <path>", "--password-typos <k>", "--out <path>"] {
      #expect(run.stdout.contains("  \(option) "))
    }
    for line in run.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
  }

  @Test func capsLockedVaultPasswordIsFoundAndWritten() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("found")
    let run = try recover(
      [
        "--vault", Self.legacyVault, "--password-file", "{pw}", "--password-typos", "1",
        "--out", out,
      ], files: ["pw": "CORRECT HORSE BATTERY STAPLE\n"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        the password is the one remembered with caps lock
        it opens the vault \(Self.legacyVault), which holds a 24-word mnemonic
        wrote the password to \(out) (mode 0600)
        next: freedom-keys derive --vault-file \(Self.legacyVault) --vault-password-file \(out)

        """)
    #expect(run.stderr.hasPrefix("engine: "))
    #expect(run.stderr.contains("searching 328 passwords against \(Self.legacyVault)"))
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "correct horse battery staple")
    #expect(permissions(out) == 0o600)
    expectNoSecret(run, ["correct horse battery staple", "CORRECT HORSE"])
    // The command it names opens the vault.
    let derive = try CLI.run(
      ["derive", "--json", "--vault-file", Self.legacyVault, "--vault-password-file", out])
    #expect(derive.status == 0, "\(derive.stderr)")
    #expect(derive.stdout.contains(VaultTests.abandonArtSwarm))
  }

  /// With only the password as remembered, the automatic phases: it, one likely typo, one
  /// edit, two likely typos (less those one edit made).
  @Test func shiftedAndTruncatedVaultPassword() throws {
    let dir = try TemporaryDirectory()
    let run = try recover(
      ["--vault", Self.shiftedVault, "--password-file", "{pw}", "--json"],
      files: ["pw": "correct horse battery staple\n"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        """
        phase 1 of 4: the password as remembered (1 password)
        phase 1 of 4 (the password as remembered): no match in 1 password
        phase 2 of 4: one likely typo (327 passwords)
        """))
    #expect(run.stderr.contains("phase 2 of 4 (one likely typo): no match in 327 passwords\n"))
    #expect(run.stderr.contains("phase 3 of 4: one edit (5,084 passwords)\n"))
    #expect(run.stderr.contains("phase 3 of 4 (one edit): no match in 5,084 passwords\n"))
    #expect(run.stderr.contains("phase 4 of 4: two likely typos (54,314 passwords)\n"))
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(json["opened"] as? String == "vault")
    #expect(json["words"] as? Int == 12)
    let password = try #require(json["password"] as? [String: Any])
    #expect(password["origin"] as? String == "typos")
    #expect(
      password["typos"] as? [String] == ["character 1 in the other case", "character 28 deleted"])
    expectNoSecret(run, ["horse battery", "Correct horse battery stapl"])
  }

  /// The 900,000-iteration vault desktop writes, from a list of two candidates.
  @Test func candidateListOpensTheDesktopVault() throws {
    let dir = try TemporaryDirectory()
    let run = try recover(
      ["--vault", Self.desktopVault, "--password-candidates", "{list}"],
      files: ["list": "correct horse battery stable\ncorrect horse battery staple\n"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("the password is password candidate line 2\n"))
    #expect(run.stdout.contains("which holds a 12-word mnemonic"))
    #expect(run.stdout.contains("give --out FILE to write the password to a new file"))
    expectNoSecret(run, ["horse battery"])
  }

  /// eth-keyfile's scrypt keystore, remembered with a neighbouring key ('p' for 'o').
  @Test func keystoreFromANeighbouringKey() throws {
    let dir = try TemporaryDirectory()
    let run = try recover(
      ["--keystore", Self.scryptKeystore, "--password-file", "{pw}", "--password-typos", "1"],
      files: ["pw": "testpasswprd"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.hasPrefix(
        "the password is the one remembered with character 10 replaced by a neighbouring key\n"
          + "it opens the keystore \(Self.scryptKeystore), the key of \(Self.keystoreAddress)\n"))
    expectNoSecret(run, ["testpassword", "testpasswprd"])
  }

  /// eth-keyfile's scrypt keystore from a token list (btcrecover's syntax).
  @Test func keystoreFromTokens() throws {
    let dir = try TemporaryDirectory()
    let run = try recover(
      ["--keystore", Self.scryptKeystore, "--tokens", "{tokens}", "--json"],
      files: ["tokens": "# what it was made of\nTest test\n+ pass password\n123 ^!\n"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    // {3}: 2; {2, 3}: 4 choices, 2 orders; {3, 4}: 2 with 123 (2 orders) and 2 with ^! (1);
    // {2, 3, 4}: 4 with 123 (6 orders) and 4 with ^! first (2).
    #expect(run.stderr.contains("searching 48 passwords (duplicates possible) against"))
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let password = try #require(json["password"] as? [String: Any])
    #expect(password["origin"] as? String == "tokens")
    let tokens = try #require(password["tokens"] as? [[String: Int]])
    #expect(tokens == [["line": 2, "token": 2], ["line": 3, "token": 2]])
    #expect(json["address"] as? String == Self.keystoreAddress)
    expectNoSecret(run, ["testpassword"])
  }

  /// A token list that makes more passwords than can be numbered (94^20 > 2^63): the
  /// library's typed remedy worded as this tool's options.
  @Test func tooManyPasswordsNamesTheOptions() throws {
    let dir = try TemporaryDirectory()
    let run = try recover(
      ["--keystore", Self.scryptKeystore, "--tokens", "{tokens}"],
      files: ["tokens": "%10p\n%10p\n"], in: dir)
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "freedom-keys: error: the passwords to try would be more than "
        + "9,223,372,036,854,775,807, more than can be held or numbered: give a lower "
        + "--password-typos or fewer candidates\n")
  }

  /// Five typos of a 16-character password: too many to count before the search, refused at
  /// once with the bound (not counted for hours), the password never echoed.
  @Test func typosTooManyToCountAreRefusedAtOnce() throws {
    let dir = try TemporaryDirectory()
    let run = try recover(
      ["--keystore", Self.scryptKeystore, "--password-file", "{pw}", "--password-typos", "5"],
      files: ["pw": "Correct-Horse-42"], in: dir)
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("freedom-keys: error: the typos asked for would make up to "))
    #expect(
      run.stderr.hasSuffix(
        " passwords, too many to count before the search: give a lower --password-typos or "
          + "fewer candidates\n"), "\(run.stderr)")
    expectNoSecret(run, ["Correct-Horse-42"])
  }

  /// bee's keys/swarm.key as `export bee` writes it, found through --bee-dir.
  @Test func beeDirectoryKeystore() throws {
    let fixture = try ExportFixture()
    let bee = fixture.path("bee")
    let written = try fixture.run([
      "export", "bee", "--data-dir", bee, "--password-file",
      try fixture.file("bee-password", "Swarm node 2024"), "--scrypt-n", "1024",
    ])
    #expect(written.status == 0, "\(written.stderr)")
    let dir = try TemporaryDirectory()
    let out = dir.file("found")
    let run = try recover(
      ["--bee-dir", bee, "--password-file", "{pw}", "--password-typos", "1", "--out", out],
      files: ["pw": "swarm node 2024"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("the one remembered with character 1 in the other case\n"))
    #expect(
      run.stdout.contains(
        "next: freedom-keys keystore inspect \(bee)/keys/swarm.key --password-file \(out)\n"))
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "Swarm node 2024")
    expectNoSecret(run, ["node 2024"])
  }

  /// An installation `export freedom` wrote: its vault (900,000 iterations, the password as
  /// remembered: one candidate) through --freedom-dir, its ant-data's keystore (the password
  /// desktop keeps in config.yaml, line 2 of the candidates) through --antd-dir.
  @Test func installationWrittenByExportFreedom() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("userData")
    let written = try fixture.run([
      "export", "freedom", "--user-data", userData, "--create", "--vault-password-file",
      try fixture.file("vault-password", "Freedom vault 2026\n"),
    ])
    #expect(written.status == 0, "\(written.stderr)")
    let dir = try TemporaryDirectory()
    let vault = try recover(
      ["--freedom-dir", userData, "--password-file", "{pw}"],
      files: ["pw": "Freedom vault 2026\n"], in: dir)
    #expect(vault.status == 0, "\(vault.stderr)")
    #expect(
      vault.stdout.hasPrefix(
        "the password is the one remembered\nit opens the vault "
          + "\(userData)/identity/identity-vault.json, which holds a 12-word mnemonic\n"))
    expectNoSecret(vault, ["vault 2026"])

    let config = try String(contentsOfFile: userData + "/ant-data/config.yaml", encoding: .utf8)
    let antdPassword = try #require(
      config.split(separator: "\n").first { $0.hasPrefix("password: ") }?.dropFirst(10))
    let antd = try recover(
      ["--antd-dir", userData + "/ant-data", "--password-candidates", "{list}"],
      files: ["list": "not it\n\(antdPassword)\n"], in: dir)
    #expect(antd.status == 0, "\(antd.stderr)")
    #expect(
      antd.stdout.hasPrefix(
        "the password is password candidate line 2\nit opens the keystore "
          + "\(userData)/ant-data/keys/swarm.key, the key of \(Golden.swarmAddress)\n"))
    expectNoSecret(antd, [String(antdPassword)])
  }

  @Test func exhaustedSearchExitsFourAndWritesNothing() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("found")
    let run = try recover(
      [
        "--vault", Self.legacyVault, "--password-file", "{pw}", "--password-typos", "1",
        "--out", out,
      ], files: ["pw": "battery horse correct staple"], in: dir)
    #expect(run.status == 4)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasSuffix(
        "freedom-keys: error: no password opened \(Self.legacyVault): all 328 candidates "
          + "tried; widen the search (a higher --password-typos, --password-candidates FILE) "
          + "or check the file\n"))
    #expect(!FileManager.default.fileExists(atPath: out))
    expectNoSecret(run, ["battery horse", "horse battery"])
  }

  /// Stopped by --max-hours with --resume, the next run continues where it stopped; run again
  /// after the match, it opens the file without searching; other passwords are another search.
  @Test func resumeContinuesAndRemembersTheMatch() throws {
    let dir = try TemporaryDirectory()
    let checkpoint = dir.file("checkpoint.json")
    // 1,002 candidates at 10,000 iterations: far more than the first progress tick (0.2 s) can
    // check, so --max-hours (a millisecond) stops the first run before the last line.
    let lines = (1...1001).map { "wrong \($0)" } + [VaultTests.password]
    let options = [
      "--vault", Self.legacyVault, "--password-candidates", "{list}", "--resume", checkpoint,
    ]
    let list = ["list": lines.joined(separator: "\n") + "\n"]
    let first = try recover(options + ["--max-hours", "0.0000003"], files: list, in: dir)
    #expect(first.status == 130, "\(first.stderr)")
    #expect(first.stderr.contains("run the same command again to continue from \(checkpoint)"))
    #expect(permissions(checkpoint) == 0o600)
    let saved = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: checkpoint)))
        as? [String: Any])
    let doneBelow = try #require(saved["doneBelow"] as? Int)
    #expect(doneBelow > 0 && doneBelow < 1002)

    let second = try recover(options + ["--json"], files: list, in: dir)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stderr.contains("resuming from \(checkpoint): the first \(doneBelow) passwords"))
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
    #expect((json["password"] as? [String: Any])?["line"] as? Int == 1002)
    // Only those the checkpoint did not record as tried were tried.
    #expect(json["searched"] as? Int == 1002 - doneBelow)

    let third = try recover(options, files: list, in: dir)
    #expect(third.status == 0)
    #expect(third.stderr.contains("found earlier: \(checkpoint)"))
    #expect(third.stdout.hasPrefix("the password is password candidate line 1002\n"))
    expectNoSecret(third, ["horse battery"])
    #expect(!(try String(contentsOfFile: checkpoint, encoding: .utf8)).contains("horse"))

    let other = try recover(options, files: ["list": "other\n"], in: dir)
    #expect(other.status == 1)
    #expect(other.stderr.contains("it is the checkpoint of another search"))
  }

  @Test func passwordOnTheCommandLineIsAUsageError() throws {
    let dir = try TemporaryDirectory()
    for given in [["--password", "hunter22"], ["--password=hunter22"]] {
      let run = try recover(["--vault", Self.legacyVault] + given, in: dir)
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr.contains("a secret is never taken on the command line"))
      #expect(run.stderr.contains("--password-file"))
      expectNoSecret(run, ["hunter22"])
    }
  }

  @Test(arguments: [
    (["--password-file", "x"], "give one file to open"),
    (["--vault", "v", "--keystore", "k", "--password-file", "x"], "give one file to open"),
    (["--vault", "v"], "give the password as remembered"),
    (
      ["--vault", "v", "--password-typos", "1", "--password-candidates", "x"],
      "needs --password-file"
    ),
    (["--vault", "v", "--password-file", "x", "--password-typos", "9"], "from 0 to 8"),
    (
      ["--vault", "v", "--profile", "p", "--password-file", "x"], "only applies with --freedom-dir"
    ),
    (["--vault", "v", "--password-file", "x", "--max-hours", "0"], "a number of hours above 0"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = try CLI.run(["recover", "password"] + arguments)
    #expect(run.status == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
  }

  @Test func outThatExistsIsRefusedBeforeTheSearch() throws {
    let dir = try TemporaryDirectory()
    let run = try recover(
      ["--vault", Self.legacyVault, "--password-file", "{pw}", "--out", "{taken}"],
      files: ["pw": "correct horse battery staple", "taken": "keep me"], in: dir)
    #expect(run.status == 1)
    #expect(run.stderr.contains("already exists; refusing to overwrite it"))
    #expect(!run.stderr.contains("searching"))
    #expect(try String(contentsOfFile: dir.file("taken"), encoding: .utf8) == "keep me")
  }
}

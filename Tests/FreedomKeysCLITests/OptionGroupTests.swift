import Foundation
import Testing

/// Options declared once and shared by commands: the export group, the data directory, a
/// desktop installation's `--freedom-dir` (alias `--user-data`) and the typed values.
@Suite("option groups")
struct OptionGroupTests {
  static let exports = ["bee", "kubo", "ant", "antd", "radicle", "freedom"]

  @Test(arguments: exports)
  func everyExportTakesTheExportGroup(export: String) throws {
    let options = try CommandTree.options(of: ["export", export])
    for option in ["--force", "--dry-run", "--json"] {
      #expect(options.contains(option), "\(export) lacks \(option)")
    }
    let help = try CLI.run(["export", export, "--help"]).stdout
    #expect(help.contains("--dry-run reads and checks everything an export reads"))
  }

  @Test(arguments: ["export freedom", "verify", "recover"])
  func aDesktopInstallationIsFreedomDirWithUserDataAnAlias(command: String) throws {
    let words = command.split(separator: " ").map(String.init)
    let help = try CLI.run(words + ["--help"]).stdout
    #expect(help.contains("--freedom-dir <dir>"))
    #expect(help.contains("--user-data <dir>"))
    #expect(help.contains("The same as --freedom-dir.\n"))

    let both = try CLI.run(words + ["--user-data", "/a", "--freedom-dir", "/b"])
    #expect(both.status == 2)
    #expect(
      both.stderr
        == "freedom-keys: error: --freedom-dir and --user-data name the same directory: give one "
        + "(see 'freedom-keys \(command) --help')\n")
    let twice = try CLI.run(words + ["--user-data", "/a", "--user-data", "/b"])
    #expect(twice.status == 2)
    #expect(
      twice.stderr
        == "freedom-keys: error: --user-data <dir> was given more than once "
        + "(see 'freedom-keys \(command) --help')\n")
  }

  @Test func verifyReadsAnInstallationGivenAsUserData() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    let created = try fixture.run(["export", "freedom", "--user-data", userData, "--create"])
    #expect(created.status == 0)
    let alias = try fixture.run(["verify", "--user-data", userData])
    #expect(alias.status == 0, "\(alias.stderr)")
    let name = try fixture.run(["verify", "--freedom-dir", userData])
    #expect(alias.stdout == name.stdout)
    #expect(alias.stdout.contains("ant-data"))
  }

  @Test(arguments: ["bee", "ant", "antd"])
  func aDataDirectoryIsRequiredAndNotEmpty(export: String) throws {
    let fixture = try ExportFixture()
    for arguments in [["export", export], ["export", export, "--data-dir", ""]] {
      let run = try fixture.run(arguments)
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "freedom-keys: error: missing --data-dir <dir> (see 'freedom-keys export \(export) "
          + "--help')\n")
    }
  }

  /// One rule for standard input across the secrets a command reads: the keystore password
  /// is held to the mnemonic's rule (named first), in every command that takes it.
  @Test(arguments: [
    ["export", "bee", "--data-dir"], ["export", "antd", "--data-dir"], ["verify", "--bee-dir"],
  ])
  func theKeystorePasswordFollowsTheStandardInputRule(command: [String]) throws {
    let usage = " (see 'freedom-keys \(command.dropLast().joined(separator: " ")) --help')\n"
    let cases: [([String], String)] = [
      (
        ["--mnemonic-file", "-"],
        "--password-file and --mnemonic-file cannot both read standard input"
      ),
      (
        [],
        "--password-file - needs --mnemonic-file PATH: the mnemonic cannot be asked for while "
          + "standard input carries the password"
      ),
      (
        ["--vault-file", "v.json"],
        "--password-file - needs --vault-password-file PATH: the vault password cannot be "
          + "asked for while standard input carries the password"
      ),
    ]
    for (more, message) in cases {
      let run = try CLI.run(command + ["node", "--password-file", "-"] + more, stdin: "")
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr == "freedom-keys: error: " + message + usage)
    }
  }

  @Test func typedValuesSayWhatTheyMustBe() throws {
    let fixture = try ExportFixture()
    let nonce = try fixture.run(["export", "ant", "--data-dir", fixture.path("a"), "--nonce", "x"])
    #expect(nonce.status == 2)
    #expect(
      nonce.stderr
        == "freedom-keys: error: --nonce <rule> must be zero or derived "
        + "(see 'freedom-keys export ant --help')\n")
    let cost = try fixture.run([
      "export", "bee", "--data-dir", fixture.path("b"), "--scrypt-n", "0x10",
    ])
    #expect(cost.status == 2)
    #expect(
      cost.stderr
        == "freedom-keys: error: --scrypt-n <n> must be a whole number from 1024 to 1048576 "
        + "(see 'freedom-keys export bee --help')\n")
    let empty = try fixture.run([
      "export", "antd", "--data-dir", fixture.path("c"), "--password-file", "",
    ])
    #expect(empty.status == 2)
    #expect(
      empty.stderr
        == "freedom-keys: error: --password-file <path> is empty "
        + "(see 'freedom-keys export antd --help')\n")
  }

  @Test func theExportGroupIsOneFlagEach() throws {
    let fixture = try ExportFixture()
    let run = try fixture.run([
      "export", "bee", "--data-dir", fixture.path("b"), "--dry-run", "--dry-run",
    ])
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "freedom-keys: error: --dry-run was given more than once "
        + "(see 'freedom-keys export bee --help')\n")
    let valued = try fixture.run(["export", "bee", "--data-dir", fixture.path("b"), "--json=1"])
    #expect(valued.status == 2)
    #expect(valued.stderr.hasPrefix("freedom-keys: error: --json does not take a value"))
    #expect(FileManager.default.fileExists(atPath: fixture.path("b")) == false)
  }
}

@Suite("verify: a BIP-39 passphrase hint")
struct PassphraseHintTests {
  static let hint =
    "freedom-keys: hint: the keys found are of another identity; if this mnemonic was used "
    + "with a BIP-39 passphrase, give it with --passphrase-file PATH (- to type it)\n"

  @Test func aKeyOfAnotherIdentityHintsAtAPassphrase() throws {
    let fixture = try ExportFixture()
    let bee = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", bee], other: true).status == 0)
    let run = try fixture.run(["verify", "--bee-dir", bee])
    #expect(run.status == 3)
    #expect(
      run.stderr == Self.hint + "freedom-keys: error: bee does not hold the mnemonic's identity\n")
    let json = try fixture.run(["verify", "--bee-dir", bee, "--json"])
    #expect(json.status == 3)
    #expect(json.stdout.hasSuffix("  \"ok\": false,\n  \"passphraseMayExplain\": true\n}\n"))
  }

  @Test func noHintWhenAPassphraseWasGiven() throws {
    let fixture = try ExportFixture()
    let bee = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", bee], other: true).status == 0)
    let passphrase = try fixture.file("passphrase", "TREZOR\n")
    let run = try fixture.run(["verify", "--bee-dir", bee, "--passphrase-file", passphrase])
    #expect(run.status == 3)
    #expect(run.stderr == "freedom-keys: error: bee does not hold the mnemonic's identity\n")
    let json = try fixture.run([
      "verify", "--bee-dir", bee, "--passphrase-file", passphrase, "--json",
    ])
    #expect(!json.stdout.contains("passphraseMayExplain"))
  }

  @Test func noHintWhenNothingIsThere() throws {
    let fixture = try ExportFixture()
    let bee = fixture.path("bee")
    try makeDirectory(bee)
    let run = try fixture.run(["verify", "--bee-dir", bee])
    #expect(run.status == 3)
    // An empty directory is "nothing of bee found here" (issue 16 item 5), and no hint.
    #expect(run.stderr == "freedom-keys: error: nothing of bee found here: \(bee)\n")
  }
}

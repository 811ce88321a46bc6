import Foundation
import Testing

/// A new password is never echoed (issue 16 item 7): `export freedom --vault-password-file -`
/// on a terminal asks at a hidden prompt, twice; one standard input cannot carry two secrets.
/// On 5001ebb the password was read with echo on and no prompt, once, and the piped pair
/// failed with "the vault password has 0 characters".
@Suite("New passwords")
struct NewPasswordTests {
  static let prompt = "Enter the vault password (input hidden): "
  static let again = "Enter the vault password again to confirm: "

  func exportFreedom(_ fixture: ExportFixture, typing answers: [String]) throws -> (
    PromptTests.Session, PromptTests.PseudoTerminal, String
  ) {
    let terminal = try PromptTests.PseudoTerminal()
    let session = try PromptTests.Session(
      [
        "export", "freedom", "--user-data", fixture.path("Freedom"), "--create", "--mnemonic-file",
        fixture.mnemonic, "--vault-password-file", "-",
      ], terminal: terminal)
    var seen = session.waitForStandardError(containing: Self.prompt)
    #expect(seen.hasSuffix(Self.prompt))
    #expect(!terminal.echoes)
    terminal.type(answers[0] + "\n")
    seen = session.waitForStandardError(containing: Self.again)
    #expect(seen.hasSuffix(Self.again))
    #expect(!terminal.echoes)
    terminal.type(answers[1] + "\n")
    return (session, terminal, seen)
  }

  @Test func theVaultPasswordIsAskedHiddenTwice() throws {
    let fixture = try ExportFixture()
    let password = VaultTests.password
    let (session, terminal, _) = try exportFreedom(fixture, typing: [password, password])
    let (stdout, stderr) = session.finish()
    #expect(session.process.terminationStatus == 0, "\(stderr)")
    #expect(terminal.displayed() == "")  // nothing typed was shown
    #expect(terminal.echoes)
    #expect(!stdout.contains(password) && !stderr.contains(password))
    // The vault opens with the typed password.
    let passwordFile = try fixture.file("typed", password)
    let opened = try CLI.run([
      "derive", "--json", "--vault-file", fixture.path("Freedom/identity/identity-vault.json"),
      "--vault-password-file", passwordFile,
    ])
    #expect(opened.status == 0, "\(opened.stderr)")
    #expect(opened.stdout.contains(Golden.swarmAddress))
  }

  @Test func twoDifferentPasswordsWriteNothing() throws {
    let fixture = try ExportFixture()
    let (session, terminal, _) = try exportFreedom(
      fixture, typing: [VaultTests.password, VaultTests.password + "x"])
    let (stdout, stderr) = session.finish()
    #expect(session.process.terminationStatus == 1)
    #expect(stdout == "")
    #expect(
      stderr.hasSuffix(
        "freedom-keys: error: the two vault passwords entered differ; nothing was written "
          + "(type the same one twice)\n"))
    #expect(!FileManager.default.fileExists(atPath: fixture.path("Freedom")))
    #expect(terminal.echoes)
  }

  static let keystorePrompt = "Enter the keystore password (input hidden): "
  static let keystoreAgain = "Enter the keystore password again to confirm: "

  /// Whether a command asks for a keystore password typed at the terminal a second time: an
  /// export encrypts with it (asked twice); its dry run and verify only read it (asked once).
  /// Decided by each command from its own options, not by a process-wide flag.
  @Test(arguments: [
    (["export", "bee", "--data-dir"], true), (["export", "antd", "--data-dir"], true),
    (["export", "bee", "--dry-run", "--data-dir"], false),
    (["export", "antd", "--dry-run", "--data-dir"], false),
  ])
  func theKeystorePasswordIsAskedTwiceOnlyWhenItEncrypts(command: [String], twice: Bool) throws {
    let fixture = try ExportFixture()
    let terminal = try PromptTests.PseudoTerminal()
    let session = try PromptTests.Session(
      command + [
        fixture.path("node"), "--mnemonic-file", fixture.mnemonic, "--password-file", "-",
      ], terminal: terminal)
    let seen = session.waitForStandardError(containing: Self.keystorePrompt)
    #expect(seen.hasSuffix(Self.keystorePrompt))
    #expect(!terminal.echoes)
    terminal.type("a keystore password\n")
    if twice {
      #expect(
        session.waitForStandardError(containing: Self.keystoreAgain).hasSuffix(Self.keystoreAgain))
      terminal.type("a keystore password\n")
    }
    let (stdout, stderr) = session.finish()
    #expect(session.process.terminationStatus == 0, "\(stderr)")
    #expect(!stderr.contains(Self.keystoreAgain))
    #expect(!stdout.contains("a keystore password") && !stderr.contains("a keystore password"))
    #expect(FileManager.default.fileExists(atPath: fixture.path("node")) == twice)
  }

  @Test func oneStandardInputCannotCarryTheMnemonicAndTheVaultPassword() throws {
    let fixture = try ExportFixture()
    let run = try CLI.run(
      [
        "export", "freedom", "--user-data", fixture.path("Freedom"), "--mnemonic-file", "-",
        "--vault-password-file", "-",
      ], stdin: Golden.mnemonic + "\n")
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "freedom-keys: error: --mnemonic-file and --vault-password-file cannot both read "
          + "standard input"))
    #expect(!FileManager.default.fileExists(atPath: fixture.path("Freedom")))
  }
}

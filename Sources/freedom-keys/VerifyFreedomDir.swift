import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// `verify --freedom-dir`: reads the inputs (the mnemonic, or the installation's own vault as its
/// source; the vault password), runs `DesktopInstallation`'s checks and prints the rows.
/// What the installation does not have is listed as absent and does not fail the check.
enum VerifyFreedomDir {
  /// Runs every check over `userData` and prints the report; exit 3 on a mismatch.
  static func run(
    _ directory: String, input: MnemonicOptions, vaultPasswordPath: String?, json: Bool,
    profile: String? = nil
  ) throws {
    let (located, vaultExists) = try NodeText.run(.verify) {
      let located =
        try profile.map { try DesktopInstallation(appRoot: directory, profile: $0) }
        ?? DesktopInstallation(userData: directory)
      // The right directory before anything else: no password is asked for a wrong one.
      try located.requireRightDirectory()
      try NodeSession.reading(located, events: NodeText.show) { _ in }
      return (located, try located.hasVault())
    }
    let vaultPath = located.vaultPath
    // Without a mnemonic (file or vault given), the installation's own vault is the source.
    let vaultIsSource = input.mnemonicPath == nil && input.vaultPath == nil && vaultExists
    let vaultPassword: SecureBytes?
    if let vaultPasswordPath {
      vaultPassword = SecretInput.droppingLineEnding(
        try SecretInput.read(SecretSource(role: "vault password", path: vaultPasswordPath)))
    } else if vaultExists, SecretInput.standardInputIsTerminal, input.mnemonicPath != "-" {
      vaultPassword = try SecretInput.prompt(
        "Enter the vault password of \(vaultPath) (input hidden): ",
        for: SecretSource(role: "vault password", path: nil))
    } else {
      vaultPassword = nil
    }
    let mnemonic: Mnemonic
    if vaultIsSource {
      guard let vaultPassword else {
        throw CLIError.failure(
          "give --vault-password-file to open \(vaultPath), or the mnemonic with --mnemonic-file")
      }
      mnemonic = try NodeText.run(.verify) { try located.openVault(password: vaultPassword) }
    } else {
      mnemonic = try input.readMnemonic()
    }
    let profile = try FreedomProfile(mnemonic: mnemonic, passphrase: try input.readPassphrase())
    let access: DesktopInstallation.VaultAccess =
      vaultIsSource
      ? .source : vaultPassword.map { .password($0, mnemonic: mnemonic) } ?? .notOpened

    // Every check runs before anything is printed: an error leaves stdout empty.
    let findings = try NodeText.run(.verify) {
      try NodeSession.verify(
        located.with(vault: access), against: profile,
        events: NodeText.show)
    }
    Output.standardOutput(
      json
        ? NodeFinding.rowsJSON(findings, userData: located.directory) { NodeText.render($0) }
          .rendered()
          + "\n"
        : NodeText.render(NodeFinding.rows(findings)))
    if let failure = NodeFinding.failure(findings, absentFails: false) {
      throw CLIError.mismatch(failure)
    }
  }
}

import CommandLineKit
import FreedomNodes

/// The CLI's side of `verify`'s report: the findings word themselves (`NodeFinding`); here
/// their remedies become this tool's options, and a failure its exit status.
enum VerifyText {
  /// Why a set of findings fails (exit 3), or nil when none does.
  static func failed(_ findings: [NodeFinding], absentFails: Bool) -> CLIError? {
    NodeFinding.failure(findings, absentFails: absentFails).map(CLIError.mismatch)
  }

  /// The hint's line when a BIP-39 passphrase could explain the keys found.
  static let passphraseHint =
    "the keys found are of another identity; if this mnemonic was used with a BIP-39 "
    + "passphrase, give it with --\(MnemonicOptions.passphraseFile.name) PATH (- to type it)"
}

import VaultKeys
import Wording

/// Says on stderr that a key derivation will take more than a second (`KeyDerivationNotice`),
/// so a slow run is not mistaken for a hang.
enum KDFNotice {
  static func announce(_ what: String, seconds: Double) {
    say(KeyDerivationNotice.text(what, seconds: seconds))
  }

  static func announce(_ action: String, _ kdf: Web3Keystore.KDF) {
    say(KeyDerivationNotice.text(action, kdf))
  }

  private static func say(_ notice: String?) {
    notice.map { Output.standardError("freedom-keys: \(TerminalText.oneLine($0))\n") }
  }
}

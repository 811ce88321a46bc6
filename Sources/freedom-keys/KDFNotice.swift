import VaultKeys

/// The line said on stderr before a key derivation expected to take longer than a second, so a
/// slow run is not mistaken for a hang. The estimate comes from the parameters alone.
enum KDFNotice {
  /// Says `what` (e.g. "decrypting /x/keystore (scrypt n=2^20, r=8, p=1)") will take about
  /// `seconds`, when that is more than one.
  static func announce(_ what: String, seconds: Double) {
    guard seconds > 1 else { return }
    let rounded = seconds < 10 ? String(Int(seconds.rounded(.up))) : String(Int(seconds.rounded()))
    Output.standardError("freedom-keys: \(Output.oneLine(what)) takes about \(rounded) s…\n")
  }

  /// `announce` for a keystore's KDF.
  static func announce(_ action: String, _ kdf: Web3Keystore.KDF) {
    let parameters =
      switch kdf {
      case .scrypt(let n, let r, let p): "scrypt n=\(n), r=\(r), p=\(p)"
      case .pbkdf2(let iterations): "pbkdf2 c=\(iterations)"
      }
    announce("\(action) (\(parameters))", seconds: kdf.estimatedSeconds)
  }
}

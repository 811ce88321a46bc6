/// The notice said before a key derivation expected to take longer than a second, so a slow
/// run is not mistaken for a hang: "decrypting /x/keystore (scrypt n=262144, r=8, p=1) takes
/// about 3 s…". The estimate comes from the parameters alone.
public enum KeyDerivationNotice {
  /// "`what` takes about N s…", or nil when it takes a second or less.
  public static func text(_ what: String, seconds: Double) -> String? {
    guard seconds > 1 else { return nil }
    let rounded = seconds < 10 ? String(Int(seconds.rounded(.up))) : String(Int(seconds.rounded()))
    return "\(what) takes about \(rounded) s…"
  }

  /// `text` for a keystore's KDF, its parameters named after `action`.
  public static func text(_ action: String, _ kdf: Web3Keystore.KDF) -> String? {
    let parameters =
      switch kdf {
      case .scrypt(let n, let r, let p): "scrypt n=\(n), r=\(r), p=\(p)"
      case .pbkdf2(let iterations): "pbkdf2 c=\(iterations)"
      }
    return text("\(action) (\(parameters))", seconds: kdf.estimatedSeconds)
  }
}

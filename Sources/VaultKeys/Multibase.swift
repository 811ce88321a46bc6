/// Multibase: self-describing text, a one-character base prefix followed by the encoded bytes.
/// Only the bases that node identities use are supported.
public enum Multibase {
  /// A supported base, named by its multibase prefix character.
  public enum Encoding: Character, Sendable, CaseIterable {
    /// base58btc, prefix `z` (did:key, Radicle node IDs).
    case base58btc = "z"
    /// base36 lowercase, prefix `k` (libp2p-key CIDs, IPNS names).
    case base36 = "k"
    /// base36 uppercase, prefix `K`; decoded only, since encoders emit lowercase `k`.
    case base36Upper = "K"
  }

  /// The prefix of `encoding` followed by `bytes` in that base.
  public static func encode(_ bytes: some Collection<UInt8>, as encoding: Encoding) -> String {
    switch encoding {
    case .base58btc: "z" + Base58.encode(bytes)
    case .base36: "k" + Base36.encode(bytes)
    case .base36Upper: "K" + Base36.encode(bytes).uppercased()
    }
  }

  /// The encoding named by the first character of `text` and the bytes after it, or nil if
  /// the prefix is not a supported base or a character is outside that base's alphabet.
  public static func decode(_ text: some StringProtocol) -> (encoding: Encoding, bytes: [UInt8])? {
    guard let prefix = text.first, let encoding = Encoding(rawValue: prefix) else { return nil }
    let body = text.dropFirst()
    let bytes: [UInt8]? =
      switch encoding {
      case .base58btc: Base58.decode(body)
      case .base36, .base36Upper: Base36.decode(body)
      }
    return bytes.map { (encoding, $0) }
  }
}

/// PBKDF2-HMAC-SHA512 of many passwords under one salt: BIP-39 seeds of many candidate phrases.
///
/// The interface the phrase recovery codes against. This body is a plain loop over the
/// single-stream `PBKDF2.hmacSHA512`; a multi-buffer implementation replaces it without
/// changing the signature or the results.
public enum PBKDF2SHA512Batch {
  /// How many passwords a call should carry to use the implementation fully.
  public static var preferredBatchSize: Int { 8 }

  /// One 64-byte seed per entry of `mnemonics`, in order: PBKDF2-HMAC-SHA512 of each password
  /// with `salt` ("mnemonic" + NFKD passphrase) and `iterations` rounds.
  public static func deriveBIP39Seeds(
    mnemonics: [SecureBytes], salt: SecureBytes, iterations: Int
  ) -> [SecureBytes] {
    mnemonics.map {
      PBKDF2.hmacSHA512(password: $0, salt: salt, iterations: iterations, keyByteCount: 64)
    }
  }
}

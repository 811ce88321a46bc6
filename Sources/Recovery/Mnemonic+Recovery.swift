import CryptoPrimitives
import VaultKeys

extension Mnemonic {
  /// BIP-39's PBKDF2 salt: "mnemonic" followed by the NFKD passphrase.
  static func salt(passphrase: SecureBytes) -> SecureBytes {
    SecureBytes(utf8: "mnemonic") + compatibilityDecomposed(passphrase)
  }

  /// The NFKD words joined by single spaces: the PBKDF2 password of the seed.
  func normalizedSentence() -> SecureBytes {
    let forms = Wordlist.named(language).words.map { Array($0.utf8) }
    var indices: [Int] = []
    Self.forEachWordIndex(of: entropy) { indices.append($0) }
    let count = indices.reduce(indices.count - 1) { $0 + forms[$1].count }
    return SecureBytes(count: count) { buffer in
      var offset = 0
      for (position, index) in indices.enumerated() {
        if position > 0 {
          buffer[offset] = 0x20
          offset += 1
        }
        for byte in forms[index] {
          buffer[offset] = byte
          offset += 1
        }
      }
    }
  }
}

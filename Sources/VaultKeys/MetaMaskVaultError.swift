import CryptoPrimitives

/// Why a MetaMask vault could not be read or opened. Messages never hold the password or any
/// decrypted byte.
public enum MetaMaskVaultError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The password does not open the vault (or its encrypted data was altered).
  case incorrectPassword
  /// The key derivation algorithm is not PBKDF2 (the name as found, shortened and made printable).
  case unsupportedAlgorithm(String)
  /// The PBKDF2 iteration count is outside 1…10,000,000.
  case unsupportedIterations(Int)
  /// The input holds no MetaMask vault; the reason names the field or shape that is wrong.
  case notAVault(reason: String)
  /// The vault opened, but no HD keyring in it holds a Secret Recovery Phrase.
  case noMnemonic
  /// The cipher library failed for a reason other than a wrong password.
  case decryptionFailed(CryptoError)

  public var description: String {
    switch self {
    case .incorrectPassword:
      "incorrect MetaMask password"
    case .unsupportedAlgorithm(let name):
      "unsupported vault key derivation '\(name)' — MetaMask's vaults use PBKDF2"
    case .unsupportedIterations(let count):
      "unsupported PBKDF2 iteration count \(count) — expected 1…10,000,000 (MetaMask uses "
        + "600,000; 10,000 before 'keyMetadata')"
    case .notAVault(let reason):
      "the file is not a MetaMask vault: \(reason)"
    case .noMnemonic:
      "the vault opened, but no 'HD Key Tree' keyring in it holds a Secret Recovery Phrase"
    case .decryptionFailed(let error):
      "vault decryption failed: \(error)"
    }
  }

  /// The message for the vault read from `file`: "v.json is not a MetaMask vault: missing
  /// 'salt'"; any other error as it is.
  public func naming(_ file: String) -> String {
    guard case .notAVault(let reason) = self else { return description }
    return "\(file) is not a MetaMask vault: \(reason)"
  }

  init(_ error: VaultFormatError) {
    switch error {
    case .notAVault(let reason): self = .notAVault(reason: reason)
    case .unsupportedAlgorithm(let name): self = .unsupportedAlgorithm(name)
    case .unsupportedIterations(let count): self = .unsupportedIterations(count)
    }
  }
}

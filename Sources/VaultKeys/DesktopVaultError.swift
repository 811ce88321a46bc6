import CryptoPrimitives

/// Why a desktop Freedom identity vault could not be read or opened. Messages never hold the
/// password or any decrypted byte.
public enum DesktopVaultError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The password does not open the vault (or its encrypted data was altered).
  case incorrectPassword
  /// The vault's `version` is not 1, the only version desktop Freedom writes.
  case unsupportedVersion(Int)
  /// The key derivation algorithm is not PBKDF2 (the name as found, shortened and made printable).
  case unsupportedAlgorithm(String)
  /// The PBKDF2 iteration count is outside 1…10,000,000.
  case unsupportedIterations(Int)
  /// The input is not an identity vault; the reason names the field or shape that is wrong.
  case notAVault(reason: String)
  /// The vault opened, but its content holds no mnemonic string.
  case noMnemonic
  /// The cipher library failed for a reason other than a wrong password.
  case decryptionFailed(CryptoError)

  public var description: String {
    switch self {
    case .incorrectPassword:
      "incorrect vault password"
    case .unsupportedVersion(let version):
      "unsupported vault version \(version) — this tool reads version 1 vaults written by desktop Freedom"
    case .unsupportedAlgorithm(let name):
      "unsupported vault key derivation '\(name)' — this tool reads PBKDF2 vaults written by desktop Freedom"
    case .unsupportedIterations(let count):
      "unsupported PBKDF2 iteration count \(count) — expected 1…10,000,000 (desktop Freedom uses 900,000)"
    case .notAVault(let reason):
      "the file is not a desktop Freedom identity vault: \(reason)"
    case .noMnemonic:
      "the vault opened, but it holds no mnemonic — it was not written by desktop Freedom"
    case .decryptionFailed(let error):
      "vault decryption failed: \(error)"
    }
  }
}

extension DesktopVaultError {
  /// The message for the vault read from `file` (as messages name it): "v.json is not a
  /// desktop Freedom identity vault: missing 'version'"; a vault of a kind this tool does not
  /// read, or one that does not open, as it is.
  public func naming(_ file: String) -> String {
    guard case .notAVault(let reason) = self else { return description }
    return "\(file) is not a desktop Freedom identity vault: \(reason)"
  }
}

extension DesktopVaultError {
  /// The format error worded for desktop's vault; an error that is already one is kept.
  init(_ error: any Error) {
    switch error {
    case let error as DesktopVaultError: self = error
    case VaultFormatError.notAVault(let reason): self = .notAVault(reason: reason)
    case VaultFormatError.unsupportedAlgorithm(let name): self = .unsupportedAlgorithm(name)
    case VaultFormatError.unsupportedIterations(let count): self = .unsupportedIterations(count)
    default: self = .notAVault(reason: "\(error)")
    }
  }
}

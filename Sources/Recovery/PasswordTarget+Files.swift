import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PasswordTarget {
  /// Desktop Freedom's vault in `json`, read from `file` (as messages name it).
  package init(vault json: some ContiguousBytes, file: String) throws(PasswordTargetError) {
    do {
      self = .vault(try DesktopVault(json: json))
    } catch {
      throw .notAVault(file: file, error)
    }
  }

  /// MetaMask's vault in `json` (any shape `MetaMaskVault` reads), read from `file`.
  package init(metamaskVault json: some ContiguousBytes, file: String) throws(PasswordTargetError) {
    do {
      self = .metamaskVault(try MetaMaskVault(json: json))
    } catch {
      throw .notAMetaMaskVault(file: file, error)
    }
  }

  /// The web3 v3 keystore in `json`, read from `file` (as messages name it).
  package init(keystore json: some ContiguousBytes, file: String) throws(PasswordTargetError) {
    do {
      self = .keystore(try Web3Keystore(json: json))
    } catch {
      throw .notAKeystore(file: file, error)
    }
  }
}

/// Why there is no file for a password to open. Each names the file, never its content.
package enum PasswordTargetError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not desktop Freedom's identity vault.
  case notAVault(file: String, DesktopVaultError)
  /// The file holds no MetaMask vault.
  case notAMetaMaskVault(file: String, MetaMaskVaultError)
  /// The file is not a web3 v3 keystore.
  case notAKeystore(file: String, Web3KeystoreError)
  /// An installation has no vault (its file does not exist).
  case noVault(file: String)
  /// A node directory has no keystore (its file does not exist).
  case noKeystore(file: String)

  package var description: String {
    switch self {
    case .notAVault(let file, .notAVault(let reason)):
      DesktopVaultError.notAVault(reason: reason).naming(file)
    case .notAVault(let file, let error):
      "\(file) is not a desktop Freedom identity vault: \(error)"
    case .notAMetaMaskVault(let file, let error): error.naming(file)
    case .notAKeystore(let file, let error): "\(file) is not a web3 v3 keystore: \(error)"
    case .noVault(let file): "\(file) does not exist: this installation has no vault to open"
    case .noKeystore(let file): "\(file) does not exist: this directory has no keystore to open"
    }
  }
}

import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension UserFiles {
  /// A keystore file a user names, opened: the keystore and, with a password, the address of
  /// the key it holds (the MAC checked first).
  package struct OpenedKeystore: Sendable {
    package let keystore: Web3Keystore
    /// The key's address, nil without a password.
    package let keyAddress: EthereumAddress?
  }

  /// Why a keystore file cannot be opened, naming the file.
  package struct KeystoreFileError: Error, CustomStringConvertible, Sendable {
    package let description: String
  }

  /// Reads and parses the keystore at `path` and, with `password`, decrypts it (`events` is
  /// told of the key derivation first).
  package static func keystore(
    _ path: String, password: SecureBytes?, events: (NodeEvent) -> Void = { _ in }
  ) throws(KeystoreFileError) -> OpenedKeystore {
    let bytes: SecureBytes?
    do {
      bytes = try read(path)
    } catch {
      throw KeystoreFileError(description: error.message)
    }
    guard let bytes else { throw KeystoreFileError(description: "\(path) does not exist") }
    let keystore: Web3Keystore
    do {
      keystore = try Web3Keystore(json: bytes)
    } catch {
      throw KeystoreFileError(description: "\(path): \(error)")
    }
    guard let password else { return OpenedKeystore(keystore: keystore, keyAddress: nil) }
    events(.keyDerivation(encrypting: false, path: path, kdf: keystore.kdf))
    do {
      let key = try keystore.decrypt(password: password)
      return OpenedKeystore(
        keystore: keystore, keyAddress: EthereumAddress(publicKey: key.publicKey))
    } catch .wrongPassword {
      throw KeystoreFileError(description: "wrong password for \(path): its MAC does not match")
    } catch {
      throw KeystoreFileError(description: "\(path): \(error)")
    }
  }
}

extension UserFiles {
  /// Desktop's `vault-meta.json` beside the vault at `vaultPath`, when there is one (a vault
  /// read from standard input, "-", has no directory).
  package static func vaultMeta(besideVault vaultPath: String) -> String? {
    guard vaultPath != "-" else { return nil }
    let directory = vaultPath.lastIndex(of: "/").map { String(vaultPath[...$0]) } ?? "./"
    let candidate = directory + DesktopVaultMeta.fileName
    return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
  }

  /// Why a vault-meta file cannot be read, naming it.
  package struct VaultMetaFileError: Error, CustomStringConvertible, Sendable {
    package let description: String
  }

  /// The vault-meta file at `path`, parsed (nothing in it is secret); nil when there is none.
  package static func vaultMeta(_ path: String) throws(VaultMetaFileError) -> DesktopVaultMeta? {
    let bytes: SecureBytes?
    do {
      bytes = try read(path)
    } catch {
      throw VaultMetaFileError(description: error.message)
    }
    guard let bytes else { return nil }
    do {
      return try DesktopVaultMeta(json: bytes)
    } catch {
      throw VaultMetaFileError(description: "\(path): \(error)")
    }
  }
}

import CryptoPrimitives
import VaultKeys

/// A file a password opens, and the check a candidate must pass: desktop Freedom's vault or
/// MetaMask's (PBKDF2-HMAC-SHA256, then the AES-256-GCM tag) or a web3 v3 keystore (scrypt or
/// PBKDF2-HMAC-SHA256, then the MAC, Keccak-256 as geth, bee and antd check it).
package enum PasswordTarget: Sendable {
  /// Desktop Freedom's `identity-vault.json`.
  case vault(DesktopVault)
  /// MetaMask's KeyringController vault.
  case metamaskVault(MetaMaskVault)
  /// A web3 v3 keystore (bee's and antd's `keys/swarm.key`, geth's files).
  case keystore(Web3Keystore)

  /// What opened, told without a secret.
  package enum Opened: Sendable, Equatable {
    /// The vault, holding a mnemonic of this many words (nil: not a BIP-39 phrase).
    case vault(words: Int?)
    /// The keystore, whose key has this address.
    case keystore(address: EthereumAddress)
  }

  /// How many passwords one `firstOpening` call is best given: with PBKDF2 every SIMD lane of
  /// the batch engine busy; scrypt takes one password at a time.
  package var batchSize: Int { batchSize(on: .cpu) }

  /// How many passwords one `firstOpening(_:on:)` call is best given on `backend` (scrypt: one,
  /// on the CPU whatever the backend).
  package func batchSize(on backend: PBKDF2Backend) -> Int {
    switch self {
    case .vault, .metamaskVault: backend.keyBatchSize
    case .keystore(let keystore):
      if case .pbkdf2 = keystore.kdf { backend.keyBatchSize } else { 1 }
    }
  }

  /// The memory one try takes where it bounds how many run together (scrypt); nil for
  /// PBKDF2.
  package var memoryPerTry: UInt64? {
    switch self {
    case .vault, .metamaskVault: nil
    case .keystore(let keystore): keystore.kdf.memoryByteCount
    }
  }

  /// What a candidate is checked against: a vault's sealed object (desktop's and MetaMask's
  /// are the same cipher) or a keystore.
  private enum Check {
    case sealed(BrowserPassworderVault)
    case keystore(Web3Keystore)
  }

  private var check: Check {
    switch self {
    case .vault(let vault): .sealed(vault.sealed)
    case .metamaskVault(let vault): .sealed(vault.sealed)
    case .keystore(let keystore): .keystore(keystore)
    }
  }

  /// The key derivation, for messages: "PBKDF2-HMAC-SHA256, 900000 iterations".
  package var kdfDescription: String {
    switch check {
    case .sealed(let vault): "PBKDF2-HMAC-SHA256, \(vault.iterations) iterations"
    case .keystore(let keystore):
      switch keystore.kdf {
      case .pbkdf2(let iterations): "PBKDF2-HMAC-SHA256, \(iterations) iterations"
      case .scrypt(let n, let r, let p): "scrypt n=\(n) r=\(r) p=\(p)"
      }
    }
  }

  /// The index in `passwords` of the first that passes the file's check, or nil; PBKDF2 on
  /// `backend`.
  package func firstOpening(_ passwords: [SecureBytes], on backend: PBKDF2Backend = .cpu)
    throws(PasswordRecoveryError) -> Int?
  {
    switch check {
    case .sealed(let vault):
      return Self.pbkdf2(
        passwords, salt: vault.keySalt, iterations: vault.iterations, on: backend
      )
      .firstIndex(where: vault.isKey)
    case .keystore(let keystore):
      switch keystore.kdf {
      case .pbkdf2(let iterations):
        return Self.pbkdf2(passwords, salt: keystore.salt, iterations: iterations, on: backend)
          .firstIndex(where: keystore.macMatches)
      case .scrypt(let n, let r, let p):
        for (index, password) in passwords.enumerated() {
          let key: SecureBytes
          do {
            key = try Scrypt.deriveKey(
              password: password, salt: keystore.salt, n: n, r: r, p: p,
              keyByteCount: Web3Keystore.derivedKeyByteCount)
          } catch {
            throw .kdfFailed(error.description)
          }
          if keystore.macMatches(derivedKey: key) { return index }
        }
        return nil
      }
    }
  }

  /// The file's PBKDF2-HMAC-SHA256 salt and iterations, where its key is derived so (nil for
  /// scrypt): a batch's keys may then be derived apart from their check
  /// (`firstOpening(keys:)`), as a search on a device does.
  package var pbkdf2: (salt: [UInt8], iterations: Int)? {
    switch check {
    case .sealed(let vault): (vault.keySalt, vault.iterations)
    case .keystore(let keystore):
      if case .pbkdf2(let iterations) = keystore.kdf { (keystore.salt, iterations) } else { nil }
    }
  }

  /// The index of the first of `keys` (the PBKDF2 keys of a batch, as `pbkdf2` says) that
  /// passes the file's check, or nil.
  package func firstOpening(keys: [SecureBytes]) -> Int? {
    switch check {
    case .sealed(let vault): keys.firstIndex(where: vault.isKey)
    case .keystore(let keystore): keys.firstIndex(where: keystore.macMatches)
    }
  }

  /// Opens the file with `password` as the app does (the vault's mnemonic read; the keystore's
  /// key decrypted and its address compared with the file's), so a password found is one the
  /// app accepts.
  package func open(with password: SecureBytes) throws(PasswordRecoveryError) -> Opened {
    switch self {
    case .vault(let vault):
      let mnemonic: SecureBytes
      do {
        mnemonic = try vault.decryptMnemonic(password: password)
      } catch {
        throw .damagedFile(error.description)
      }
      return .vault(words: (try? Mnemonic(phrase: mnemonic))?.wordCount)
    case .metamaskVault(let vault):
      let mnemonic: SecureBytes
      do {
        mnemonic = try vault.decryptMnemonic(password: password)
      } catch {
        throw .damagedFile(error.description)
      }
      return .vault(words: (try? Mnemonic(phrase: mnemonic))?.wordCount)
    case .keystore(let keystore):
      do {
        let key = try keystore.decrypt(password: password)
        return .keystore(address: EthereumAddress(publicKey: key.publicKey))
      } catch {
        throw .damagedFile(error.description)
      }
    }
  }

  /// The file's key for `password` (its KDF, once): what a checkpoint's search hash is keyed
  /// with, so that the checkpoint is no cheaper to guess passwords against than the file.
  func deriveKey(_ password: SecureBytes) throws(PasswordRecoveryError) -> SecureBytes {
    switch check {
    case .sealed(let vault):
      return Self.pbkdf2([password], salt: vault.keySalt, iterations: vault.iterations)[0]
    case .keystore(let keystore):
      switch keystore.kdf {
      case .pbkdf2(let iterations):
        return Self.pbkdf2([password], salt: keystore.salt, iterations: iterations)[0]
      case .scrypt(let n, let r, let p):
        do {
          return try Scrypt.deriveKey(
            password: password, salt: keystore.salt, n: n, r: r, p: p,
            keyByteCount: Web3Keystore.derivedKeyByteCount)
        } catch {
          throw .kdfFailed(error.description)
        }
      }
    }
  }

  /// SHA-256 of `publicBytes`: names the file in a part result without its path.
  package var publicHash: [UInt8] {
    SHA256.hash(Array("freedom-keys password file 1\0".utf8) + publicBytes)
  }

  /// What tells this file apart, public: its kind, KDF and salt.
  var publicBytes: [UInt8] {
    switch self {
    case .vault(let vault): Array("vault \(kdfDescription)\0".utf8) + vault.sealed.keySalt
    case .metamaskVault(let vault):
      Array("metamask vault \(kdfDescription)\0".utf8) + vault.sealed.keySalt
    case .keystore(let keystore): Array("keystore \(kdfDescription)\0".utf8) + keystore.salt
    }
  }

  private static func pbkdf2(
    _ passwords: [SecureBytes], salt: [UInt8], iterations: Int, on backend: PBKDF2Backend = .cpu
  ) -> [SecureBytes] {
    let salt = SecureBytes(salt)
    return backend.deriveSHA256Keys(
      passwords: passwords, salts: Array(repeating: salt, count: passwords.count),
      iterations: iterations)
  }
}

import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Desktop Freedom's `identity/quick-unlock.dat` (`quick-unlock.js`, `CREDENTIAL_VERSION` 2):
/// the vault password sealed with the OS keyring (Electron `safeStorage`) for Touch ID unlock.
/// Version 2 is JSON `{version, profileId, userDataDirHash, vaultFingerprint, encrypted,
/// createdAt}`, bound to the profile (SHA-256 hex of its userData's real path) and to the vault
/// (`vaultFingerprint`: SHA-256 hex of `identity-vault.json`'s bytes); desktop ignores a
/// credential whose binding differs ("Quick unlock does not match this vault") and the user
/// sets Touch ID up again. Anything else is a legacy credential: the raw sealed bytes, tried
/// at the next unlock. Nothing here is decrypted: only the OS keyring can.
package struct DesktopQuickUnlock: Sendable, Equatable {
  /// The file's name in `identity/`.
  package static let fileName = "quick-unlock.dat"
  /// The version desktop writes and binds.
  package static let boundVersion = 2

  /// What the file is.
  package enum Kind: Sendable, Equatable {
    /// A version 2 credential with its bindings.
    case bound(profileID: String?, userDataDirHash: String?, vaultFingerprint: String?)
    /// Raw sealed bytes from before version 2.
    case legacy
  }

  package let kind: Kind

  /// Reads the bytes of a `quick-unlock.dat` as desktop's `parseCredential` does.
  package init(bytes: some ContiguousBytes) {
    kind = bytes.withUnsafeBytes { raw -> Kind in
      guard let document = try? JSONText.parse(raw, duplicates: .kept),
        let version = document.lastMember(named: "version"),
        DesktopProfileRegistry.integer(version.value, in: raw) == Self.boundVersion,
        let sealed = document.lastMember(named: "encrypted"), sealed.value.isString
      else { return .legacy }
      func text(_ name: String) -> String? {
        document.lastMember(named: name).flatMap {
          $0.value.isString ? JSONText.string($0.value, in: raw) : nil
        }
      }
      return .bound(
        profileID: text("profileId"), userDataDirHash: text("userDataDirHash"),
        vaultFingerprint: text("vaultFingerprint"))
    }
  }

  /// The fingerprint desktop binds a credential to: SHA-256 hex of the vault file's bytes.
  package static func vaultFingerprint(_ vault: SecureBytes) -> String {
    vault.withUnsafeBytes { Hex.encode(SHA256.hash(Array($0))) }
  }

  /// Whether the credential fits `vault` (legacy credentials are not bound to one).
  package func fits(vault: SecureBytes) -> Bool {
    guard case .bound(_, _, let fingerprint) = kind else { return true }
    return fingerprint == Self.vaultFingerprint(vault)
  }
}

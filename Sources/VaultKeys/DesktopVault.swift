import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Desktop Freedom's `identity-vault.json`: the mnemonic, encrypted by
/// @metamask/browser-passworder with a key derived from the vault password.
///
/// The file is `{"version": 1, "encrypted": <string>, "createdAt": <ISO 8601>}`; `encrypted`
/// is JSON `{"data", "iv", "keyMetadata"?, "salt"}` where
/// key = PBKDF2-HMAC-SHA256(password, salt, iterations, 32 bytes) (10,000 iterations when
/// `keyMetadata` is absent), `data` = AES-256-GCM ciphertext ‖ 16-byte tag under the 16-byte
/// `iv` with no associated data, and the plaintext is `{"mnemonic": "…"}`. Every binary field
/// is standard base64. Parsing checks the shape; only `decryptMnemonic` touches a secret.
public struct DesktopVault: Sendable {
  /// The only vault version desktop Freedom writes.
  public static let supportedVersion = 1
  /// The iteration counts accepted: any real vault, without letting a file stall the tool.
  public static let supportedIterations = BrowserPassworderVault.supportedIterations
  /// The iteration count of vaults without `keyMetadata` (browser-passworder before 4.2).
  public static let legacyIterations = BrowserPassworderVault.legacyIterations
  /// The largest file accepted; a real vault is under 1 KiB.
  public static let maxByteCount = 1 << 20
  /// The byte length of the AES-GCM IV browser-passworder generates.
  public static let ivByteCount = BrowserPassworderVault.ivByteCount

  /// The `version` field (always 1 once parsed).
  public let version: Int
  /// When desktop Freedom wrote the vault (ISO 8601, as stored), if recorded.
  public let createdAt: String?
  /// The sealed mnemonic (`encrypted`).
  package let sealed: BrowserPassworderVault

  /// The PBKDF2-HMAC-SHA256 iteration count.
  public var iterations: Int { sealed.iterations }

  /// Parses the bytes of an `identity-vault.json`. Nothing secret is read here.
  public init(json bytes: some ContiguousBytes) throws(DesktopVaultError) {
    let json = bytes.withUnsafeBytes { [UInt8]($0) }
    guard json.count <= Self.maxByteCount else {
      throw .notAVault(reason: "the file is larger than 1 MiB")
    }
    do {
      let envelope = try VaultJSONFields(json, field: nil)
      guard let version = try envelope.integer("version") else {
        throw VaultFormatError.notAVault(reason: "missing 'version'")
      }
      guard version == Self.supportedVersion else {
        throw DesktopVaultError.unsupportedVersion(version)
      }
      guard let encrypted = try envelope.string("encrypted") else {
        throw VaultFormatError.notAVault(reason: "missing 'encrypted'")
      }
      let createdAt = try envelope.string("createdAt")
      sealed = try BrowserPassworderVault(
        try VaultJSONFields(Array(encrypted.utf8), field: "encrypted"))
      self.version = version
      self.createdAt = createdAt
    } catch {
      throw DesktopVaultError(error)
    }
  }

  /// A rough duration of `decryptMnemonic`, from the iteration count alone.
  public var estimatedDecryptionSeconds: Double { sealed.estimatedOpeningSeconds }

  /// The mnemonic text (UTF-8, exactly as stored) opened with `password`, the UTF-8 bytes of the
  /// vault password as typed (browser-passworder does not normalise it). Takes as long as
  /// `iterations` PBKDF2 rounds: about a second at desktop Freedom's 900,000.
  public func decryptMnemonic(password: SecureBytes) throws(DesktopVaultError) -> SecureBytes {
    let plaintext = try sealed.open(
      password: password, incorrect: .incorrectPassword, failed: DesktopVaultError.decryptionFailed)
    guard let mnemonic = MnemonicPayload.mnemonic(in: plaintext) else { throw .noMnemonic }
    return mnemonic
  }
}

/// Reads the mnemonic out of the decrypted `{"mnemonic": "…"}` with the package's strict JSON
/// reader, decoding only the value, straight into a `SecureBytes`: the secret never becomes a
/// `String`.
private enum MnemonicPayload {
  /// The unescaped UTF-8 value of the top-level `mnemonic` member, or nil if the plaintext is
  /// not strict JSON (duplicate members included) or not an object with a non-empty one.
  static func mnemonic(in plaintext: SecureBytes) -> SecureBytes? {
    plaintext.withUnsafeBytes { bytes -> SecureBytes? in
      guard let root = try? JSONText.parse(bytes),
        let member = root.member(exactly: "mnemonic"), member.value.isString
      else { return nil }
      let mnemonic = JSONText.secureString(member.value, in: bytes)
      return mnemonic.count > 0 ? mnemonic : nil
    }
  }
}

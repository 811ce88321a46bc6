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
  public static let supportedIterations = 1...10_000_000
  /// The iteration count of vaults without `keyMetadata` (browser-passworder before 4.2).
  public static let legacyIterations = 10_000
  /// The largest file accepted; a real vault is under 1 KiB.
  public static let maxByteCount = 1 << 20
  /// The byte length of the AES-GCM IV browser-passworder generates.
  public static let ivByteCount = 16
  private static let keyByteCount = 32

  /// The `version` field (always 1 once parsed).
  public let version: Int
  /// The PBKDF2-HMAC-SHA256 iteration count.
  public let iterations: Int
  /// When desktop Freedom wrote the vault (ISO 8601, as stored), if recorded.
  public let createdAt: String?
  private let salt: [UInt8]
  private let iv: [UInt8]
  private let ciphertext: [UInt8]
  private let tag: [UInt8]

  /// Parses the bytes of an `identity-vault.json`. Nothing secret is read here.
  public init(json bytes: some ContiguousBytes) throws(DesktopVaultError) {
    let json = bytes.withUnsafeBytes { [UInt8]($0) }
    guard json.count <= Self.maxByteCount else {
      throw .notAVault(reason: "the file is larger than 1 MiB")
    }
    let envelope = try Fields(json, field: nil)
    guard let version = try envelope.integer("version") else {
      throw .notAVault(reason: "missing 'version'")
    }
    guard version == Self.supportedVersion else { throw .unsupportedVersion(version) }
    guard let encrypted = try envelope.string("encrypted") else {
      throw .notAVault(reason: "missing 'encrypted'")
    }
    let createdAt = try envelope.string("createdAt")
    let payload = try Fields(Array(encrypted.utf8), field: "encrypted")

    if let metadata = try payload.object("keyMetadata") {
      guard let algorithm = try metadata.string("algorithm") else {
        throw .notAVault(reason: "missing 'encrypted.keyMetadata.algorithm'")
      }
      guard algorithm == "PBKDF2" else { throw .unsupportedAlgorithm(Self.printable(algorithm)) }
      guard let count = try metadata.object("params")?.integer("iterations") else {
        throw .notAVault(reason: "missing 'encrypted.keyMetadata.params.iterations'")
      }
      iterations = count
    } else {
      iterations = Self.legacyIterations
    }
    guard Self.supportedIterations.contains(iterations) else {
      throw .unsupportedIterations(iterations)
    }

    let salt = try Self.base64(try payload.string("salt"), "salt")
    let iv = try Self.base64(try payload.string("iv"), "iv")
    let data = try Self.base64(try payload.string("data"), "data")
    guard !salt.isEmpty else { throw .notAVault(reason: "'encrypted.salt' is empty") }
    guard iv.count == Self.ivByteCount else {
      throw .notAVault(reason: "'encrypted.iv' must be \(Self.ivByteCount) bytes, got \(iv.count)")
    }
    let tagCount = AES.gcmTagByteCount
    guard data.count >= tagCount else {
      throw .notAVault(
        reason: "'encrypted.data' must be at least \(tagCount) bytes, got \(data.count)")
    }

    self.version = version
    self.createdAt = createdAt
    self.salt = salt
    self.iv = iv
    self.ciphertext = Array(data.dropLast(tagCount))
    self.tag = Array(data.suffix(tagCount))
  }

  /// A rough duration of `decryptMnemonic`, from the iteration count alone.
  public var estimatedDecryptionSeconds: Double {
    PBKDF2.estimatedSeconds(sha256Iterations: iterations)
  }

  /// The mnemonic text (UTF-8, exactly as stored) opened with `password`, the UTF-8 bytes of the
  /// vault password as typed (browser-passworder does not normalise it). Takes as long as
  /// `iterations` PBKDF2 rounds: about a second at desktop Freedom's 900,000.
  public func decryptMnemonic(password: SecureBytes) throws(DesktopVaultError) -> SecureBytes {
    let key = PBKDF2.hmacSHA256(
      password: password, salt: salt, iterations: iterations, keyByteCount: Self.keyByteCount)
    let plaintext: SecureBytes
    do {
      plaintext = try AES.gcm256Open(key: key, iv: iv, ciphertext: ciphertext, tag: tag)
    } catch CryptoError.authenticationFailed {
      throw .incorrectPassword
    } catch {
      throw .decryptionFailed(error)
    }
    guard let mnemonic = MnemonicPayload.mnemonic(in: plaintext) else { throw .noMnemonic }
    return mnemonic
  }

  // MARK: - Checking a password's key (a search over passwords)

  /// The PBKDF2 salt, for deriving many candidates' keys in one batch.
  package var keySalt: [UInt8] { salt }

  /// Whether `key`, PBKDF2-HMAC-SHA256(password, `keySalt`, `iterations`, 32 bytes), opens the
  /// vault: the AES-256-GCM tag verifies (a wrong key passes with probability 2^-128).
  package func isKey(_ key: SecureBytes) -> Bool {
    (try? AES.gcm256Open(key: key, iv: iv, ciphertext: ciphertext, tag: tag)) != nil
  }

  // MARK: - The JSON around the ciphertext (nothing secret)

  /// One JSON object of the vault (the file, `encrypted`, or an object inside it) read with the
  /// package's strict reader; a member that is absent or `null` reads as nil, as browser-passworder
  /// treats it.
  private struct Fields {
    let bytes: [UInt8]
    let node: JSONNode
    /// The dotted path of this object for messages (`encrypted.keyMetadata`); nil for the file.
    let path: String?

    init(_ bytes: [UInt8], field: String?) throws(DesktopVaultError) {
      let whole = field.map { "'\($0)'" } ?? "the content"
      let parsed: Result<JSONNode, JSONSyntaxError> = bytes.withUnsafeBytes { raw in
        do throws(JSONSyntaxError) {
          return .success(try JSONText.parse(raw))
        } catch {
          return .failure(error)
        }
      }
      switch parsed {
      case .success(let node):
        guard node.isObject else { throw .notAVault(reason: "\(whole) is not a JSON object") }
        self.init(bytes: bytes, node: node, path: field)
      case .failure(let error):
        let subject = field.map { "'\($0)' is not" } ?? "not"
        throw .notAVault(reason: "\(subject) valid JSON (\(error))")
      }
    }

    private init(bytes: [UInt8], node: JSONNode, path: String?) {
      self.bytes = bytes
      self.node = node
      self.path = path
    }

    private func name(_ key: String) -> String { path.map { "\($0).\(key)" } ?? key }

    /// The member `key` unless it is absent or null.
    private func value(_ key: String) -> JSONNode? {
      guard let member = node.member(exactly: key) else { return nil }
      if case .null = member.value.kind { return nil }
      return member.value
    }

    private func wrongType(_ key: String) -> DesktopVaultError {
      .notAVault(reason: "'\(name(key))' has the wrong type")
    }

    func string(_ key: String) throws(DesktopVaultError) -> String? {
      guard let value = value(key) else { return nil }
      guard value.isString else { throw wrongType(key) }
      return bytes.withUnsafeBytes { JSONText.string(value, in: $0) }
    }

    func object(_ key: String) throws(DesktopVaultError) -> Fields? {
      guard let value = value(key) else { return nil }
      guard value.isObject else { throw wrongType(key) }
      return Fields(bytes: bytes, node: value, path: name(key))
    }

    /// A whole number written without fraction or exponent that fits in `Int`.
    func integer(_ key: String) throws(DesktopVaultError) -> Int? {
      guard let value = value(key) else { return nil }
      guard case .number = value.kind else { throw wrongType(key) }
      let text = bytes.withUnsafeBytes { JSONText.text(value, in: $0) }
      guard let number = Int(text) else {
        throw .notAVault(reason: "'\(name(key))' is not a whole number in range")
      }
      return number
    }
  }

  private static func base64(_ text: String?, _ name: String) throws(DesktopVaultError) -> [UInt8] {
    guard let text else { throw .notAVault(reason: "missing 'encrypted.\(name)'") }
    guard let data = Data(base64Encoded: text) else {
      throw .notAVault(reason: "'encrypted.\(name)' is not base64")
    }
    return Array(data)
  }

  /// A file-supplied name made safe for a one-line message.
  private static func printable(_ name: String) -> String {
    let safe = name.unicodeScalars.prefix(32).map {
      (0x20..<0x7f).contains($0.value) ? Character($0) : "?"
    }
    return String(safe) + (name.unicodeScalars.count > 32 ? "…" : "")
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

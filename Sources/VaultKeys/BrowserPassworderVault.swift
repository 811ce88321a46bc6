import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What @metamask/browser-passworder's `encrypt` returns, the sealed object that desktop
/// Freedom's identity vault and MetaMask's KeyringController vault both hold:
/// `{"data", "iv", "keyMetadata"?, "salt"}`, where key = PBKDF2-HMAC-SHA256(UTF-8 password,
/// salt, iterations, 32 bytes) (10,000 iterations when `keyMetadata` is absent, as before
/// browser-passworder 4.2), `data` = AES-256-GCM ciphertext ‖ 16-byte tag under the 16-byte
/// `iv` with no associated data. Every binary field is standard base64. Parsing checks the
/// shape; only `open` touches a secret.
package struct BrowserPassworderVault: Sendable {
  /// The iteration counts accepted: any real vault, without letting a file stall the tool.
  package static let supportedIterations = 1...10_000_000
  /// The iteration count of vaults without `keyMetadata` (browser-passworder before 4.2).
  package static let legacyIterations = 10_000
  /// The byte length of the AES-GCM IV browser-passworder generates.
  package static let ivByteCount = 16
  static let keyByteCount = 32

  /// The PBKDF2-HMAC-SHA256 iteration count.
  package let iterations: Int
  private let salt: [UInt8]
  private let iv: [UInt8]
  private let ciphertext: [UInt8]
  private let tag: [UInt8]

  /// Reads the sealed object `fields`; a reason names the field (below `fields.path`) that is
  /// wrong.
  init(_ fields: VaultJSONFields) throws(VaultFormatError) {
    if let metadata = try fields.object("keyMetadata") {
      guard let algorithm = try metadata.string("algorithm") else {
        throw .notAVault(reason: "missing '\(metadata.name("algorithm"))'")
      }
      guard algorithm == "PBKDF2" else { throw .unsupportedAlgorithm(Self.printable(algorithm)) }
      guard let count = try metadata.object("params")?.integer("iterations") else {
        throw .notAVault(reason: "missing '\(metadata.name("params")).iterations'")
      }
      iterations = count
    } else {
      iterations = Self.legacyIterations
    }
    guard Self.supportedIterations.contains(iterations) else {
      throw .unsupportedIterations(iterations)
    }

    let salt = try Self.base64(fields, "salt")
    let iv = try Self.base64(fields, "iv")
    let data = try Self.base64(fields, "data")
    guard !salt.isEmpty else { throw .notAVault(reason: "'\(fields.name("salt"))' is empty") }
    guard iv.count == Self.ivByteCount else {
      throw .notAVault(
        reason: "'\(fields.name("iv"))' must be \(Self.ivByteCount) bytes, got \(iv.count)")
    }
    let tagCount = AES.gcmTagByteCount
    guard data.count >= tagCount else {
      throw .notAVault(
        reason: "'\(fields.name("data"))' must be at least \(tagCount) bytes, got \(data.count)")
    }
    self.salt = salt
    self.iv = iv
    self.ciphertext = Array(data.dropLast(tagCount))
    self.tag = Array(data.suffix(tagCount))
  }

  /// A rough duration of `open`, from the iteration count alone.
  var estimatedOpeningSeconds: Double {
    PBKDF2.estimatedSeconds(sha256Iterations: iterations)
  }

  /// The plaintext, opened with `password` (the UTF-8 bytes as typed: browser-passworder does
  /// not normalise it). Takes as long as `iterations` PBKDF2 rounds. A wrong password (or
  /// altered data) throws `incorrect`; another failure of the cipher, `failed`'s error.
  func open<Failure: Error>(
    password: SecureBytes, incorrect: Failure, failed: (CryptoError) -> Failure
  ) throws(Failure) -> SecureBytes {
    let key = PBKDF2.hmacSHA256(
      password: password, salt: salt, iterations: iterations, keyByteCount: Self.keyByteCount)
    do {
      return try AES.gcm256Open(key: key, iv: iv, ciphertext: ciphertext, tag: tag)
    } catch .authenticationFailed {
      throw incorrect
    } catch {
      throw failed(error)
    }
  }

  /// The PBKDF2 salt, for deriving many candidates' keys in one batch.
  package var keySalt: [UInt8] { salt }

  /// Whether `key`, PBKDF2-HMAC-SHA256(password, `keySalt`, `iterations`, 32 bytes), opens the
  /// vault: the AES-256-GCM tag verifies (a wrong key passes with probability 2^-128).
  package func isKey(_ key: SecureBytes) -> Bool {
    (try? AES.gcm256Open(key: key, iv: iv, ciphertext: ciphertext, tag: tag)) != nil
  }

  private static func base64(_ fields: VaultJSONFields, _ key: String) throws(VaultFormatError)
    -> [UInt8]
  {
    guard let text = try fields.string(key) else {
      throw .notAVault(reason: "missing '\(fields.name(key))'")
    }
    guard let data = Data(base64Encoded: text) else {
      throw .notAVault(reason: "'\(fields.name(key))' is not base64")
    }
    return Array(data)
  }

  /// A file-supplied name made safe for a one-line message.
  static func printable(_ name: String) -> String {
    let safe = name.unicodeScalars.prefix(32).map {
      (0x20..<0x7f).contains($0.value) ? Character($0) : "?"
    }
    return String(safe) + (name.unicodeScalars.count > 32 ? "…" : "")
  }
}

/// Why a browser-passworder vault's JSON is not one this reader takes (each vault type words it).
enum VaultFormatError: Error {
  /// The shape is wrong; the reason names the field.
  case notAVault(reason: String)
  /// The key derivation is not PBKDF2 (the name made printable).
  case unsupportedAlgorithm(String)
  /// The iteration count is outside `supportedIterations`.
  case unsupportedIterations(Int)
}

/// One JSON object of a vault read with the package's strict reader; a member that is absent or
/// `null` reads as nil, as browser-passworder treats it.
struct VaultJSONFields {
  let bytes: [UInt8]
  let node: JSONNode
  /// The dotted path of this object for messages (`encrypted.keyMetadata`); nil for the file.
  let path: String?

  /// The object `bytes` holds; `field` names it in messages (nil: the whole content).
  init(_ bytes: [UInt8], field: String?) throws(VaultFormatError) {
    let node = try Self.parse(bytes, field: field)
    let whole = field.map { "'\($0)'" } ?? "the content"
    guard node.isObject else { throw .notAVault(reason: "\(whole) is not a JSON object") }
    self.init(bytes: bytes, node: node, path: field)
  }

  init(bytes: [UInt8], node: JSONNode, path: String?) {
    self.bytes = bytes
    self.node = node
    self.path = path
  }

  /// Any JSON value `bytes` holds; `field` names it in messages.
  static func parse(_ bytes: [UInt8], field: String?) throws(VaultFormatError) -> JSONNode {
    let parsed: Result<JSONNode, JSONSyntaxError> = bytes.withUnsafeBytes { raw in
      do throws(JSONSyntaxError) {
        return .success(try JSONText.parse(raw))
      } catch {
        return .failure(error)
      }
    }
    switch parsed {
    case .success(let node): return node
    case .failure(let error):
      let subject = field.map { "'\($0)' is not" } ?? "not"
      throw .notAVault(reason: "\(subject) valid JSON (\(error))")
    }
  }

  /// The member's dotted name for messages.
  func name(_ key: String) -> String { path.map { "\($0).\(key)" } ?? key }

  /// The member `key` unless it is absent or null.
  func value(_ key: String) -> JSONNode? {
    guard let member = node.member(exactly: key) else { return nil }
    if case .null = member.value.kind { return nil }
    return member.value
  }

  private func wrongType(_ key: String) -> VaultFormatError {
    .notAVault(reason: "'\(name(key))' has the wrong type")
  }

  func string(_ key: String) throws(VaultFormatError) -> String? {
    guard let value = value(key) else { return nil }
    guard value.isString else { throw wrongType(key) }
    return bytes.withUnsafeBytes { JSONText.string(value, in: $0) }
  }

  func object(_ key: String) throws(VaultFormatError) -> VaultJSONFields? {
    guard let value = value(key) else { return nil }
    guard value.isObject else { throw wrongType(key) }
    return VaultJSONFields(bytes: bytes, node: value, path: name(key))
  }

  /// A whole number written without fraction or exponent that fits in `Int`.
  func integer(_ key: String) throws(VaultFormatError) -> Int? {
    guard let value = value(key) else { return nil }
    guard case .number = value.kind else { throw wrongType(key) }
    let text = bytes.withUnsafeBytes { JSONText.text(value, in: $0) }
    guard let number = Int(text) else {
      throw .notAVault(reason: "'\(name(key))' is not a whole number in range")
    }
    return number
  }
}

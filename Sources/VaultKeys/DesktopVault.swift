import CryptoPrimitives
import Foundation

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
  public init(json: [UInt8]) throws(DesktopVaultError) {
    guard json.count <= Self.maxByteCount else {
      throw .notAVault(reason: "the file is larger than 1 MiB")
    }
    let envelope = try Self.decode(Envelope.self, from: json, field: nil)
    guard let version = envelope.version else { throw .notAVault(reason: "missing 'version'") }
    guard version == Self.supportedVersion else { throw .unsupportedVersion(version) }
    guard let encrypted = envelope.encrypted else {
      throw .notAVault(reason: "missing 'encrypted'")
    }
    let payload = try Self.decode(Payload.self, from: Array(encrypted.utf8), field: "encrypted")

    if let metadata = payload.keyMetadata {
      guard let algorithm = metadata.algorithm else {
        throw .notAVault(reason: "missing 'encrypted.keyMetadata.algorithm'")
      }
      guard algorithm == "PBKDF2" else { throw .unsupportedAlgorithm(Self.printable(algorithm)) }
      guard let count = metadata.params?.iterations else {
        throw .notAVault(reason: "missing 'encrypted.keyMetadata.params.iterations'")
      }
      iterations = count
    } else {
      iterations = Self.legacyIterations
    }
    guard Self.supportedIterations.contains(iterations) else {
      throw .unsupportedIterations(iterations)
    }

    let salt = try Self.base64(payload.salt, "salt")
    let iv = try Self.base64(payload.iv, "iv")
    let data = try Self.base64(payload.data, "data")
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
    self.createdAt = envelope.createdAt
    self.salt = salt
    self.iv = iv
    self.ciphertext = Array(data.dropLast(tagCount))
    self.tag = Array(data.suffix(tagCount))
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

  // MARK: - The JSON around the ciphertext (nothing secret)

  private struct Envelope: Decodable {
    let version: Int?
    let encrypted: String?
    let createdAt: String?
  }

  private struct Payload: Decodable {
    let data: String?
    let iv: String?
    let salt: String?
    let keyMetadata: KeyMetadata?
  }

  private struct KeyMetadata: Decodable {
    struct Params: Decodable { let iterations: Int? }
    let algorithm: String?
    let params: Params?
  }

  /// Decodes `T`, turning decoder failures into a reason that names the field (`field` prefixes
  /// the path when decoding the inner JSON).
  private static func decode<T: Decodable>(_: T.Type, from bytes: [UInt8], field: String?)
    throws(DesktopVaultError) -> T
  {
    let data = Data(bytes)
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch DecodingError.dataCorrupted(let context)
      where context.codingPath.isEmpty
      && (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
    {
      // Foundation reports a fractional or huge integer as invalid JSON, without its path.
      throw .notAVault(
        reason:
          "\(field.map { "'\($0)'" } ?? "the content") holds a number that is not a whole number in range"
      )
    } catch let error as DecodingError {
      throw .notAVault(reason: reason(error, field: field))
    } catch {
      throw .notAVault(reason: field.map { "'\($0)' is not valid JSON" } ?? "not valid JSON")
    }
  }

  private static func reason(_ error: DecodingError, field: String?) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      ([field].compactMap { $0 } + keys.map(\.stringValue)).joined(separator: ".")
    }
    let whole = field.map { "'\($0)'" } ?? "the content"
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return field.map { "'\($0)' is not valid JSON" } ?? "not valid JSON"
    case .typeMismatch(_, let context) where context.codingPath.isEmpty:
      return "\(whole) is not a JSON object"
    case .typeMismatch(_, let context):
      return "'\(path(context.codingPath))' has the wrong type"
    case .valueNotFound(_, let context):
      return "'\(path(context.codingPath))' is null"
    case .keyNotFound(let key, let context):
      return "missing '\(path(context.codingPath + [key]))'"
    case .dataCorrupted(let context):
      return "'\(path(context.codingPath))' has an invalid value"
    @unknown default:
      return "\(whole) has an unexpected shape"
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

/// Reads the mnemonic out of the decrypted `{"mnemonic": "…"}` without ever holding it in a
/// `String`: a small JSON scanner over the secret bytes that copies only the unescaped value,
/// straight into a `SecureBytes`.
private enum MnemonicPayload {
  /// The unescaped UTF-8 value of the top-level `mnemonic` member (the last one, as
  /// `JSON.parse` keeps), or nil if the plaintext is not a JSON object with a non-empty one.
  static func mnemonic(in plaintext: SecureBytes) -> SecureBytes? {
    plaintext.withUnsafeBytes { bytes -> SecureBytes? in
      var scanner = Scanner(bytes: bytes)
      guard let range = scanner.mnemonicRange(),
        let count = unescape(bytes, range, into: nil), count > 0
      else { return nil }
      return SecureBytes(count: count) { _ = unescape(bytes, range, into: $0) }
    }
  }

  private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    private static let maxDepth = 32
    private static let key = Array("mnemonic".utf8)

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The raw content range (between the quotes) of the mnemonic string.
    mutating func mnemonicRange() -> Range<Int>? {
      var found: Range<Int>?
      skipWhitespace()
      guard take(UInt8(ascii: "{")) else { return nil }
      skipWhitespace()
      if !take(UInt8(ascii: "}")) {
        repeat {
          skipWhitespace()
          guard let keyRange = string() else { return nil }
          skipWhitespace()
          guard take(UInt8(ascii: ":")) else { return nil }
          skipWhitespace()
          if isKey(keyRange) {
            guard let value = string() else { return nil }
            found = value
          } else {
            guard skipValue(depth: 0) else { return nil }
          }
          skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
      }
      skipWhitespace()
      return index == bytes.count ? found : nil
    }

    /// Whether the key string is `mnemonic`, escapes decoded (the key is not secret).
    private func isKey(_ range: Range<Int>) -> Bool {
      guard let count = unescape(bytes, range, into: nil), count == Self.key.count else {
        return false
      }
      var decoded = [UInt8](repeating: 0, count: count)
      _ = decoded.withUnsafeMutableBytes { unescape(bytes, range, into: $0) }
      return decoded == Self.key
    }

    private mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    /// A string at `index`: its raw content range; escapes are checked later by `unescape`.
    private mutating func string() -> Range<Int>? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = index
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          defer { index += 1 }
          return start..<index
        case UInt8(ascii: "\\"): index += 2
        case 0..<0x20: return nil  // JSON forbids raw control characters in strings
        default: index += 1
        }
      }
      return nil
    }

    /// Moves past any JSON value (structure checked loosely: it is never used).
    private mutating func skipValue(depth: Int) -> Bool {
      guard depth < Self.maxDepth, index < bytes.count else { return false }
      switch bytes[index] {
      case UInt8(ascii: "\""):
        return string() != nil
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if take(close) { return true }
        repeat {
          skipWhitespace()
          if close == UInt8(ascii: "}") {
            guard string() != nil else { return false }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
          }
          guard skipValue(depth: depth + 1) else { return false }
          skipWhitespace()
        } while take(UInt8(ascii: ","))
        return take(close)
      default:  // number, true, false, null
        let start = index
        while index < bytes.count,
          bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
            || bytes[index] == UInt8(ascii: ".") || (0x30...0x39).contains(bytes[index])
            || (0x61...0x7a).contains(bytes[index]) || bytes[index] == UInt8(ascii: "E")
        {
          index += 1
        }
        return index > start
      }
    }
  }

  /// Decodes the JSON string content `bytes[range]` to UTF-8, writing into `out` when given.
  /// Returns the decoded byte count, or nil for a bad escape or a lone surrogate.
  static func unescape(
    _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, into out: UnsafeMutableRawBufferPointer?
  ) -> Int? {
    var count = 0
    func emit(_ byte: UInt8) {
      out?[count] = byte
      count += 1
    }
    func hex4(_ at: Int) -> UInt32? {
      guard at + 4 <= range.upperBound else { return nil }
      var value: UInt32 = 0
      for byte in bytes[at..<at + 4] {
        let digit: UInt8
        switch byte {
        case 0x30...0x39: digit = byte - 0x30
        case 0x41...0x46: digit = byte - 0x41 + 10
        case 0x61...0x66: digit = byte - 0x61 + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }

    var i = range.lowerBound
    while i < range.upperBound {
      let byte = bytes[i]
      guard byte == UInt8(ascii: "\\") else {
        emit(byte)
        i += 1
        continue
      }
      guard i + 1 < range.upperBound else { return nil }
      let simple: UInt8?
      switch bytes[i + 1] {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = bytes[i + 1]
      case UInt8(ascii: "b"): simple = 0x08
      case UInt8(ascii: "f"): simple = 0x0c
      case UInt8(ascii: "n"): simple = 0x0a
      case UInt8(ascii: "r"): simple = 0x0d
      case UInt8(ascii: "t"): simple = 0x09
      case UInt8(ascii: "u"): simple = nil
      default: return nil
      }
      if let simple {
        emit(simple)
        i += 2
        continue
      }
      guard var scalar = hex4(i + 2) else { return nil }
      i += 6
      if (0xd800...0xdbff).contains(scalar) {
        guard i + 1 < range.upperBound, bytes[i] == UInt8(ascii: "\\"),
          bytes[i + 1] == UInt8(ascii: "u"),
          let low = hex4(i + 2), (0xdc00...0xdfff).contains(low)
        else { return nil }
        scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
        i += 6
      } else if (0xdc00...0xdfff).contains(scalar) {
        return nil
      }
      // UTF-8 by hand: Unicode.Scalar's encoders would copy the secret through temporaries.
      switch scalar {
      case 0..<0x80:
        emit(UInt8(scalar))
      case 0x80..<0x800:
        emit(UInt8(0xc0 | scalar >> 6))
        emit(UInt8(0x80 | scalar & 0x3f))
      case 0x800..<0x10000:
        emit(UInt8(0xe0 | scalar >> 12))
        emit(UInt8(0x80 | scalar >> 6 & 0x3f))
        emit(UInt8(0x80 | scalar & 0x3f))
      default:
        emit(UInt8(0xf0 | scalar >> 18))
        emit(UInt8(0x80 | scalar >> 12 & 0x3f))
        emit(UInt8(0x80 | scalar >> 6 & 0x3f))
        emit(UInt8(0x80 | scalar & 0x3f))
      }
    }
    return count
  }
}

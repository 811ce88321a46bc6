import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writing `identity-vault.json` exactly as desktop Freedom's `identity/vault.js` does
/// (`saveVault`): `JSON.stringify({version: 1, encrypted, createdAt}, null, 2)` with no final
/// newline, where `encrypted` is what @metamask/browser-passworder 6's `encrypt(password,
/// {mnemonic})` returns — the compact JSON string
/// `{"data":…,"iv":…,"keyMetadata":{"algorithm":"PBKDF2","params":{"iterations":900000}},"salt":…}`
/// (members in that order): a 32-byte random salt and a 16-byte random IV (standard base64),
/// key = PBKDF2-HMAC-SHA256(UTF-8 password, salt, 900,000, 32 bytes), data = base64 of
/// AES-256-GCM(key, iv, `{"mnemonic":"…"}`, no associated data) ciphertext ‖ 16-byte tag.
extension DesktopVault {
  /// The PBKDF2 iteration count browser-passworder 6 uses (its `DEFAULT_DERIVATION_PARAMS`).
  public static let desktopIterations = 900_000
  /// The salt length browser-passworder's `generateSalt()` draws.
  public static let saltByteCount = 32
  /// The shortest vault password desktop Freedom accepts, in JavaScript string length (UTF-16
  /// code units): `saveVault` refuses `password.length < 8`.
  public static let minimumPasswordLength = 8

  /// The bytes of an `identity-vault.json` holding `mnemonic` (the phrase's UTF-8 text, as
  /// desktop stores it) under `password` (UTF-8, used exactly as given, as browser-passworder
  /// does). `iterations` other than 900,000 are for tests only: desktop always writes 900,000.
  public static func encrypt(
    mnemonic: SecureBytes, password: SecureBytes, createdAt: Date = Date(),
    iterations: Int = desktopIterations
  ) throws(DesktopVaultEncryptionError) -> [UInt8] {
    try encrypt(
      mnemonic: mnemonic, password: password, createdAt: createdAt, iterations: iterations,
      salt: SecureRandom.bytes(count: saltByteCount), iv: SecureRandom.bytes(count: ivByteCount))
  }

  /// The same with a given salt and IV, to reproduce a fixture byte for byte. Never reuse an
  /// IV with the same key: use `encrypt(mnemonic:password:createdAt:iterations:)` for real vaults.
  public static func encrypt(
    mnemonic: SecureBytes, password: SecureBytes, createdAt: Date, iterations: Int,
    salt: [UInt8], iv: [UInt8]
  ) throws(DesktopVaultEncryptionError) -> [UInt8] {
    guard let length = javaScriptLength(password) else { throw .passwordNotUTF8 }
    guard length >= minimumPasswordLength else { throw .passwordTooShort(length) }
    guard javaScriptLength(mnemonic) != nil else { throw .mnemonicNotUTF8 }
    guard supportedIterations.contains(iterations) else { throw .unsupportedIterations(iterations) }

    guard salt.count == saltByteCount, iv.count == ivByteCount else {
      throw .invalidSaltOrIV
    }
    let key = PBKDF2.hmacSHA256(
      password: password, salt: salt, iterations: iterations, keyByteCount: 32)
    let sealed: [UInt8]
    do {
      sealed = try AES.gcm256Seal(key: key, iv: iv, plaintext: plaintext(mnemonic))
    } catch {
      throw .cipherFailed(error)
    }
    let encrypted =
      "{\"data\":\"\(Data(sealed).base64EncodedString())\",\"iv\":\"\(Data(iv).base64EncodedString())\","
      + "\"keyMetadata\":{\"algorithm\":\"PBKDF2\",\"params\":{\"iterations\":\(iterations)}},"
      + "\"salt\":\"\(Data(salt).base64EncodedString())\"}"
    let file =
      "{\n  \"version\": \(supportedVersion),\n  \"encrypted\": \(javaScriptQuoted(encrypted)),\n"
      + "  \"createdAt\": \"\(isoTimestamp(createdAt))\"\n}"
    return Array(file.utf8)
  }

  /// `date` as JavaScript's `Date.prototype.toISOString()` writes it: UTC, whole milliseconds
  /// (rounded down, as a JavaScript date holds them), `2026-12-01T08:12:43.123Z`; years outside
  /// 0…9999 as `±YYYYYY`.
  public static func isoTimestamp(_ date: Date) -> String {
    // A date made from whole milliseconds can come back a hair below them (`Date` counts
    // seconds from 2001 in a Double); within a microsecond it is that millisecond.
    let exact = date.timeIntervalSince1970 * 1000
    let below = exact.rounded(.down)
    let milliseconds = Int64(exact - below > 0.999 ? below + 1 : below)
    let dayMilliseconds: Int64 = 86_400_000
    let days =
      milliseconds >= 0 ? milliseconds / dayMilliseconds : (milliseconds + 1) / dayMilliseconds - 1
    let time = milliseconds - days * dayMilliseconds
    // Days since 1970-01-01 to a proleptic Gregorian date (Hinnant's civil_from_days).
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func padded(_ value: Int64, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let yearText =
      (0...9999).contains(year) ? padded(year, 4) : (year < 0 ? "-" : "+") + padded(abs(year), 6)
    return yearText + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
      + padded(time / 3_600_000, 2) + ":" + padded(time / 60_000 % 60, 2) + ":"
      + padded(time / 1000 % 60, 2) + "." + padded(time % 1000, 3) + "Z"
  }

  /// The JavaScript `length` of UTF-8 `text` (UTF-16 code units), or nil when it is not UTF-8.
  public static func javaScriptLength(_ text: SecureBytes) -> Int? {
    text.withUnsafeBytes { raw -> Int? in
      var iterator = raw.makeIterator()
      var decoder = UTF8()
      var units = 0
      while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): units += scalar.value > 0xFFFF ? 2 : 1
        case .emptyInput: return units
        case .error: return nil
        }
      }
    }
  }

  /// `{"mnemonic":"…"}` as `JSON.stringify` writes it, built inside the zeroizing buffer.
  private static func plaintext(_ mnemonic: SecureBytes) -> SecureBytes {
    let opening = Array("{\"mnemonic\":\"".utf8)
    let closing = Array("\"}".utf8)
    let escapedCount = mnemonic.withUnsafeBytes { raw in
      raw.reduce(0) { $0 + escaped($1).count }
    }
    return SecureBytes(count: opening.count + escapedCount + closing.count) { out in
      var cursor = SecureByteCursor(out)
      cursor.append(opening)
      mnemonic.withUnsafeBytes { raw in
        for byte in raw { cursor.append(escaped(byte)) }
      }
      cursor.append(closing)
    }
  }

  /// One UTF-8 byte as `JSON.stringify` writes it inside a string (multi-byte characters are
  /// written as they are).
  private static func escaped(_ byte: UInt8) -> [UInt8] {
    switch byte {
    case UInt8(ascii: "\""): return Array("\\\"".utf8)
    case UInt8(ascii: "\\"): return Array("\\\\".utf8)
    case 0x08: return Array("\\b".utf8)
    case 0x09: return Array("\\t".utf8)
    case 0x0A: return Array("\\n".utf8)
    case 0x0C: return Array("\\f".utf8)
    case 0x0D: return Array("\\r".utf8)
    case 0..<0x20:
      let hex = Array("0123456789abcdef".utf8)
      return Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    default: return [byte]
    }
  }

  /// A non-secret string as a `JSON.stringify` string literal.
  private static func javaScriptQuoted(_ text: String) -> String {
    "\"" + String(decoding: text.utf8.flatMap(escaped), as: UTF8.self) + "\""
  }
}

/// Why an identity vault could not be written. Never holds the password or the mnemonic.
public enum DesktopVaultEncryptionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The password is shorter than desktop Freedom's minimum of 8 characters.
  case passwordTooShort(Int)
  /// The password is not UTF-8 text, so no one could type it into desktop Freedom.
  case passwordNotUTF8
  /// The mnemonic is not UTF-8 text.
  case mnemonicNotUTF8
  /// The iteration count is outside 1…10,000,000.
  case unsupportedIterations(Int)
  /// A given salt is not 32 bytes or an IV not 16.
  case invalidSaltOrIV
  /// The cipher library failed.
  case cipherFailed(CryptoError)

  public var description: String {
    switch self {
    case .passwordTooShort(let length):
      "the vault password has \(length) characters; desktop Freedom requires at least "
        + "\(DesktopVault.minimumPasswordLength)"
    case .passwordNotUTF8: "the vault password is not valid UTF-8 text"
    case .mnemonicNotUTF8: "the mnemonic is not valid UTF-8 text"
    case .unsupportedIterations(let count):
      "unsupported PBKDF2 iteration count \(count) (desktop Freedom uses 900,000)"
    case .invalidSaltOrIV: "a vault needs a 32-byte salt and a 16-byte IV"
    case .cipherFailed(let error): "vault encryption failed: \(error)"
    }
  }
}

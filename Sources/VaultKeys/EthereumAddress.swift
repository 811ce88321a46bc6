import CryptoPrimitives

/// An Ethereum (and Swarm/bee) account address: the last 20 bytes of the Keccak-256 digest of
/// an uncompressed secp256k1 public key, written with the EIP-55 mixed-case checksum.
public struct EthereumAddress: Sendable, Hashable, CustomStringConvertible {
  /// The byte length of an address.
  public static let byteCount = 20
  /// The number of hex digits of an address, without `0x`.
  static let hexDigitCount = 2 * byteCount

  /// The 20 address bytes.
  public let rawRepresentation: [UInt8]

  /// The address of `publicKey`: Keccak-256 of its 64-byte point (X ‖ Y, without the `04`
  /// SEC1 prefix), last 20 bytes.
  public init(publicKey: Secp256k1.PublicKey) {
    let digest = Keccak256.hash(publicKey.uncompressedRepresentation.dropFirst())
    rawRepresentation = Array(digest.suffix(Self.byteCount))
  }

  /// The address whose bytes are `rawRepresentation` (exactly 20).
  public init(rawRepresentation: [UInt8]) throws(AddressError) {
    guard rawRepresentation.count == Self.byteCount else {
      throw .wrongByteCount(rawRepresentation.count)
    }
    self.rawRepresentation = rawRepresentation
  }

  /// The address written in `text`: 40 hex digits, with or without `0x`. All-lowercase and
  /// all-uppercase digits are taken as they are; mixed case must be the EIP-55 checksum.
  public init(_ text: String) throws(AddressError) {
    var digits = Substring(text)
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
    guard digits.utf8.count == Self.hexDigitCount else {
      throw .wrongDigitCount(digits.utf8.count)
    }
    // The count check also catches a second "0x", which Hex.decode would skip.
    guard let bytes = Hex.decode(digits), bytes.count == Self.byteCount else { throw .notHex }
    self.rawRepresentation = bytes
    let hasLower = digits.utf8.contains { (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    let hasUpper = digits.utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) }
    if hasLower && hasUpper && Substring(eip55Digits) != digits {
      throw .badChecksum(text)
    }
  }

  /// `0x` followed by the EIP-55 checksummed digits.
  public var checksummed: String { "0x" + eip55Digits }

  /// The 40 lowercase hex digits without `0x`, as bee's keystore `address` field holds them.
  public var lowercaseHex: String { Hex.encode(rawRepresentation) }

  public var description: String { checksummed }

  /// EIP-55: hex digit i is upper-cased when it is a letter and nibble i of
  /// Keccak-256(the lowercase hex text) is 8 or more. Built in one byte array: no string is
  /// made until the result.
  private var eip55Digits: String {
    var digits = [UInt8](repeating: 0, count: Self.hexDigitCount)
    for (i, byte) in rawRepresentation.enumerated() {
      digits[2 * i] = Self.lowercaseDigit(byte >> 4)
      digits[2 * i + 1] = Self.lowercaseDigit(byte & 0x0f)
    }
    let digest = Keccak256.hash(digits)
    for i in digits.indices where digits[i] >= UInt8(ascii: "a") {
      let nibble = i % 2 == 0 ? digest[i / 2] >> 4 : digest[i / 2] & 0x0f
      if nibble >= 8 { digits[i] -= 32 }
    }
    return String(decoding: digits, as: UTF8.self)
  }

  private static func lowercaseDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
  }
}

/// Why text or bytes are not an Ethereum address.
public enum AddressError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Raw address bytes were not 20 bytes long.
  case wrongByteCount(Int)
  /// The text did not have 40 hex digits after an optional `0x`.
  case wrongDigitCount(Int)
  /// The text had a character that is not a hex digit.
  case notHex
  /// The text mixed upper and lower case but not as its EIP-55 checksum: probably a typo.
  case badChecksum(String)

  public var description: String {
    switch self {
    case .wrongByteCount(let count):
      "an Ethereum address is 20 bytes, got \(count)"
    case .wrongDigitCount(let count):
      "an Ethereum address is 40 hex digits (optionally after 0x), got \(count) characters"
    case .notHex:
      "an Ethereum address may contain only hex digits 0-9 and a-f after 0x"
    case .badChecksum(let text):
      "the EIP-55 checksum (letter case) of \(text) is wrong: the address was probably "
        + "mistyped; copy it again from its source"
    }
  }
}

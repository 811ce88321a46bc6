import CryptoPrimitives

/// Appends bytes to a buffer of known size, for building files that hold a secret directly inside
/// a `SecureBytes` allocation instead of a growable array that leaves copies behind.
struct SecureByteCursor {
  let buffer: UnsafeMutableRawBufferPointer
  private(set) var offset = 0

  init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

  mutating func append(_ byte: UInt8) {
    buffer[offset] = byte
    offset += 1
  }

  mutating func append(_ bytes: some Sequence<UInt8>) {
    for byte in bytes { append(byte) }
  }

  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + bytes.count]).copyMemory(
      from: bytes)
    offset += bytes.count
  }

  mutating func append(_ bytes: SecureBytes) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// An RFC 4251 big-endian `uint32`.
  mutating func append(uint32 value: UInt32) {
    withUnsafeBytes(of: value.bigEndian) { append($0) }
  }

  /// Lowercase hex of `bytes`.
  mutating func appendHex(_ bytes: UnsafeRawBufferPointer) {
    let digits: StaticString = "0123456789abcdef"
    for byte in bytes {
      append(digits.utf8Start[Int(byte >> 4)])
      append(digits.utf8Start[Int(byte & 0x0F)])
    }
  }
}

/// Standard base64 (RFC 4648 §4, padded) that encodes into and decodes out of zeroizing buffers.
enum SecureBase64 {
  private static let alphabet: StaticString =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

  static func encodedCount(_ byteCount: Int) -> Int { (byteCount + 2) / 3 * 4 }

  /// Calls `emit` with each base64 character of `bytes`.
  static func encode(_ bytes: UnsafeRawBufferPointer, emit: (UInt8) -> Void) {
    let table = alphabet.utf8Start
    var i = 0
    while i < bytes.count {
      let remaining = bytes.count - i
      let b0 = UInt32(bytes[i])
      let b1 = remaining > 1 ? UInt32(bytes[i + 1]) : 0
      let b2 = remaining > 2 ? UInt32(bytes[i + 2]) : 0
      let triple = b0 << 16 | b1 << 8 | b2
      emit(table[Int(triple >> 18 & 63)])
      emit(table[Int(triple >> 12 & 63)])
      emit(remaining > 1 ? table[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
      emit(remaining > 2 ? table[Int(triple & 63)] : UInt8(ascii: "="))
      i += 3
    }
  }

  private static func value(of char: UInt8) -> UInt32? {
    switch char {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(char - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(char - UInt8(ascii: "a") + 26)
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(char - UInt8(ascii: "0") + 52)
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }

  /// True for the characters of the base64 alphabet and `=`.
  static func isBase64Character(_ char: UInt8) -> Bool {
    value(of: char) != nil || char == UInt8(ascii: "=")
  }

  /// The bytes of `text`, ignoring ASCII whitespace (PEM line breaks); nil unless it is
  /// canonical padded base64.
  static func decode(_ text: UnsafeRawBufferPointer) -> SecureBytes? {
    var characterCount = 0
    var padding = 0
    for char in text where !isWhitespace(char) {
      if char == UInt8(ascii: "=") {
        padding += 1
      } else {
        guard padding == 0, value(of: char) != nil else { return nil }
      }
      characterCount += 1
    }
    guard characterCount % 4 == 0, padding <= 2 else { return nil }
    let count = characterCount / 4 * 3 - padding
    var valid = true
    let decoded = SecureBytes(count: count) { out in
      var accumulator: UInt32 = 0
      var bits = 0
      var written = 0
      for char in text where !isWhitespace(char) && char != UInt8(ascii: "=") {
        accumulator = accumulator << 6 | value(of: char)!
        bits += 6
        if bits >= 8 {
          bits -= 8
          out[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
          written += 1
        }
      }
      // Canonical: the bits dropped at the end must be zero.
      if accumulator & ((1 << UInt32(bits)) - 1) != 0 { valid = false }
      accumulator = 0
    }
    return valid ? decoded : nil
  }

  static func isWhitespace(_ char: UInt8) -> Bool {
    char == 0x20 || char == 0x09 || char == 0x0A || char == 0x0D
  }
}

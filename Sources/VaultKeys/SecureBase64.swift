import CryptoPrimitives

/// Standard base64 (RFC 4648 §4, `+/`, `=` padding) from secret bytes to secret text and back,
/// so a private key's text form never sits in an ordinary `String` or array.
package enum SecureBase64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  /// The 6-bit value of each ASCII character, or -1.
  private static let values: [Int8] = {
    var table = [Int8](repeating: -1, count: 128)
    for (value, char) in alphabet.enumerated() { table[Int(char)] = Int8(value) }
    return table
  }()
  private static let pad = UInt8(ascii: "=")

  /// The padded base64 text (ASCII, hence UTF-8) of `data`.
  package static func encode(_ data: SecureBytes) -> SecureBytes {
    SecureBytes(count: (data.count + 2) / 3 * 4) { out in
      data.withUnsafeBytes { input in
        var o = 0
        for i in stride(from: 0, to: input.count, by: 3) {
          let available = min(3, input.count - i)
          var group: UInt32 = 0
          for j in 0..<3 { group = group << 8 | UInt32(j < available ? input[i + j] : 0) }
          for j in 0..<4 {
            out[o + j] = j <= available ? alphabet[Int(group >> (18 - 6 * j) & 0x3f)] : pad
          }
          o += 4
        }
      }
    }
  }

  /// The bytes of base64 `text`, or nil unless it is standard base64. ASCII whitespace is
  /// skipped (pasted text); padding may be present or left off, as long as it is consistent.
  package static func decode(_ text: SecureBytes) -> SecureBytes? {
    guard let byteCount = text.withUnsafeBytes(measure) else { return nil }
    return SecureBytes(count: byteCount) { out in
      text.withUnsafeBytes { input in
        var accumulator: UInt32 = 0
        var bits = 0
        var o = 0
        for char in input where char < 128 && values[Int(char)] >= 0 {
          accumulator = accumulator << 6 | UInt32(values[Int(char)])
          bits += 6
          if bits >= 8 {
            bits -= 8
            out[o] = UInt8(truncatingIfNeeded: accumulator >> bits)
            o += 1
          }
        }
      }
    }
  }

  /// The number of bytes `input` decodes to, or nil if it has a character outside the
  /// alphabet, misplaced padding or an impossible length. Like Go's `StdEncoding` (kubo's
  /// decoder), unused low bits of the last digit are not checked.
  private static func measure(_ input: UnsafeRawBufferPointer) -> Int? {
    var digits = 0
    var pads = 0
    for char in input {
      switch char {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        continue
      case pad:
        pads += 1
      default:
        // A digit after padding, or a character outside the alphabet.
        guard pads == 0, char < 128, values[Int(char)] >= 0 else { return nil }
        digits += 1
      }
    }
    let remainder = digits % 4
    // Padding, when present, completes the last group of four.
    guard remainder != 1, pads == 0 || (remainder > 0 && pads == 4 - remainder) else { return nil }
    return digits / 4 * 3 + max(remainder - 1, 0)
  }
}

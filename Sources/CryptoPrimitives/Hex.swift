/// Lowercase hexadecimal encoding and strict decoding.
public enum Hex {
  private static let digits = Array("0123456789abcdef".utf8)

  /// Lowercase hex of `bytes`, without a `0x` prefix.
  public static func encode(_ bytes: some Sequence<UInt8>) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of `string` (upper or lower case, an optional `0x` prefix); nil unless it is
  /// an even number of hex digits.
  public static func decode(_ string: some StringProtocol) -> [UInt8]? {
    var utf8 = Substring(string).utf8[...]
    if utf8.starts(with: "0x".utf8) || utf8.starts(with: "0X".utf8) { utf8 = utf8.dropFirst(2) }
    guard utf8.count % 2 == 0 else { return nil }
    var out = [UInt8]()
    out.reserveCapacity(utf8.count / 2)
    var high: UInt8?
    for char in utf8 {
      guard let nibble = value(of: char) else { return nil }
      if let h = high {
        out.append(h << 4 | nibble)
        high = nil
      } else {
        high = nibble
      }
    }
    return out
  }

  private static func value(of char: UInt8) -> UInt8? {
    switch char {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

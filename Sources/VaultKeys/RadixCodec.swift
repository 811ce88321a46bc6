/// Conversion between bytes (a big-endian number) and its digits in a radix up to 256, where
/// each leading zero byte is written as one leading zero digit — the convention shared by
/// base58btc and multibase base36, which plain positional notation would lose.
struct RadixCodec: Sendable {
  private let alphabet: [UInt8]
  /// The digit value of each ASCII character, or -1.
  private let values: [Int16]

  /// A codec whose digits are the ASCII characters of `alphabet`, in value order. With
  /// `caseInsensitive`, decoding also takes the other case of each letter.
  init(alphabet: String, caseInsensitive: Bool = false) {
    self.alphabet = Array(alphabet.utf8)
    precondition((2...256).contains(self.alphabet.count), "a radix alphabet has 2 to 256 digits")
    var values = [Int16](repeating: -1, count: 128)
    for (value, char) in self.alphabet.enumerated() {
      precondition(char < 128, "a radix alphabet is ASCII")
      values[Int(char)] = Int16(value)
      guard caseInsensitive else { continue }
      switch char {
      case UInt8(ascii: "a")...UInt8(ascii: "z"): values[Int(char - 32)] = Int16(value)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): values[Int(char + 32)] = Int16(value)
      default: break
      }
    }
    self.values = values
  }

  private var radix: Int { alphabet.count }

  /// The digits of `bytes`.
  func encode(_ bytes: some Collection<UInt8>) -> String {
    let zeros = bytes.prefix { $0 == 0 }.count
    // Little-endian digits of the number, grown as needed; each byte multiplies by 256.
    var digits = [UInt8]()
    // A digit carries at least floor(log2(radix)) bits.
    let bitsPerDigit = Int.bitWidth - radix.leadingZeroBitCount - 1
    digits.reserveCapacity(bytes.count * 8 / bitsPerDigit + 1)
    for byte in bytes.dropFirst(zeros) {
      var carry = Int(byte)
      for i in digits.indices {
        carry += Int(digits[i]) << 8
        digits[i] = UInt8(carry % radix)
        carry /= radix
      }
      while carry > 0 {
        digits.append(UInt8(carry % radix))
        carry /= radix
      }
    }
    let text =
      [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[Int($0)] }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of `text`, or nil if it has a character that is not a digit.
  func decode(_ text: some StringProtocol) -> [UInt8]? {
    var zeros = 0
    var leading = true
    var bytes = [UInt8]()  // little-endian base-256 digits
    for char in text.utf8 {
      guard char < 128, case let value = Int(values[Int(char)]), value >= 0 else { return nil }
      if leading, value == 0 {
        zeros += 1
        continue
      }
      leading = false
      var carry = value
      for i in bytes.indices {
        carry += Int(bytes[i]) * radix
        bytes[i] = UInt8(carry & 0xff)
        carry >>= 8
      }
      while carry > 0 {
        bytes.append(UInt8(carry & 0xff))
        carry >>= 8
      }
    }
    return [UInt8](repeating: 0, count: zeros) + bytes.reversed()
  }
}

import CryptoPrimitives

/// Base58 with Bitcoin's alphabet (base58btc), as used by BIP-32 keys, libp2p PeerIDs and
/// multibase `z` strings.
public enum Base58 {
  private static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
  private static let values: [Int8] = {
    var table = [Int8](repeating: -1, count: 128)
    for (value, char) in alphabet.enumerated() { table[Int(char)] = Int8(value) }
    return table
  }()

  /// The base58btc text of `bytes`; each leading zero byte becomes a leading `1`.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    let zeros = bytes.prefix { $0 == 0 }.count
    // Little-endian base-58 digits of the big-endian number, grown as needed.
    var digits = [UInt8]()
    digits.reserveCapacity(bytes.count * 138 / 100 + 1)
    for byte in bytes.dropFirst(zeros) {
      var carry = Int(byte)
      for i in digits.indices {
        carry += Int(digits[i]) << 8
        digits[i] = UInt8(carry % 58)
        carry /= 58
      }
      while carry > 0 {
        digits.append(UInt8(carry % 58))
        carry /= 58
      }
    }
    let text = [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[Int($0)] }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of base58btc `text`, or nil if it has a character outside the alphabet.
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    let chars = Array(text.utf8)
    let ones = chars.prefix { $0 == alphabet[0] }.count
    var bytes = [UInt8]()  // little-endian base-256 digits
    for char in chars.dropFirst(ones) {
      guard char < 128, values[Int(char)] >= 0 else { return nil }
      var carry = Int(values[Int(char)])
      for i in bytes.indices {
        carry += Int(bytes[i]) * 58
        bytes[i] = UInt8(carry & 0xff)
        carry >>= 8
      }
      while carry > 0 {
        bytes.append(UInt8(carry & 0xff))
        carry >>= 8
      }
    }
    return [UInt8](repeating: 0, count: ones) + bytes.reversed()
  }

  /// Base58Check: `payload` ‖ the first 4 bytes of SHA-256(SHA-256(payload)).
  public static func encodeCheck(_ payload: [UInt8]) -> String {
    encode(payload + checksum(payload))
  }

  /// The payload of Base58Check `text`, or nil if it is not base58 or its checksum is wrong.
  public static func decodeCheck(_ text: some StringProtocol) -> [UInt8]? {
    guard let bytes = decode(text), bytes.count >= 4 else { return nil }
    let payload = Array(bytes.dropLast(4))
    guard checksum(payload) == Array(bytes.suffix(4)) else { return nil }
    return payload
  }

  private static func checksum(_ payload: [UInt8]) -> [UInt8] {
    Array(SHA256.hash(SHA256.hash(payload)).prefix(4))
  }
}

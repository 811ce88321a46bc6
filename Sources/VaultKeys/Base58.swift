import CryptoPrimitives

/// Base58 with Bitcoin's alphabet (base58btc), as used by BIP-32 keys, libp2p PeerIDs and
/// multibase `z` strings.
public enum Base58 {
  private static let codec = RadixCodec(
    alphabet: "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")

  /// The base58btc text of `bytes`; each leading zero byte becomes a leading `1`.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    codec.encode(bytes)
  }

  /// The bytes of base58btc `text`, or nil if it has a character outside the alphabet.
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    codec.decode(text)
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

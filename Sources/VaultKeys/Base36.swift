/// Base36 with digits `0-9a-z` (multibase `base36`), as used by libp2p-key CIDs (IPNS names).
public enum Base36 {
  private static let codec = RadixCodec(
    alphabet: "0123456789abcdefghijklmnopqrstuvwxyz", caseInsensitive: true)

  /// The lowercase base36 text of `bytes`; each leading zero byte becomes a leading `0`.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    codec.encode(bytes)
  }

  /// The bytes of base36 `text` in either case, or nil if it has a character outside `0-9a-z`.
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    codec.decode(text)
  }
}

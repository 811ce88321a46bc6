#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HMAC of a hardened child, one rule for BIP-32 and SLIP-0010 and for the CPU reference of
/// the OpenCL chain: `I = HMAC-SHA512(chainCode, 0x00 ‖ ser256(k) ‖ ser32(i))`.
public enum HardenedChild {
  /// The byte length of the message: 0x00, the 32-byte private key, the 4-byte index.
  public static let messageByteCount = 37

  /// `I` for the child `rawIndex` (2^31 set) of the node with `privateKey` and `chainCode`. The
  /// message is written into `message` (`messageByteCount` bytes), the caller's zeroizing
  /// scratch buffer, since it holds the private key.
  public static func authenticate(
    privateKey: some ContiguousBytes, chainCode: some ContiguousBytes, rawIndex: UInt32,
    message: UnsafeMutableRawBufferPointer
  ) -> SecureBytes {
    precondition(message.count == messageByteCount, "a hardened child's message is 37 bytes")
    message[0] = 0
    privateKey.withUnsafeBytes {
      precondition($0.count == 32, "a hardened child's parent key is 32 bytes")
      UnsafeMutableRawBufferPointer(rebasing: message[1...32]).copyMemory(from: $0)
    }
    message.storeBytes(of: rawIndex.bigEndian, toByteOffset: 33, as: UInt32.self)
    return HMACSHA512.authenticate(key: chainCode, message: UnsafeRawBufferPointer(message))
  }
}

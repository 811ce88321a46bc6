import CryptoPrimitives

/// Appends bytes to a buffer of known size, for building files that hold a secret directly inside
/// a `SecureBytes` allocation instead of a growable array that leaves copies behind.
package struct SecureByteCursor {
  package let buffer: UnsafeMutableRawBufferPointer
  package private(set) var offset = 0

  package init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

  package mutating func append(_ byte: UInt8) {
    buffer[offset] = byte
    offset += 1
  }

  package mutating func append(_ bytes: some Sequence<UInt8>) {
    for byte in bytes { append(byte) }
  }

  package mutating func append(_ bytes: UnsafeRawBufferPointer) {
    UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + bytes.count]).copyMemory(
      from: bytes)
    offset += bytes.count
  }

  package mutating func append(_ bytes: SecureBytes) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// An RFC 4251 big-endian `uint32`.
  package mutating func append(uint32 value: UInt32) {
    withUnsafeBytes(of: value.bigEndian) { append($0) }
  }

  /// Lowercase hex of `bytes`.
  package mutating func appendHex(_ bytes: UnsafeRawBufferPointer) {
    let digits: StaticString = "0123456789abcdef"
    for byte in bytes {
      append(digits.utf8Start[Int(byte >> 4)])
      append(digits.utf8Start[Int(byte & 0x0F)])
    }
  }
}

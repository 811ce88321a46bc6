import CryptoPrimitives
import Testing

/// The SIMD-lane HMAC-SHA512 against the single-stream one: every key length from empty to a
/// whole block, messages up to the longest one block holds, full and partial calls.
@Suite("HMAC-SHA512 in SIMD lanes")
struct HMACSHA512LanesTests {
  @Test func everyLaneIsTheSingleStreamHMAC() throws {
    guard let lanes = HMACSHA512Lanes.laneCount else { return }
    var generator = SystemRandomNumberGenerator()
    let keyLengths = Array(0...HMACSHA512Lanes.maxKeyByteCount)
    let messageLengths = (0..<keyLengths.count).map {
      $0 % (HMACSHA512Lanes.maxMessageByteCount + 1)
    }
    // Case i's key at 256 i, its message at 256 i + 128.
    let cases = keyLengths.count
    let bytes = (0..<(256 * cases)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    func key(_ index: Int) -> [UInt8] {
      Array(bytes[(256 * index)..<(256 * index + keyLengths[index])])
    }
    func message(_ index: Int) -> [UInt8] {
      Array(bytes[(256 * index + 128)..<(256 * index + 128 + messageLengths[index])])
    }
    let scratch = UnsafeMutableRawPointer.allocate(
      byteCount: HMACSHA512Lanes.scratchByteCount, alignment: 64)
    defer { scratch.deallocate() }
    var tags = [UInt8](repeating: 0, count: 64 * cases)
    var start = 0
    while start < cases {
      // Calls of every size from one key to a full vector.
      let count = min(1 + start % lanes, cases - start)
      let first = start
      bytes.withUnsafeBytes { bytes in
        tags.withUnsafeMutableBytes { tags in
          HMACSHA512Lanes.authenticate(
            count: count,
            key: {
              UnsafeRawBufferPointer(
                rebasing: bytes[
                  (256 * (first + $0))..<(256 * (first + $0) + keyLengths[first + $0])])
            },
            message: {
              let at = 256 * (first + $0) + 128
              return UnsafeRawBufferPointer(rebasing: bytes[at..<(at + messageLengths[first + $0])])
            },
            tag: { tags.baseAddress! + 64 * (first + $0) }, scratch: scratch)
        }
      }
      start += count
    }
    for index in 0..<cases {
      let expected = HMACSHA512.authenticate(key: key(index), message: message(index))
      #expect(
        expected == SecureBytes(Array(tags[(64 * index)..<(64 * index + 64)])),
        "key \(keyLengths[index]) bytes, message \(messageLengths[index]) bytes")
    }
  }
}

/// HMAC-SHA512 of one short message under one short key for several keys side by side, one
/// key a SIMD lane of freedom-keys' own kernel (`CSHA2Lanes`): a batch of seeds' SLIP-0010
/// steps at the cost of about one, where the seed engine runs in lanes.
///
/// Each call keys every lane (two compressions from the initial state), hashes its message
/// block and the inner digest: four compressions for as many keys as the vector has lanes.
package enum HMACSHA512Lanes {
  /// The longest key a lane takes: one block.
  package static let maxKeyByteCount = 128
  /// The longest message a lane takes: what one padded block holds after the key block.
  package static let maxMessageByteCount = OpenSSLSHA512.maxOneBlockMessageByteCount

  private static let architecture: PBKDF2SHA512Batch.Architecture? = {
    guard let arch = PBKDF2SHA512Batch.engine.lanesArchitecture, passesSelfTest(arch) else {
      return nil
    }
    return arch
  }()

  /// Keys one call takes on this machine, or nil when the seed engine is not SIMD lanes (or
  /// the kernel failed its known answers): then HMACSHA512 serves one key at a time.
  package static let laneCount: Int? = architecture.map { OpenSSLSHA512.laneCount($0) }

  /// The bytes of scratch `authenticate` needs: every lane's key block, message block and tag.
  package static var scratchByteCount: Int { (laneCount ?? 0) * (16 + 16 + 8) * 8 }

  /// For every lane `l < count`, writes HMAC-SHA512(key(l), message(l)) (64 bytes) to `tag(l)`.
  /// `scratch` (`scratchByteCount` bytes, 8-byte aligned) holds the lanes' words and is wiped
  /// before the call returns. Only when `laneCount` is not nil.
  package static func authenticate(
    count: Int, key: (Int) -> UnsafeRawBufferPointer, message: (Int) -> UnsafeRawBufferPointer,
    tag: (Int) -> UnsafeMutableRawPointer, scratch: UnsafeMutableRawPointer
  ) {
    guard let arch = architecture else { preconditionFailure("no SIMD lanes for HMAC-SHA512") }
    run(arch, count: count, key: key, message: message, tag: tag, scratch: scratch)
  }

  private static func run(
    _ arch: PBKDF2SHA512Batch.Architecture, count: Int, key: (Int) -> UnsafeRawBufferPointer,
    message: (Int) -> UnsafeRawBufferPointer, tag: (Int) -> UnsafeMutableRawPointer,
    scratch: UnsafeMutableRawPointer
  ) {
    let lanes = OpenSSLSHA512.laneCount(arch)
    precondition(count > 0 && count <= lanes, "one to \(lanes) keys a call")
    let keys = scratch.bindMemory(to: UInt64.self, capacity: lanes * 40)
    let messages = keys + 16 * lanes
    let tags = messages + 16 * lanes
    defer { scratch.initializeMemory(as: UInt8.self, repeating: 0, count: lanes * 40 * 8) }
    for lane in 0..<lanes {
      // Unused lanes repeat the last key and message; their tags are dropped.
      let source = min(lane, count - 1)
      let (k, m) = (key(source), message(source))
      precondition(k.count <= maxKeyByteCount && m.count <= maxMessageByteCount)
      PBKDF2Lanes.loadBlock(OpenSSLSHA512.self, k, into: keys + 16 * lane, paddedAfter: nil)
      PBKDF2Lanes.loadBlock(
        OpenSSLSHA512.self, m, into: messages + 16 * lane, paddedAfter: maxKeyByteCount)
    }
    OpenSSLSHA512.hmac(arch, key: keys, message: messages, tag: tags, ipad: nil, opad: nil)
    for lane in 0..<count {
      let out = tag(lane)
      for word in 0..<8 {
        out.storeBytes(
          of: tags[8 * lane + word].bigEndian, toByteOffset: 8 * word, as: UInt64.self)
      }
    }
  }

  /// Known answers against the single-stream HMAC before the kernel is trusted: keys and
  /// messages of several lengths up to the limits, and a call that leaves lanes unused.
  private static func passesSelfTest(_ arch: PBKDF2SHA512Batch.Architecture) -> Bool {
    let lanes = OpenSSLSHA512.laneCount(arch)
    let keyLengths = [0, 12, 32, 64, 111, 127, 128, 1, 77, 5, 33, 100, 64, 31, 2, 128]
    let messageLengths = [37, 64, 0, 111, 1, 110, 55, 56, 37, 37, 8, 100, 63, 64, 65, 9]
    let cases = keyLengths.count
    // Per case: its key and message (128 bytes each) and the tag (64); then the lanes' words.
    let memory = UnsafeMutableRawBufferPointer.allocate(
      byteCount: cases * 320 + lanes * 40 * 8, alignment: 64)
    defer { memory.deallocate() }
    let base = memory.baseAddress!
    for index in 0..<cases {
      for offset in 0..<256 {
        base.storeBytes(
          of: UInt8(truncatingIfNeeded: offset &* 13 &+ index &* 7),
          toByteOffset: 320 * index + offset,
          as: UInt8.self)
      }
    }
    let key = { (index: Int) in
      UnsafeRawBufferPointer(start: base + 320 * index, count: keyLengths[index])
    }
    let message = { (index: Int) in
      UnsafeRawBufferPointer(start: base + 320 * index + 128, count: messageLengths[index])
    }
    var start = 0
    while start < cases {
      // The first call leaves a lane unused.
      let count = min(lanes - (start == 0 ? 1 : 0), cases - start)
      run(
        arch, count: count, key: { key(start + $0) }, message: { message(start + $0) },
        tag: { base + 320 * (start + $0) + 256 }, scratch: base + cases * 320)
      start += count
    }
    for index in 0..<cases {
      let expected = HMACSHA512.authenticate(
        key: [UInt8](key(index)), message: [UInt8](message(index)))
      let actual = UnsafeRawBufferPointer(start: base + 320 * index + 256, count: 64)
      guard expected.withUnsafeBytes({ $0.elementsEqual(actual) }) else { return false }
    }
    return true
  }
}

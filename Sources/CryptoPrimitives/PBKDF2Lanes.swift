internal import COpenSSL
internal import CSHA2Lanes

/// A SHA-2 whose PBKDF2 iterations freedom-keys' own kernel (`CSHA2Lanes`) runs in SIMD lanes.
protocol LanesHMAC: OpenSSLSHA2 {
  /// Candidates a kernel call takes: its vector's bits over the word's.
  static func laneCount(_ arch: PBKDF2SHA512Batch.Architecture) -> Int
  /// Iterations 2…c of every lane: T from the pad states and U_1, words in host order.
  static func iterate(
    _ arch: PBKDF2SHA512Batch.Architecture, ipad: UnsafePointer<Word>,
    opad: UnsafePointer<Word>, u1: UnsafePointer<Word>, t: UnsafeMutablePointer<Word>,
    iterations: UInt32)
  /// HMAC of one message block under a key of at most one block, every lane: the blocks as
  /// `PBKDF2Lanes.loadBlock` lays them out (16 words a lane), the tag (8 words a lane) and, when
  /// not nil, the keyed pad states.
  static func hmac(
    _ arch: PBKDF2SHA512Batch.Architecture, key: UnsafePointer<Word>,
    message: UnsafePointer<Word>, tag: UnsafeMutablePointer<Word>,
    ipad: UnsafeMutablePointer<Word>?, opad: UnsafeMutablePointer<Word>?)
}

extension LanesHMAC {
  /// The longest message the block after the key block holds with its padding.
  static var maxOneBlockMessageByteCount: Int {
    blockByteCount - 1 - 2 * MemoryLayout<Word>.size
  }
}

extension OpenSSLSHA512: LanesHMAC {
  static func laneCount(_ arch: PBKDF2SHA512Batch.Architecture) -> Int {
    arch == .avx512 ? 8 : 4
  }
  static func iterate(
    _ arch: PBKDF2SHA512Batch.Architecture, ipad: UnsafePointer<UInt64>,
    opad: UnsafePointer<UInt64>, u1: UnsafePointer<UInt64>, t: UnsafeMutablePointer<UInt64>,
    iterations: UInt32
  ) {
    switch arch {
    case .avx512: fk_pbkdf2_sha512_avx512(ipad, opad, u1, t, iterations)
    case .avx2: fk_pbkdf2_sha512_avx2(ipad, opad, u1, t, iterations)
    }
  }
  static func hmac(
    _ arch: PBKDF2SHA512Batch.Architecture, key: UnsafePointer<UInt64>,
    message: UnsafePointer<UInt64>, tag: UnsafeMutablePointer<UInt64>,
    ipad: UnsafeMutablePointer<UInt64>?, opad: UnsafeMutablePointer<UInt64>?
  ) {
    switch arch {
    case .avx512: fk_pbkdf2_sha512_avx512_hmac(key, message, tag, ipad, opad)
    case .avx2: fk_pbkdf2_sha512_avx2_hmac(key, message, tag, ipad, opad)
    }
  }
}

extension OpenSSLSHA256: LanesHMAC {
  static func laneCount(_ arch: PBKDF2SHA512Batch.Architecture) -> Int {
    arch == .avx512 ? 16 : 8
  }
  static func iterate(
    _ arch: PBKDF2SHA512Batch.Architecture, ipad: UnsafePointer<UInt32>,
    opad: UnsafePointer<UInt32>, u1: UnsafePointer<UInt32>, t: UnsafeMutablePointer<UInt32>,
    iterations: UInt32
  ) {
    switch arch {
    case .avx512: fk_pbkdf2_sha256_avx512(ipad, opad, u1, t, iterations)
    case .avx2: fk_pbkdf2_sha256_avx2(ipad, opad, u1, t, iterations)
    }
  }
  static func hmac(
    _ arch: PBKDF2SHA512Batch.Architecture, key: UnsafePointer<UInt32>,
    message: UnsafePointer<UInt32>, tag: UnsafeMutablePointer<UInt32>,
    ipad: UnsafeMutablePointer<UInt32>?, opad: UnsafeMutablePointer<UInt32>?
  ) {
    switch arch {
    case .avx512: fk_pbkdf2_sha256_avx512_hmac(key, message, tag, ipad, opad)
    case .avx2: fk_pbkdf2_sha256_avx2_hmac(key, message, tag, ipad, opad)
    }
  }
}

/// PBKDF2-HMAC-SHA512 or -SHA256 with one block of key (a digest's length) for several
/// candidates side by side, one candidate a SIMD lane, on freedom-keys' own kernel
/// (`CSHA2Lanes`): with AVX-512, 8 SHA-512 or 16 SHA-256 lanes; with AVX2, 4 or 8.
///
/// From the second iteration on, both HMAC messages are one digest, so each compression takes
/// a block whose padding is fixed, which the kernel folds into constants; it runs every
/// iteration of a lane group with no job set-up. The keyed pad states and U_1 (the HMAC over
/// the salt) come from the same lanes where every password of a group fits a block and every
/// salt the block after it, else from OpenSSL, once per candidate. No library is loaded: the kernel is compiled for its
/// instruction set and used only where the CPU has it and it gave the known answers of the
/// single-stream code.
enum PBKDF2Lanes {
  typealias Architecture = PBKDF2SHA512Batch.Architecture

  /// The kernels this CPU runs whose SHA-512 and SHA-256 both passed the self-test, slowest
  /// first.
  static let architectures: [Architecture] = {
    let cpu = fk_sha2_lanes_cpu()
    let candidates: [Architecture] = cpu >= 2 ? [.avx2, .avx512] : cpu == 1 ? [.avx2] : []
    return candidates.filter {
      passesSelfTest(OpenSSLSHA512.self, $0) && passesSelfTest(OpenSSLSHA256.self, $0)
    }
  }()

  /// One key (a digest's length) per password with its own salt: PBKDF2-HMAC-`H`(password,
  /// salt, iterations).
  static func derive<H: LanesHMAC>(
    _ hash: H.Type, _ arch: Architecture, _ passwords: [SecureBytes], _ salts: [SecureBytes],
    _ iterations: Int
  ) -> [SecureBytes] {
    let lanes = H.laneCount(arch)
    let contextBytes = (MemoryLayout<H.Context>.stride + 63) & ~63
    // Three contexts (keyed inner, keyed outer, working), the pad block, a digest, per lane
    // the two pad states, U_1 and T, and per lane a key block and a message block: one locked
    // allocation, wiped before it is freed.
    let total =
      3 * contextBytes + H.blockByteCount + H.digestByteCount + 4 * lanes * H.digestByteCount
      + 2 * lanes * H.blockByteCount
    return withLockedScratch(byteCount: total) { base in
      derive(H.self, arch, passwords, salts, iterations, scratch: base, contextBytes: contextBytes)
    }
  }

  private static func derive<H: LanesHMAC>(
    _ hash: H.Type, _ arch: Architecture, _ passwords: [SecureBytes], _ salts: [SecureBytes],
    _ iterations: Int, scratch base: UnsafeMutableRawPointer, contextBytes: Int
  ) -> [SecureBytes] {
    let lanes = H.laneCount(arch)
    let wordBytes = MemoryLayout<H.Word>.size
    let words = H.digestByteCount / wordBytes
    let inner = base.bindMemory(to: H.Context.self, capacity: 1)
    let outer = (base + contextBytes).bindMemory(to: H.Context.self, capacity: 1)
    let work = (base + 2 * contextBytes).bindMemory(to: H.Context.self, capacity: 1)
    let pad = UnsafeMutableRawBufferPointer(
      start: base + 3 * contextBytes, count: H.blockByteCount)
    let digest = pad.baseAddress! + H.blockByteCount
    let state = (digest + H.digestByteCount).bindMemory(to: H.Word.self, capacity: 4 * lanes * 8)
    let (ipad, opad) = (state, state + lanes * 8)
    let (u1, t) = (state + 2 * lanes * 8, state + 3 * lanes * 8)
    let (keyBlocks, messageBlocks) = (state + 4 * lanes * 8, state + 4 * lanes * 8 + lanes * 16)

    var keys: [SecureBytes] = []
    keys.reserveCapacity(passwords.count)
    var start = 0
    while start < passwords.count {
      let valid = min(lanes, passwords.count - start)
      // Unused lanes repeat the last candidate; their results are dropped.
      let group = (0..<lanes).map { start + min($0, valid - 1) }
      if group.allSatisfy({
        passwords[$0].count <= H.blockByteCount
          && salts[$0].count + 4 <= H.maxOneBlockMessageByteCount
      }) {
        // U_1 = HMAC(P, S ‖ INT(1)) and the pad states, every lane at once.
        for (lane, index) in group.enumerated() {
          passwords[index].withUnsafeBytes {
            loadBlock(H.self, $0, into: keyBlocks + 16 * lane, paddedAfter: nil)
          }
          salts[index].withUnsafeBytes { salt in
            let length = salt.count + 4
            pad.copyMemory(from: salt)
            pad.storeBytes(of: UInt32(1).bigEndian, toByteOffset: salt.count, as: UInt32.self)
            loadBlock(
              H.self, UnsafeRawBufferPointer(rebasing: pad[..<length]),
              into: messageBlocks + 16 * lane, paddedAfter: H.blockByteCount)
          }
        }
        H.hmac(arch, key: keyBlocks, message: messageBlocks, tag: u1, ipad: ipad, opad: opad)
        H.iterate(arch, ipad: ipad, opad: opad, u1: u1, t: t, iterations: UInt32(iterations))
        collect(H.self, t, valid, into: &keys)
        start += valid
        continue
      }
      for lane in 0..<lanes {
        let index = start + min(lane, valid - 1)
        passwords[index].withUnsafeBytes { H.keyHMAC($0, inner: inner, outer: outer, pad: pad) }
        UnsafeMutableRawPointer(ipad + 8 * lane).copyMemory(
          from: UnsafeRawPointer(inner) + H.stateOffset, byteCount: H.digestByteCount)
        UnsafeMutableRawPointer(opad + 8 * lane).copyMemory(
          from: UnsafeRawPointer(outer) + H.stateOffset, byteCount: H.digestByteCount)
        // U_1 = HMAC(P, S ‖ INT(1)).
        restore(work, from: inner)
        salts[index].withUnsafeBytes { H.update(work, $0) }
        withUnsafeBytes(of: UInt32(1).bigEndian) { H.update(work, $0) }
        H.finalize(work, into: digest)
        restore(work, from: outer)
        H.update(work, UnsafeRawBufferPointer(start: digest, count: H.digestByteCount))
        H.finalize(work, into: digest)
        for w in 0..<words {
          u1[8 * lane + w] = H.Word(
            bigEndian: digest.loadUnaligned(fromByteOffset: w * wordBytes, as: H.Word.self))
        }
      }
      H.iterate(arch, ipad: ipad, opad: opad, u1: u1, t: t, iterations: UInt32(iterations))
      collect(H.self, t, valid, into: &keys)
      start += valid
    }
    return keys
  }

  /// The keys of the first `valid` lanes of T, as bytes.
  private static func collect<H: LanesHMAC>(
    _ hash: H.Type, _ t: UnsafeMutablePointer<H.Word>, _ valid: Int,
    into keys: inout [SecureBytes]
  ) {
    let wordBytes = MemoryLayout<H.Word>.size
    for lane in 0..<valid {
      keys.append(
        SecureBytes(count: H.digestByteCount) { out in
          for w in 0..<(H.digestByteCount / wordBytes) {
            out.storeBytes(
              of: t[8 * lane + w].bigEndian, toByteOffset: w * wordBytes, as: H.Word.self)
          }
        })
    }
  }

  /// `bytes` (at most a block) as the 16 big-endian words of a block, zero-padded; with
  /// `paddedAfter`, padded as the last block of a hash after that many bytes (the 1 bit after
  /// the bytes, the length in bits in the last word).
  static func loadBlock<H: LanesHMAC>(
    _ hash: H.Type, _ bytes: UnsafeRawBufferPointer, into words: UnsafeMutablePointer<H.Word>,
    paddedAfter prefix: Int?
  ) {
    let raw = UnsafeMutableRawPointer(words)
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: H.blockByteCount)
    if let base = bytes.baseAddress { raw.copyMemory(from: base, byteCount: bytes.count) }
    if prefix != nil { raw.storeBytes(of: 0x80, toByteOffset: bytes.count, as: UInt8.self) }
    for index in 0..<16 { words[index] = H.Word(bigEndian: words[index]) }
    if let prefix { words[15] = H.Word((prefix + bytes.count) * 8) }
  }

  private static func restore<Context>(
    _ target: UnsafeMutablePointer<Context>, from source: UnsafeMutablePointer<Context>
  ) {
    UnsafeMutableRawPointer(target).copyMemory(
      from: source, byteCount: MemoryLayout<Context>.size)
  }

  /// Known answers against the single-stream code before a kernel is trusted: passwords empty,
  /// shorter than, as long as and longer than a block, salts of several lengths, 1 to 3
  /// iterations, and a last group that leaves lanes unused.
  private static func passesSelfTest<H: LanesHMAC>(_ hash: H.Type, _ arch: Architecture) -> Bool {
    let counts = [0, 1, 63, 64, 65, 111, 128, 129, 200, 5, 77, 32, 20, 9, 3, 44, 90]
    let passwords = counts.map { count in
      SecureBytes(count: count) { out in
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: i &* 7 &+ count) }
      }
    }
    let salts = passwords.indices.map { index in
      SecureBytes(utf8: "mnemonic" + String(repeating: "TREZOR", count: index % 3))
    }
    for iterations in [1, 2, 3] {
      let keys = derive(H.self, arch, passwords, salts, iterations)
      for index in passwords.indices {
        let expected =
          H.self == OpenSSLSHA512.self
          ? PBKDF2.hmacSHA512(
            password: passwords[index], salt: salts[index], iterations: iterations,
            keyByteCount: H.digestByteCount)
          : PBKDF2.hmacSHA256(
            password: passwords[index], salt: salts[index], iterations: iterations,
            keyByteCount: H.digestByteCount)
        guard keys[index] == expected else { return false }
      }
    }
    return true
  }
}

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
}

/// PBKDF2-HMAC-SHA512 or -SHA256 with one block of key (a digest's length) for several
/// candidates side by side, one candidate a SIMD lane, on freedom-keys' own kernel
/// (`CSHA2Lanes`): with AVX-512, 8 SHA-512 or 16 SHA-256 lanes; with AVX2, 4 or 8.
///
/// From the second iteration on, both HMAC messages are one digest, so each compression takes
/// a block whose padding is fixed, which the kernel folds into constants; it runs every
/// iteration of a lane group with no job set-up. The keyed pad states and U_1 (the HMAC over the salt, which has any length) come
/// from OpenSSL here, once per candidate. No library is loaded: the kernel is compiled for its
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
    // Three contexts (keyed inner, keyed outer, working), the pad block, a digest, and per
    // lane the two pad states, U_1 and T: one locked allocation, wiped before it is freed.
    let total =
      3 * contextBytes + H.blockByteCount + H.digestByteCount + 4 * lanes * H.digestByteCount
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

    var keys: [SecureBytes] = []
    keys.reserveCapacity(passwords.count)
    var start = 0
    while start < passwords.count {
      let valid = min(lanes, passwords.count - start)
      // Unused lanes repeat the last candidate; their results are dropped.
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
      for lane in 0..<valid {
        keys.append(
          SecureBytes(count: H.digestByteCount) { out in
            for w in 0..<words {
              out.storeBytes(
                of: t[8 * lane + w].bigEndian, toByteOffset: w * wordBytes, as: H.Word.self)
            }
          })
      }
      start += valid
    }
    return keys
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

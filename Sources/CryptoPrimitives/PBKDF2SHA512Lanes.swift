internal import COpenSSL
internal import CSHA512Lanes

/// PBKDF2-HMAC-SHA512 with 64-byte keys for several candidates side by side, one candidate a
/// SIMD lane, on freedom-keys' own kernel (`CSHA512Lanes`): 8 lanes with AVX-512, 4 with AVX2.
///
/// From the second iteration on, both HMAC messages are one 64-byte digest, so each
/// compression takes a block whose padding is fixed; the kernel runs every iteration of a lane
/// group in registers. The keyed pad states and U_1 (the HMAC over the salt, which has any
/// length) come from OpenSSL here, once per candidate. No library is loaded: the kernel is
/// compiled for its instruction set and used only where the CPU has it and it gave the known
/// answers of the single-stream code.
enum PBKDF2SHA512Lanes {
  typealias Architecture = PBKDF2SHA512Batch.Architecture
  private typealias H = OpenSSLSHA512

  /// The kernels this CPU runs that passed the self-test, slowest first.
  static let architectures: [Architecture] = {
    let cpu = fk_sha512_lanes_cpu()
    let candidates: [Architecture] = cpu >= 2 ? [.avx2, .avx512] : cpu == 1 ? [.avx2] : []
    return candidates.filter(passesSelfTest)
  }()

  static func laneCount(_ arch: Architecture) -> Int { arch == .avx512 ? 8 : 4 }

  /// One key per password with its own salt: PBKDF2-HMAC-SHA512(password, salt, iterations).
  static func derive(
    _ arch: Architecture, _ passwords: [SecureBytes], _ salts: [SecureBytes], _ iterations: Int
  ) -> [SecureBytes] {
    let lanes = laneCount(arch)
    let contextBytes = (MemoryLayout<H.Context>.stride + 63) & ~63
    // Three contexts (keyed inner, keyed outer, working), the pad block, the inner digest, and
    // per lane the two pad states, U_1 and T: one locked allocation, wiped before it is freed.
    let laneBytes = lanes * H.digestByteCount
    let total = 3 * contextBytes + H.blockByteCount + H.digestByteCount + 4 * laneBytes
    return withLockedScratch(byteCount: total) { base in
      derive(arch, passwords, salts, iterations, scratch: base, contextBytes: contextBytes)
    }
  }

  private static func derive(
    _ arch: Architecture, _ passwords: [SecureBytes], _ salts: [SecureBytes], _ iterations: Int,
    scratch base: UnsafeMutableRawPointer, contextBytes: Int
  ) -> [SecureBytes] {
    let lanes = laneCount(arch)
    let words = H.digestByteCount / 8
    let inner = base.bindMemory(to: H.Context.self, capacity: 1)
    let outer = (base + contextBytes).bindMemory(to: H.Context.self, capacity: 1)
    let work = (base + 2 * contextBytes).bindMemory(to: H.Context.self, capacity: 1)
    let pad = UnsafeMutableRawBufferPointer(
      start: base + 3 * contextBytes, count: H.blockByteCount)
    let digest = pad.baseAddress! + H.blockByteCount
    let state = (digest + H.digestByteCount).bindMemory(to: UInt64.self, capacity: 4 * lanes * 8)
    let (ipad, opad, u1, t) = (
      state, state + lanes * 8, state + 2 * lanes * 8, state + 3 * lanes * 8
    )

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
          u1[8 * lane + w] = UInt64(
            bigEndian: digest.loadUnaligned(fromByteOffset: 8 * w, as: UInt64.self))
        }
      }
      switch arch {
      case .avx512: fk_pbkdf2_sha512_avx512(ipad, opad, u1, t, UInt32(iterations))
      case .avx2: fk_pbkdf2_sha512_avx2(ipad, opad, u1, t, UInt32(iterations))
      }
      for lane in 0..<valid {
        keys.append(
          SecureBytes(count: H.digestByteCount) { out in
            for w in 0..<words {
              out.storeBytes(of: t[8 * lane + w].bigEndian, toByteOffset: 8 * w, as: UInt64.self)
            }
          })
      }
      start += valid
    }
    return keys
  }

  private static func restore(
    _ target: UnsafeMutablePointer<H.Context>, from source: UnsafeMutablePointer<H.Context>
  ) {
    UnsafeMutableRawPointer(target).copyMemory(
      from: source, byteCount: MemoryLayout<H.Context>.size)
  }

  /// Known answers against the single-stream code before a kernel is trusted: passwords empty,
  /// shorter than, as long as and longer than a block, salts of several lengths, 1 to 3
  /// iterations, and a group that leaves lanes unused.
  private static func passesSelfTest(_ arch: Architecture) -> Bool {
    let passwords = [0, 1, 111, 128, 129, 200, 64, 5, 77].map { count in
      SecureBytes(count: count) { out in
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: i &* 7 &+ count) }
      }
    }
    let salts = passwords.indices.map { index in
      SecureBytes(utf8: "mnemonic" + String(repeating: "TREZOR", count: index % 3))
    }
    for iterations in [1, 2, 3] {
      let keys = derive(arch, passwords, salts, iterations)
      for index in passwords.indices {
        let expected = PBKDF2.hmacSHA512(
          password: passwords[index], salt: salts[index], iterations: iterations,
          keyByteCount: H.digestByteCount)
        guard keys[index] == expected else { return false }
      }
    }
    return true
  }
}

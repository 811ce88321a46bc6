internal import CSodium

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// PBKDF2 (RFC 8018) over HMAC-SHA512 (BIP-39 seeds) and HMAC-SHA256 (keystores, vaults).
///
/// Each iteration costs exactly two compressions, the floor for PBKDF2: the password is keyed
/// into HMAC's inner and outer states once, and from the second iteration on each MAC input is a
/// digest of fixed length, so both hashes are single pre-padded blocks fed straight to OpenSSL's
/// block function with the keyed state restored. No intermediate leaves one wiped allocation.
public enum PBKDF2 {
  /// PBKDF2-HMAC-SHA512.
  public static func hmacSHA512(
    password: some ContiguousBytes, salt: some ContiguousBytes, iterations: Int, keyByteCount: Int
  ) -> SecureBytes {
    output(keyByteCount, iterations) { out in
      password.withUnsafeBytes { password in
        salt.withUnsafeBytes { derive(OpenSSLSHA512.self, password, $0, iterations, out) }
      }
    }
  }

  /// A rough duration of PBKDF2-HMAC-SHA256 from its iteration count alone: about a second per
  /// million iterations on a current x86-64 core (desktop Freedom's 900,000 take about one).
  public static func estimatedSeconds(sha256Iterations iterations: Int) -> Double {
    Double(iterations) / 1_000_000
  }

  /// PBKDF2-HMAC-SHA256.
  public static func hmacSHA256(
    password: some ContiguousBytes, salt: some ContiguousBytes, iterations: Int, keyByteCount: Int
  ) -> SecureBytes {
    output(keyByteCount, iterations) { out in
      password.withUnsafeBytes { password in
        salt.withUnsafeBytes { derive(OpenSSLSHA256.self, password, $0, iterations, out) }
      }
    }
  }

  private static func output(
    _ keyByteCount: Int, _ iterations: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void
  ) -> SecureBytes {
    precondition(iterations >= 1, "PBKDF2 needs at least one iteration")
    precondition(keyByteCount >= 0, "a key length cannot be negative")
    return SecureBytes(count: keyByteCount, initializer: body)
  }

  /// The work itself. Callers name the hash concretely, so this is specialised for each; called
  /// from code still generic over the byte containers, it ran unspecialised and 1.5–3× slower.
  private static func derive<H: OpenSSLSHA2>(
    _: H.Type, _ password: UnsafeRawBufferPointer, _ salt: UnsafeRawBufferPointer,
    _ iterations: Int,
    _ out: UnsafeMutableRawBufferPointer
  ) {
    let scratch = Scratch<H>()
    defer { scratch.release() }
    scratch.key(password)
    var offset = 0
    var blockIndex: UInt32 = 1
    while offset < out.count {
      let take = min(H.digestByteCount, out.count - offset)
      scratch.block(blockIndex, salt: salt, iterations: iterations)
      scratch.copyResult(to: out.baseAddress! + offset, count: take)
      offset += take
      blockIndex += 1
    }
  }

  /// Every intermediate of one derivation in a single allocation that is wiped on release:
  /// three contexts (keyed inner, keyed outer, working), two one-block buffers whose first
  /// `digestByteCount` bytes carry U_j and the inner digest, and the running XOR T.
  private struct Scratch<H: OpenSSLSHA2> {
    private let memory: UnsafeMutableRawBufferPointer
    private let inner: UnsafeMutablePointer<H.Context>
    private let outer: UnsafeMutablePointer<H.Context>
    private let work: UnsafeMutablePointer<H.Context>
    /// U_j, padded as the second block of the inner hash.
    private let innerBlock: UnsafeMutableRawPointer
    /// The inner digest, padded as the second block of the outer hash.
    private let outerBlock: UnsafeMutableRawPointer
    /// T_i as state words in host byte order.
    private let t: UnsafeMutablePointer<H.Word>

    private static var wordCount: Int { H.digestByteCount / MemoryLayout<H.Word>.size }

    init() {
      let contextBytes = (MemoryLayout<H.Context>.stride + 63) & ~63
      let blockBytes = H.blockByteCount
      memory = .allocate(
        byteCount: 3 * contextBytes + 2 * blockBytes + H.digestByteCount, alignment: 64)
      memory.initializeMemory(as: UInt8.self, repeating: 0)
      _ = sodium_mlock(memory.baseAddress!, memory.count)
      let base = memory.baseAddress!
      inner = base.bindMemory(to: H.Context.self, capacity: 1)
      outer = (base + contextBytes).bindMemory(to: H.Context.self, capacity: 1)
      work = (base + 2 * contextBytes).bindMemory(to: H.Context.self, capacity: 1)
      innerBlock = base + 3 * contextBytes
      outerBlock = innerBlock + blockBytes
      t = (outerBlock + blockBytes).bindMemory(to: H.Word.self, capacity: Self.wordCount)
    }

    func release() {
      sodium_memzero(memory.baseAddress!, memory.count)
      _ = sodium_munlock(memory.baseAddress!, memory.count)
      memory.deallocate()
    }

    /// Keys the inner and outer states with `password` (RFC 2104), using innerBlock as K ⊕ pad.
    func key(_ password: UnsafeRawBufferPointer) {
      H.keyHMAC(
        password, inner: inner, outer: outer,
        pad: UnsafeMutableRawBufferPointer(start: innerBlock, count: H.blockByteCount))
    }

    /// T_i = U_1 ⊕ … ⊕ U_c into `t`.
    func block(_ index: UInt32, salt: UnsafeRawBufferPointer, iterations: Int) {
      let h = H.digestByteCount
      // U_1 = HMAC(P, S ‖ INT(i)): the salt has any length, so it goes through update/final.
      restore(work, from: inner)
      H.update(work, salt)
      withUnsafeBytes(of: index.bigEndian) { H.update(work, $0) }
      H.finalize(work, into: outerBlock)
      restore(work, from: outer)
      H.update(work, UnsafeRawBufferPointer(start: outerBlock, count: h))
      H.finalize(work, into: innerBlock)
      pad(innerBlock)
      pad(outerBlock)

      let words = Self.wordCount
      let wordBytes = MemoryLayout<H.Word>.size
      for w in 0..<words {
        t[w] = H.Word(
          bigEndian: innerBlock.loadUnaligned(fromByteOffset: w * wordBytes, as: H.Word.self))
      }
      // The chaining state h[0..<8] of each context, in host byte order.
      let state = (UnsafeMutableRawPointer(work) + H.stateOffset).assumingMemoryBound(
        to: H.Word.self)
      let innerState = (UnsafeMutableRawPointer(inner) + H.stateOffset).assumingMemoryBound(
        to: H.Word.self)
      let outerState = (UnsafeMutableRawPointer(outer) + H.stateOffset).assumingMemoryBound(
        to: H.Word.self)
      for _ in 1..<iterations {
        state.update(from: innerState, count: words)
        H.compress(work, innerBlock)
        for w in 0..<words {
          outerBlock.storeBytes(
            of: state[w].bigEndian, toByteOffset: w * wordBytes, as: H.Word.self)
        }
        state.update(from: outerState, count: words)
        H.compress(work, outerBlock)
        for w in 0..<words {
          let u = state[w]
          innerBlock.storeBytes(of: u.bigEndian, toByteOffset: w * wordBytes, as: H.Word.self)
          t[w] ^= u
        }
      }
    }

    /// The first `count` bytes of T_i, big-endian, to `destination`.
    func copyResult(to destination: UnsafeMutableRawPointer, count: Int) {
      let wordBytes = MemoryLayout<H.Word>.size
      // The digest area of outerBlock is free once the iterations are done.
      for w in 0..<Self.wordCount {
        outerBlock.storeBytes(of: t[w].bigEndian, toByteOffset: w * wordBytes, as: H.Word.self)
      }
      destination.copyMemory(from: outerBlock, byteCount: count)
    }

    /// Copies a whole context as bytes, so no keyed state passes through a Swift temporary.
    private func restore(
      _ target: UnsafeMutablePointer<H.Context>, from source: UnsafeMutablePointer<H.Context>
    ) {
      UnsafeMutableRawPointer(target).copyMemory(
        from: source, byteCount: MemoryLayout<H.Context>.size)
    }

    /// SHA-2 padding for a message of one keyed block plus one digest, written after the
    /// digest that occupies the start of `block`.
    private func pad(_ block: UnsafeMutableRawPointer) {
      let h = H.digestByteCount
      let b = H.blockByteCount
      UnsafeMutableRawBufferPointer(start: block + h, count: b - h).initializeMemory(
        as: UInt8.self, repeating: 0)
      block.storeBytes(of: 0x80 as UInt8, toByteOffset: h, as: UInt8.self)
      let bits = UInt64((b + h) * 8)
      block.storeBytes(of: bits.bigEndian, toByteOffset: b - 8, as: UInt64.self)
    }
  }
}

internal import COpenSSL
internal import CSodium

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// SHA-256 (FIPS 180-4), from libsodium (and OpenSSL for the search's per-candidate checksum).
public enum SHA256 {
  /// The digest length in bytes.
  public static let byteCount = 32

  /// The SHA-256 digest of `data`.
  public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
    _ = Sodium.ready
    var digest = [UInt8](repeating: 0, count: byteCount)
    data.withUnsafeBytes { input in
      _ = crypto_hash_sha256(&digest, input.bytePointer, UInt64(input.count))
    }
    return digest
  }

  /// The digest of `data` written to the `byteCount` bytes at `digest`, with no allocation and
  /// the context wiped: OpenSSL's compression, which uses the CPU's SHA extensions where present
  /// (about five times libsodium's portable C on a 16-byte input), for the checksum of every
  /// candidate phrase a recovery search enumerates.
  /// A message that fits one padded block (at most 55 bytes, as every entropy does) is padded
  /// here and compressed once, without the context's buffering.
  package static func hash(_ data: UnsafeRawBufferPointer, into digest: UnsafeMutableRawPointer) {
    typealias H = OpenSSLSHA256
    withUnsafeTemporaryAllocation(of: H.Context.self, capacity: 1) { context in
      let context = context.baseAddress!
      H.initialize(context)
      if data.count <= H.blockByteCount - 9 {
        withUnsafeTemporaryAllocation(byteCount: H.blockByteCount, alignment: 8) { block in
          let block = block.baseAddress!
          block.initializeMemory(as: UInt8.self, repeating: 0, count: H.blockByteCount)
          if let bytes = data.baseAddress { block.copyMemory(from: bytes, byteCount: data.count) }
          block.storeBytes(of: 0x80, toByteOffset: data.count, as: UInt8.self)
          block.storeBytes(
            of: UInt64(data.count * 8).bigEndian, toByteOffset: H.blockByteCount - 8,
            as: UInt64.self)
          H.compress(context, block)
          sodium_memzero(block, H.blockByteCount)
        }
        let state = UnsafeRawPointer(context) + H.stateOffset
        for word in 0..<(byteCount / 4) {
          digest.storeBytes(
            of: state.load(fromByteOffset: 4 * word, as: UInt32.self).bigEndian,
            toByteOffset: 4 * word, as: UInt32.self)
        }
      } else {
        H.update(context, data)
        H.finalize(context, into: digest)
      }
      sodium_memzero(context, MemoryLayout<H.Context>.size)
    }
  }
}

/// SHA-512 (FIPS 180-4), from libsodium.
public enum SHA512 {
  /// The digest length in bytes.
  public static let byteCount = 64

  /// The SHA-512 digest of `data`.
  public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
    _ = Sodium.ready
    var digest = [UInt8](repeating: 0, count: byteCount)
    data.withUnsafeBytes { input in
      _ = crypto_hash_sha512(&digest, input.bytePointer, UInt64(input.count))
    }
    return digest
  }
}

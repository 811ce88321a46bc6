internal import COpenSSL

/// A SHA-2 function of OpenSSL's libcrypto seen through its context and block function, so
/// PBKDF2 can key an HMAC state once and then run single compressions on pre-padded blocks.
///
/// The compression is always OpenSSL's (assembly, using the CPU's SHA extensions where present);
/// nothing here reimplements it. For PBKDF2-HMAC-SHA256 at 900,000 iterations, libsodium's
/// portable C took 490–700 ms on the development machine against 105–135 ms here.
protocol OpenSSLSHA2 {
  associatedtype Context
  /// A word of the chaining state `h[0..<8]`, in host byte order.
  associatedtype Word: FixedWidthInteger & UnsignedInteger

  /// The input block size in bytes.
  static var blockByteCount: Int { get }
  /// The digest size in bytes (also the size of the chaining state for SHA-256 and SHA-512).
  static var digestByteCount: Int { get }
  /// The byte offset of the chaining state `h` inside `Context`.
  static var stateOffset: Int { get }

  static func initialize(_ context: UnsafeMutablePointer<Context>)
  static func update(_ context: UnsafeMutablePointer<Context>, _ data: UnsafeRawBufferPointer)
  static func finalize(
    _ context: UnsafeMutablePointer<Context>, into digest: UnsafeMutableRawPointer)
  /// One compression of the `blockByteCount` bytes at `block` into the context's chaining state.
  static func compress(_ context: UnsafeMutablePointer<Context>, _ block: UnsafeRawPointer)
  /// The digest of `data` in one call (HMAC keys longer than a block are hashed first).
  static func hash(_ data: UnsafeRawBufferPointer, into digest: UnsafeMutableRawPointer)
}

/// SHA-512 from libcrypto.
extension OpenSSLSHA2 {
  /// RFC 2104 keying: `inner` and `outer` after one block of K ⊕ ipad and K ⊕ opad, K being
  /// `key` (hashed first when longer than a block). `pad`, one block of scratch, is left zeroed.
  static func keyHMAC(
    _ key: UnsafeRawBufferPointer, inner: UnsafeMutablePointer<Context>,
    outer: UnsafeMutablePointer<Context>, pad: UnsafeMutableRawBufferPointer
  ) {
    pad.initializeMemory(as: UInt8.self, repeating: 0)
    if key.count > blockByteCount {
      hash(key, into: pad.baseAddress!)
    } else if key.count > 0 {
      pad.baseAddress!.copyMemory(from: key.baseAddress!, byteCount: key.count)
    }
    for i in 0..<blockByteCount { pad[i] ^= 0x36 }
    initialize(inner)
    update(inner, UnsafeRawBufferPointer(pad))
    for i in 0..<blockByteCount { pad[i] ^= 0x36 ^ 0x5c }
    initialize(outer)
    update(outer, UnsafeRawBufferPointer(pad))
    pad.initializeMemory(as: UInt8.self, repeating: 0)
  }
}

enum OpenSSLSHA512: OpenSSLSHA2 {
  typealias Context = SHA512_CTX
  typealias Word = UInt64
  static let blockByteCount = 128
  static let digestByteCount = 64
  static let stateOffset = MemoryLayout<SHA512_CTX>.offset(of: \SHA512_CTX.h)!

  static func initialize(_ context: UnsafeMutablePointer<Context>) { _ = SHA512_Init(context) }
  static func update(_ context: UnsafeMutablePointer<Context>, _ data: UnsafeRawBufferPointer) {
    _ = SHA512_Update(context, data.baseAddress, data.count)
  }
  static func finalize(
    _ context: UnsafeMutablePointer<Context>, into digest: UnsafeMutableRawPointer
  ) {
    _ = SHA512_Final(digest.assumingMemoryBound(to: UInt8.self), context)
  }
  static func compress(_ context: UnsafeMutablePointer<Context>, _ block: UnsafeRawPointer) {
    SHA512_Transform(context, block.assumingMemoryBound(to: UInt8.self))
  }
  static func hash(_ data: UnsafeRawBufferPointer, into digest: UnsafeMutableRawPointer) {
    _ = COpenSSL.SHA512(data.bytePointer, data.count, digest.assumingMemoryBound(to: UInt8.self))
  }
}

/// SHA-256 from libcrypto.
enum OpenSSLSHA256: OpenSSLSHA2 {
  typealias Context = SHA256_CTX
  typealias Word = UInt32
  static let blockByteCount = 64
  static let digestByteCount = 32
  static let stateOffset = MemoryLayout<SHA256_CTX>.offset(of: \SHA256_CTX.h)!

  static func initialize(_ context: UnsafeMutablePointer<Context>) { _ = SHA256_Init(context) }
  static func update(_ context: UnsafeMutablePointer<Context>, _ data: UnsafeRawBufferPointer) {
    _ = SHA256_Update(context, data.baseAddress, data.count)
  }
  static func finalize(
    _ context: UnsafeMutablePointer<Context>, into digest: UnsafeMutableRawPointer
  ) {
    _ = SHA256_Final(digest.assumingMemoryBound(to: UInt8.self), context)
  }
  static func compress(_ context: UnsafeMutablePointer<Context>, _ block: UnsafeRawPointer) {
    SHA256_Transform(context, block.assumingMemoryBound(to: UInt8.self))
  }
  static func hash(_ data: UnsafeRawBufferPointer, into digest: UnsafeMutableRawPointer) {
    _ = COpenSSL.SHA256(data.bytePointer, data.count, digest.assumingMemoryBound(to: UInt8.self))
  }
}

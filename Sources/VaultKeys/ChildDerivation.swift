import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HMAC-SHA512 step shared by BIP-32 and SLIP-0010 child derivation.
///
/// Every `SecureBytes` costs an allocation plus an mlock/munlock pair, which outweighs the
/// hashing, so a path reuses one scratch buffer for its hardened messages and reads `IL` and
/// `IR` in place from the HMAC output instead of copying them out at each step.
enum ChildDerivation {
  /// The byte length of a private key and of each half of the HMAC output.
  static let halfByteCount = 32

  /// Calls `body` with a zeroizing scratch buffer for hardened-child messages, wiped afterwards.
  static func withScratch<R>(
    _ body: (HardenedMessage) throws(KeyDerivationError) -> R
  ) throws(KeyDerivationError) -> R {
    var outcome: Result<R, KeyDerivationError>?
    _ = SecureBytes(count: HardenedChild.messageByteCount) { buffer in
      outcome = Result { () throws(KeyDerivationError) -> R in
        try body(HardenedMessage(buffer: buffer))
      }
    }
    return try outcome!.get()
  }

  /// Where the message `0x00 ‖ ser256(k) ‖ ser32(i)` of a hardened child is written: it holds
  /// the private key, so it lives in the scratch buffer of `withScratch`.
  struct HardenedMessage {
    fileprivate let buffer: UnsafeMutableRawBufferPointer

    /// `I = HMAC-SHA512(chainCode, 0x00 ‖ ser256(k) ‖ ser32(i))` (`HardenedChild`).
    func authenticate(
      privateKey: some ContiguousBytes, chainCode: some ContiguousBytes, rawIndex: UInt32
    ) -> SecureBytes {
      HardenedChild.authenticate(
        privateKey: privateKey, chainCode: chainCode, rawIndex: rawIndex, message: buffer)
    }

    /// The hardened chain from `key` and `chainCode` through `components`: at each step
    /// `I = HMAC-SHA512(chainCode, 0x00 ‖ key ‖ ser32(i))`, key = `IL`, chain code = `IR` —
    /// SLIP-0010's Ed25519 tree and Railgun's BabyJubJub tree alike.
    func hardenedChain(
      key: SecureBytesSlice, chainCode: SecureBytesSlice,
      _ components: some Sequence<DerivationPath.Component>
    ) -> (key: SecureBytesSlice, chainCode: SecureBytesSlice) {
      var (key, code) = (key, chainCode)
      for component in components {
        let hmac = authenticate(privateKey: key, chainCode: code, rawIndex: component.rawIndex)
        (key, code) = (SecureBytesSlice.left(hmac), SecureBytesSlice.right(hmac))
      }
      return (key, code)
    }
  }

  /// `I = HMAC-SHA512(chainCode, serP(K) ‖ ser32(i))` for a non-hardened child.
  static func normal(
    compressedPublicKey: [UInt8], chainCode: some ContiguousBytes, rawIndex: UInt32
  ) -> SecureBytes {
    var message = compressedPublicKey
    message.reserveCapacity(compressedPublicKey.count + 4)
    for shift in stride(from: 24, through: 0, by: -8) {
      message.append(UInt8(truncatingIfNeeded: rawIndex >> UInt32(shift)))
    }
    return HMACSHA512.authenticate(key: chainCode, message: message)
  }
}

/// A byte range of a `SecureBytes`, read in place.
struct SecureBytesSlice: ContiguousBytes {
  let base: SecureBytes
  let range: Range<Int>

  /// All of `bytes`.
  init(_ bytes: SecureBytes) {
    base = bytes
    range = 0..<bytes.count
  }

  private init(base: SecureBytes, range: Range<Int>) {
    self.base = base
    self.range = range
  }

  /// The left half (`IL`) of a 64-byte HMAC output: a tweak, or an Ed25519 child key.
  static func left(_ hmac: SecureBytes) -> SecureBytesSlice {
    SecureBytesSlice(base: hmac, range: 0..<ChildDerivation.halfByteCount)
  }

  /// The right half (`IR`) of a 64-byte HMAC output: the child's chain code.
  static func right(_ hmac: SecureBytes) -> SecureBytesSlice {
    SecureBytesSlice(base: hmac, range: ChildDerivation.halfByteCount..<hmac.count)
  }

  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try base.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
  }

  /// A copy in its own zeroizing buffer, for a value that outlives the derivation.
  var copied: SecureBytes { SecureBytes(self) }
}

extension SecureBytes {
  /// The right half (`IR`) of a 64-byte HMAC output: the child's chain code.
  var rightHalf: SecureBytes { self[ChildDerivation.halfByteCount..<count] }
}

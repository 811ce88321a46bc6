internal import CSodium

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A buffer for secrets (seeds, private keys, chain codes, passwords) that is locked in memory
/// where the system allows it and wiped with `sodium_memzero` when the last copy goes away.
///
/// The bytes are reachable only inside `withUnsafeBytes`, so they are never copied into an
/// ordinary array by accident. Values are immutable; "mutation" builds a new buffer.
public struct SecureBytes: Sendable {
  private final class Storage: @unchecked Sendable {
    let pointer: UnsafeMutableRawBufferPointer

    init(count: Int) {
      _ = Sodium.ready
      if count <= LockedArena.slotByteCount, let slot = LockedArena.shared.allocate() {
        pointer = UnsafeMutableRawBufferPointer(start: slot, count: LockedArena.slotByteCount)
        return
      }
      pointer = .allocate(byteCount: max(count, 1), alignment: 16)
      pointer.initializeMemory(as: UInt8.self, repeating: 0)
      // Locking can fail under a low RLIMIT_MEMLOCK; the buffer is still wiped on release.
      _ = sodium_mlock(pointer.rawPointer, pointer.count)
    }

    deinit {
      if LockedArena.shared.release(pointer.rawPointer) { return }
      sodium_memzero(pointer.rawPointer, pointer.count)
      _ = sodium_munlock(pointer.rawPointer, pointer.count)
      pointer.deallocate()
    }
  }

  private let storage: Storage
  /// The number of secret bytes held.
  public let count: Int

  /// A buffer of `count` bytes filled in place by `initializer`, so the secret never exists elsewhere.
  public init(
    count: Int, initializer: (UnsafeMutableRawBufferPointer) throws -> Void
  ) rethrows {
    precondition(count >= 0, "a byte count cannot be negative")
    storage = Storage(count: count)
    self.count = count
    try initializer(UnsafeMutableRawBufferPointer(rebasing: storage.pointer[0..<count]))
  }

  /// A copy of `bytes` in a zeroizing buffer. The caller remains responsible for its own copy.
  public init(_ bytes: some ContiguousBytes) {
    let count = bytes.withUnsafeBytes { $0.count }
    self.init(count: count) { target in
      bytes.withUnsafeBytes { source in target.copyMemory(from: source) }
    }
  }

  /// The UTF-8 bytes of `string`.
  public init(utf8 string: String) {
    var string = string
    self = string.withUTF8 { SecureBytes(UnsafeRawBufferPointer($0)) }
  }

  /// Calls `body` with the secret bytes; the pointer must not escape.
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(rebasing: storage.pointer[0..<count]))
  }

  /// The bytes in `range`, in a new zeroizing buffer.
  public subscript(range: Range<Int>) -> SecureBytes {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
    return withUnsafeBytes { SecureBytes(UnsafeRawBufferPointer(rebasing: $0[range])) }
  }

  /// `lhs` followed by `rhs`, in a new zeroizing buffer.
  public static func + (lhs: SecureBytes, rhs: SecureBytes) -> SecureBytes {
    SecureBytes(count: lhs.count + rhs.count) { target in
      lhs.withUnsafeBytes { target.copyMemory(from: $0) }
      rhs.withUnsafeBytes {
        UnsafeMutableRawBufferPointer(rebasing: target[lhs.count...]).copyMemory(from: $0)
      }
    }
  }

  /// Lowercase hexadecimal, for output the user asked for explicitly (`--include-secrets`).
  public func revealHex() -> String {
    withUnsafeBytes { Hex.encode($0) }
  }
}

extension SecureBytes: ContiguousBytes {}

extension SecureBytes: Equatable {
  /// Constant-time comparison.
  public static func == (lhs: SecureBytes, rhs: SecureBytes) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.withUnsafeBytes { a in
      rhs.withUnsafeBytes { b in sodium_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
    }
  }
}

extension SecureBytes: CustomStringConvertible, CustomDebugStringConvertible {
  /// Never the content: a secret must not reach a log line or an error by interpolation.
  public var description: String { "SecureBytes(\(count) bytes, redacted)" }
  public var debugDescription: String { description }
}

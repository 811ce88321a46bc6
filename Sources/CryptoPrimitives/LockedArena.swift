internal import CSodium
import Synchronization

/// One memory-locked region carved into fixed slots for small secrets.
///
/// Keys, chain codes and HMAC outputs are 32–64 bytes and a derivation makes dozens of them;
/// locking and unlocking each one costs two system calls, which measured more than the
/// elliptic-curve work of a whole BIP-32 path. Slots are locked once and wiped on release.
final class LockedArena: Sendable {
  static let shared = LockedArena()

  /// The largest secret a slot holds; larger buffers are locked on their own.
  static let slotByteCount = 128
  private static let slotCount = 512  // 64 KiB, within the default RLIMIT_MEMLOCK

  nonisolated(unsafe) private let region: UnsafeMutableRawPointer
  private let freeSlots: Mutex<[Int]>

  private init() {
    _ = Sodium.ready
    let byteCount = Self.slotByteCount * Self.slotCount
    region = .allocate(byteCount: byteCount, alignment: 4096)
    region.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    // When locking is refused the slots are still wiped on release, like any SecureBytes.
    _ = sodium_mlock(region, byteCount)
    freeSlots = Mutex(Array((0..<Self.slotCount).reversed()))
  }

  /// A zeroed slot of `slotByteCount` bytes, or nil when all are in use.
  func allocate() -> UnsafeMutableRawPointer? {
    guard let slot = freeSlots.withLock({ $0.popLast() }) else { return nil }
    return region + slot * Self.slotByteCount
  }

  /// Returns `pointer`'s slot, wiped, when it belongs to the arena; false otherwise.
  func release(_ pointer: UnsafeMutableRawPointer) -> Bool {
    let offset = pointer - region
    guard offset >= 0, offset < Self.slotByteCount * Self.slotCount else { return false }
    sodium_memzero(pointer, Self.slotByteCount)
    freeSlots.withLock { $0.append(offset / Self.slotByteCount) }
    return true
  }
}

internal import CSodium

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// scrypt (RFC 7914) from libsodium's `crypto_pwhash_scryptsalsa208sha256_ll`.
public enum Scrypt {
  /// The most memory one derivation may take, for writing and reading alike: 2 GiB.
  public static let maximumMemoryByteCount: UInt64 = 1 << 31

  /// The bytes libsodium allocates for one derivation: 128·r·n for V, 128·r·p for B and
  /// 256·r for XY, so 128·r·(n + p + 2). Nil when that does not fit in 64 bits.
  public static func memoryByteCount(n: UInt64, r: UInt32, p: UInt32) -> UInt64? {
    let (blocks, o1) = n.addingReportingOverflow(UInt64(p) + 2)
    let (perBlock, o2) = blocks.multipliedReportingOverflow(by: UInt64(r))
    let (bytes, o3) = perBlock.multipliedReportingOverflow(by: 128)
    return o1 || o2 || o3 ? nil : bytes
  }

  /// The most memory derivations running together may take: `maximumMemoryByteCount` for
  /// all of them, or what the machine has available now when that is less.
  public static func memoryBudget() -> UInt64 {
    min(maximumMemoryByteCount, availableMemoryByteCount() ?? maximumMemoryByteCount)
  }

  /// The memory the machine has available now: Linux's MemAvailable (what can be had without
  /// swapping), else its physical memory; nil when neither can be read.
  public static func availableMemoryByteCount() -> UInt64? {
    if let data = FileManager.default.contents(atPath: "/proc/meminfo"),
      let available = meminfoAvailable(String(decoding: data, as: UTF8.self))
    {
      return available
    }
    let physical = ProcessInfo.processInfo.physicalMemory
    return physical > 0 ? physical : nil
  }

  /// The bytes of `MemAvailable: N kB` in the text of /proc/meminfo.
  package static func meminfoAvailable(_ text: String) -> UInt64? {
    for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
      let fields = line.split(separator: " ")
      guard fields.count == 3, fields[2] == "kB", let kilobytes = UInt64(fields[1]) else {
        return nil
      }
      let (bytes, overflow) = kilobytes.multipliedReportingOverflow(by: 1024)
      return overflow ? nil : bytes
    }
    return nil
  }

  /// How many derivations with these parameters may run together within `budget` bytes
  /// (`memoryBudget()`): 0 when not even one fits.
  public static func parallelDerivations(n: UInt64, r: UInt32, p: UInt32, budget: UInt64) -> Int {
    guard let each = memoryByteCount(n: n, r: r, p: p), each > 0 else { return 0 }
    return Int(min(budget / each, UInt64(Int.max)))
  }

  /// A rough duration of one derivation, from its parameters only: about a second for
  /// n·r·p = 2^21 (geth's standard n = 2^18, r = 8, p = 1) on a current x86-64 core.
  public static func estimatedSeconds(n: UInt64, r: UInt32, p: UInt32) -> Double {
    Double(n) * Double(r) * Double(p) / Double(1 << 21)
  }

  /// The derived key for `password` and `salt` with cost `n` (a power of two), block size `r`
  /// and parallelism `p`. The memory libsodium would allocate is checked against
  /// `maximumMemoryByteCount` before calling it.
  public static func deriveKey(
    password: some ContiguousBytes, salt: some ContiguousBytes, n: UInt64, r: UInt32, p: UInt32,
    keyByteCount: Int
  ) throws(CryptoError) -> SecureBytes {
    guard n > 1, n & (n - 1) == 0, r > 0, p > 0 else { throw .invalidScryptParameters }
    guard let memory = memoryByteCount(n: n, r: r, p: p), memory <= maximumMemoryByteCount else {
      throw .scryptMemoryLimit(
        needed: memoryByteCount(n: n, r: r, p: p) ?? .max, limit: maximumMemoryByteCount)
    }
    _ = Sodium.ready
    var status: Int32 = -1
    let key = SecureBytes(count: keyByteCount) { out in
      password.withUnsafeBytes { password in
        salt.withUnsafeBytes { salt in
          status = crypto_pwhash_scryptsalsa208sha256_ll(
            password.bytePointer, password.count,
            salt.bytePointer, salt.count, n, r, p,
            out.bytePointer, out.count)
        }
      }
    }
    guard status == 0 else { throw .invalidScryptParameters }
    return key
  }
}

internal import CIPSecMB
internal import COpenSSL
internal import CSodium
import Synchronization
import SystemCalls

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// BIP-39 seeds of many candidate phrases at once: PBKDF2-HMAC-SHA512 (RFC 8018), 64-byte keys.
///
/// The fastest engine is freedom-keys' own (`PBKDF2Lanes`): one candidate a 64-bit SIMD
/// lane, 8 with AVX-512 and 4 with AVX2, every iteration in registers. Where Intel's Multi-Buffer Crypto library (libIPSec_MB, Debian `libipsec-mb-dev`, x86-64) can be
/// loaded at run time, the candidates' HMACs run side by side in the SIMD lanes of its AVX-512 or
/// AVX2 manager: every iteration is one `IMB_SUBMIT_HASH_BURST` of `IMB_AUTH_HMAC_SHA_512` jobs,
/// each keyed by the candidate's precomputed inner and outer pad states. Elsewhere (arm64, other
/// distributions, the package missing, a self-test failure) each seed comes from
/// `PBKDF2.hmacSHA512`, with the same result. The library is never a link-time dependency.
///
/// Set `FREEDOM_KEYS_MULTIBUFFER=off` in the environment to use the single-stream code only,
/// `FREEDOM_KEYS_MULTIBUFFER=avx2` to use AVX2 where AVX-512 is available too, or
/// `FREEDOM_KEYS_MULTIBUFFER=ipsec` (or `ipsec-avx2`) for libIPSec_MB's managers.
public enum PBKDF2SHA512Batch {
  /// The byte length of each seed.
  public static let seedByteCount = 64

  /// The code that computes a batch.
  public enum Engine: Sendable, Equatable, CustomStringConvertible {
    /// `PBKDF2.hmacSHA512`, one candidate after another (two SHA-512 compressions an iteration).
    case singleStream
    /// libIPSec_MB's AVX2 manager: 4 candidates a lane group.
    case multiBufferAVX2
    /// libIPSec_MB's AVX-512 manager: 8 candidates a lane group.
    case multiBufferAVX512
    /// freedom-keys' own kernel in AVX2's 4 lanes.
    case lanesAVX2
    /// freedom-keys' own kernel in AVX-512's 8 lanes.
    case lanesAVX512

    public var description: String {
      switch self {
      case .singleStream: "single-stream"
      case .multiBufferAVX2: "multi-buffer AVX2"
      case .multiBufferAVX512: "multi-buffer AVX-512"
      case .lanesAVX2: "SIMD lanes AVX2"
      case .lanesAVX512: "SIMD lanes AVX-512"
      }
    }
  }

  /// One 64-byte seed per phrase, in order: PBKDF2-HMAC-SHA512(password: phrase, salt: `salt`,
  /// `iterations`), on the fastest engine this machine has.
  ///
  /// The phrases and the salt ("mnemonic" + passphrase) must already be NFKD-normalised UTF-8,
  /// as BIP-39 requires; BIP-39 uses 2048 iterations.
  public static func deriveBIP39Seeds(
    mnemonics: [SecureBytes], salt: SecureBytes, iterations: Int
  ) -> [SecureBytes] {
    deriveBIP39Seeds(mnemonics: mnemonics, salt: salt, iterations: iterations, engine: engine)!
  }

  /// The seeds computed by `engine`, or nil when that engine is not available here.
  public static func deriveBIP39Seeds(
    mnemonics: [SecureBytes], salt: SecureBytes, iterations: Int, engine: Engine
  ) -> [SecureBytes]? {
    deriveBIP39Seeds(
      mnemonics: mnemonics, salts: Array(repeating: salt, count: mnemonics.count),
      iterations: iterations, engine: engine)
  }

  /// One seed per phrase, each with its own salt ("mnemonic" + its passphrase): a search over
  /// passphrases fills every SIMD lane even when few phrases pass the checksum.
  public static func deriveBIP39Seeds(
    mnemonics: [SecureBytes], salts: [SecureBytes], iterations: Int
  ) -> [SecureBytes] {
    deriveBIP39Seeds(mnemonics: mnemonics, salts: salts, iterations: iterations, engine: engine)!
  }

  /// The seeds of phrases with their own salts computed by `engine`, or nil when that engine is
  /// not available here.
  public static func deriveBIP39Seeds(
    mnemonics: [SecureBytes], salts: [SecureBytes], iterations: Int, engine: Engine
  ) -> [SecureBytes]? {
    precondition(iterations >= 1, "PBKDF2 needs at least one iteration")
    precondition(salts.count == mnemonics.count, "one salt per phrase")
    if let arch = engine.lanesArchitecture {
      guard PBKDF2Lanes.architectures.contains(arch) else { return nil }
      return PBKDF2Lanes.derive(OpenSSLSHA512.self, arch, mnemonics, salts, iterations)
    }
    guard let arch = engine.multiBufferArchitecture else {
      return singleStream(mnemonics, salts, iterations)
    }
    guard case .success(let library) = loaded, library.architectures.contains(arch) else {
      return nil
    }
    // A job the library refused (it never has) costs speed, never a wrong or missing seed.
    return library.derive(OpenSSLSHA512.self, arch, mnemonics, salts, iterations)
      ?? singleStream(mnemonics, salts, iterations)
  }

  /// How many phrases to pass in one call so every SIMD lane is busy.
  public static var preferredBatchSize: Int { engine == .singleStream ? 16 : 64 }

  /// The engine `deriveBIP39Seeds(mnemonics:salt:iterations:)` uses on this machine.
  public static var engine: Engine {
    let available = availableEngines
    // FREEDOM_KEYS_MULTIBUFFER picks another engine than the fastest, where it is available.
    let requested: [Engine] =
      switch requestedByEnvironment {
      case "off": [.singleStream]
      case "avx2": [.lanesAVX2, .multiBufferAVX2]
      case "ipsec": [.multiBufferAVX512, .multiBufferAVX2]
      case "ipsec-avx2": [.multiBufferAVX2]
      default: []
      }
    return requested.first(where: available.contains) ?? available.last ?? .singleStream
  }

  /// Every engine that works here, slowest first; `.singleStream` always.
  public static var availableEngines: [Engine] {
    [.singleStream] + multiBufferEngines + PBKDF2Lanes.architectures.map(\.lanesEngine)
  }

  /// libIPSec_MB's managers that work here, slowest first (SHA-256 has only these).
  static var multiBufferEngines: [Engine] {
    guard case .success(let library) = loaded else { return [] }
    return library.architectures.map(\.engine)
  }

  /// Why no multi-buffer engine is available, or nil when one is.
  public static var multiBufferUnavailableReason: String? {
    switch loaded {
    case .success: nil
    case .failure(let reason): reason.text
    }
  }

  /// The loaded library's version ("1.3.0"), or nil.
  public static var multiBufferLibraryVersion: String? {
    guard case .success(let library) = loaded else { return nil }
    return library.version
  }

  private static let requestedByEnvironment =
    ProcessInfo.processInfo.environment["FREEDOM_KEYS_MULTIBUFFER"]

  private static func singleStream(
    _ mnemonics: [SecureBytes], _ salts: [SecureBytes], _ iterations: Int
  ) -> [SecureBytes] {
    zip(mnemonics, salts).map {
      PBKDF2.hmacSHA512(
        password: $0, salt: $1, iterations: iterations, keyByteCount: seedByteCount)
    }
  }

  // MARK: - The library, loaded once

  static let loaded: Result<MultiBufferLibrary, Unavailable> = MultiBufferLibrary.load()

  struct Unavailable: Error {
    let text: String
    var isSelfTestFailure = false
  }

  /// True when libIPSec_MB loaded but computed a wrong known answer, so it is not used: a bug
  /// in this code or in the library, never a missing package.
  public static var multiBufferFailedSelfTest: Bool {
    switch loaded {
    case .success: false
    case .failure(let reason): reason.isSelfTestFailure
    }
  }

  enum Architecture: Sendable {
    case avx2, avx512

    var engine: Engine { self == .avx2 ? .multiBufferAVX2 : .multiBufferAVX512 }
    var lanesEngine: Engine { self == .avx2 ? .lanesAVX2 : .lanesAVX512 }
  }
}

extension PBKDF2SHA512Batch.Engine {
  /// The libIPSec_MB manager the engine runs on, if it is one.
  var multiBufferArchitecture: PBKDF2SHA512Batch.Architecture? {
    switch self {
    case .multiBufferAVX2: .avx2
    case .multiBufferAVX512: .avx512
    case .singleStream, .lanesAVX2, .lanesAVX512: nil
    }
  }

  /// The instruction set of freedom-keys' own kernel the engine runs, if it is one.
  var lanesArchitecture: PBKDF2SHA512Batch.Architecture? {
    switch self {
    case .lanesAVX2: .avx2
    case .lanesAVX512: .avx512
    case .singleStream, .multiBufferAVX2, .multiBufferAVX512: nil
    }
  }

  /// Whether libIPSec_MB computes it.
  public var usesMultiBufferLibrary: Bool { multiBufferArchitecture != nil }
}

/// A SHA-2 whose HMAC libIPSec_MB computes in its lanes, keyed by precomputed pad states.
protocol MultiBufferHMAC: OpenSSLSHA2 {
  /// Makes `job` an HMAC job with a full-length tag from the two pad states.
  static func prepare(
    job: UnsafeMutableRawPointer, ipad: UnsafeMutableRawPointer, opad: UnsafeMutableRawPointer)
  /// IMB_SUBMIT_HASH_BURST of `count` such jobs; how many completed.
  static func submitBurst(
    _ manager: UnsafeMutableRawPointer, _ jobs: UnsafeMutableRawPointer, _ count: UInt32
  )
    -> UInt32
}

extension OpenSSLSHA512: MultiBufferHMAC {
  static func prepare(
    job: UnsafeMutableRawPointer, ipad: UnsafeMutableRawPointer, opad: UnsafeMutableRawPointer
  ) { fk_imb_job_prepare_hmac_sha512(job, ipad, opad) }
  static func submitBurst(
    _ manager: UnsafeMutableRawPointer, _ jobs: UnsafeMutableRawPointer, _ count: UInt32
  )
    -> UInt32
  { fk_imb_submit_hmac_sha512_burst(manager, jobs, count) }
}

extension OpenSSLSHA256: MultiBufferHMAC {
  static func prepare(
    job: UnsafeMutableRawPointer, ipad: UnsafeMutableRawPointer, opad: UnsafeMutableRawPointer
  ) { fk_imb_job_prepare_hmac_sha256(job, ipad, opad) }
  static func submitBurst(
    _ manager: UnsafeMutableRawPointer, _ jobs: UnsafeMutableRawPointer, _ count: UInt32
  )
    -> UInt32
  { fk_imb_submit_hmac_sha256_burst(manager, jobs, count) }
}

/// libIPSec_MB opened with dlopen: its entry points, and idle managers to reuse (setting one up
/// costs about 0.3 ms, a batch of 64 seeds about 18 ms).
final class MultiBufferLibrary: @unchecked Sendable {
  typealias Architecture = PBKDF2SHA512Batch.Architecture
  typealias Unavailable = PBKDF2SHA512Batch.Unavailable

  /// Debian's soname for the 1.x ABI.
  static let sonames = ["libIPSec_MB.so.1"]

  private let managerByteCount: Int
  private let setPointers:
    @convention(c) (UnsafeMutableRawPointer?, UInt64, UInt32) -> UnsafeMutableRawPointer?
  private let initAVX2: @convention(c) (UnsafeMutableRawPointer?) -> Void
  private let initAVX512: @convention(c) (UnsafeMutableRawPointer?) -> Void
  let version: String
  /// Whether the library wipes candidate data from its lanes after each job (its SAFE_DATA
  /// build, as Debian's is); without it a manager is wiped and freed after each batch.
  private(set) var clearsItsLanes = false
  /// The managers the CPU can run, slowest first.
  private(set) var architectures: [Architecture] = []
  private let idle = Mutex<[Architecture: [ManagerMemory]]>([:])

  /// A manager's memory: ours, so it is locked and can be wiped.
  struct ManagerMemory: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
  }

  private init(
    managerByteCount: Int,
    setPointers:
      @escaping @convention(c) (UnsafeMutableRawPointer?, UInt64, UInt32) ->
      UnsafeMutableRawPointer?,
    initAVX2: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void,
    initAVX512: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void,
    version: String
  ) {
    self.managerByteCount = managerByteCount
    self.setPointers = setPointers
    self.initAVX2 = initAVX2
    self.initAVX512 = initAVX512
    self.version = version
  }

  static func load() -> Result<MultiBufferLibrary, Unavailable> {
    #if arch(x86_64) && os(Linux)
      let headerVersion = fk_imb_header_version()
      guard headerVersion != 0 else {
        return .failure(
          Unavailable(
            text: "built without intel-ipsec-mb.h (install libipsec-mb-dev and rebuild)"))
      }
      guard let handle = Platform.openLibrary(sonames) else {
        return .failure(
          Unavailable(text: "\(sonames[0]) not found (install the libipsec-mb1 package)"))
      }
      func symbol<T>(_ name: String, as type: T.Type) -> T? {
        Platform.symbol(handle, name, as: type)
      }
      guard
        let getVersion = symbol("imb_get_version", as: (@convention(c) () -> UInt32).self),
        let getVersionText = symbol(
          "imb_get_version_str", as: (@convention(c) () -> UnsafePointer<CChar>?).self),
        let getSize = symbol("imb_get_mb_mgr_size", as: (@convention(c) () -> Int).self),
        let getFeatures = symbol("imb_get_feature_flags", as: (@convention(c) () -> UInt64).self),
        let setPointers = symbol(
          "imb_set_pointers_mb_mgr",
          as: (@convention(c) (UnsafeMutableRawPointer?, UInt64, UInt32) ->
            UnsafeMutableRawPointer?).self),
        let initAVX2 = symbol(
          "init_mb_mgr_avx2", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self),
        let initAVX512 = symbol(
          "init_mb_mgr_avx512", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
      else {
        return .failure(Unavailable(text: "\(sonames[0]) lacks an expected function"))
      }
      let version = getVersionText().map { String(cString: $0) } ?? "?"
      // The job and manager layouts are those of the header: only the same major.minor agrees.
      guard getVersion() >> 8 == headerVersion >> 8 else {
        return .failure(
          Unavailable(
            text: "\(sonames[0]) is version \(version), this build expects "
              + "\(headerVersion >> 16).\((headerVersion >> 8) & 0xff)"))
      }
      let library = MultiBufferLibrary(
        managerByteCount: getSize(), setPointers: setPointers, initAVX2: initAVX2,
        initAVX512: initAVX512, version: version)
      let features = getFeatures()
      library.clearsItsLanes = features & fk_imb_safe_data_flag() == fk_imb_safe_data_flag()
      var failedSelfTest: [Architecture] = []
      for (arch, flags) in [
        (Architecture.avx2, fk_imb_avx2_cpu_flags()), (.avx512, fk_imb_avx512_cpu_flags()),
      ] where features & flags == flags {
        if library.passesSelfTest(arch) {
          library.architectures.append(arch)
        } else {
          failedSelfTest.append(arch)
        }
      }
      // A manager that gets a known answer wrong is never used; a test run reports it as a bug.
      guard failedSelfTest.isEmpty else {
        return .failure(
          Unavailable(
            text: "libIPSec_MB \(version) failed its self-test on \(failedSelfTest.map(\.engine))",
            isSelfTestFailure: true))
      }
      guard !library.architectures.isEmpty else {
        return .failure(
          Unavailable(text: "this CPU has neither AVX2 nor AVX-512 for libIPSec_MB"))
      }
      return .success(library)
    #else
      return .failure(Unavailable(text: "libIPSec_MB exists only for x86-64 Linux"))
    #endif
  }

  /// Known answers against the single-stream code, before any seed is trusted to a manager:
  /// an empty password, one that fills a block and one longer than a block (hashed first).
  private func passesSelfTest(_ arch: Architecture) -> Bool {
    let passwords = [0, 1, 111, 128, 129, 200].map { count in
      SecureBytes(count: count) { out in
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: i &* 7 &+ count) }
      }
    }
    // Salts of their own too: "mnemonic" + passphrases of several lengths.
    let salts = passwords.indices.map { index in
      SecureBytes(utf8: "mnemonic" + String(repeating: "TREZOR", count: index % 3))
    }
    for iterations in [1, 3] {
      guard let batch = derive(OpenSSLSHA512.self, arch, passwords, salts, iterations),
        let batch256 = derive(OpenSSLSHA256.self, arch, passwords, salts, iterations)
      else { return false }
      for index in passwords.indices {
        let expected = PBKDF2.hmacSHA512(
          password: passwords[index], salt: salts[index], iterations: iterations,
          keyByteCount: PBKDF2SHA512Batch.seedByteCount)
        let expected256 = PBKDF2.hmacSHA256(
          password: passwords[index], salt: salts[index], iterations: iterations,
          keyByteCount: OpenSSLSHA256.digestByteCount)
        guard batch[index] == expected, batch256[index] == expected256 else { return false }
      }
    }
    return true
  }

  // MARK: Managers

  private func takeManager(_ arch: Architecture) -> (ManagerMemory, UnsafeMutableRawPointer)? {
    if let memory = idle.withLock({ $0[arch]?.popLast() }) {
      return (memory, memory.pointer)
    }
    guard let pointer = aligned(managerByteCount) else { return nil }
    _ = sodium_mlock(pointer, managerByteCount)
    guard let manager = setPointers(pointer, 0, 1) else {
      release(pointer)
      return nil
    }
    switch arch {
    case .avx2: initAVX2(manager)
    case .avx512: initAVX512(manager)
    }
    guard fk_imb_manager_errno(manager) == 0 else {
      release(pointer)
      return nil
    }
    return (ManagerMemory(pointer: pointer), manager)
  }

  private func returnManager(_ arch: Architecture, _ memory: ManagerMemory) {
    guard clearsItsLanes else { return release(memory.pointer) }
    idle.withLock { $0[arch, default: []].append(memory) }
  }

  private func release(_ pointer: UnsafeMutableRawPointer) {
    sodium_memzero(pointer, managerByteCount)
    _ = sodium_munlock(pointer, managerByteCount)
    pointer.deallocate()
  }

  private func aligned(_ count: Int) -> UnsafeMutableRawPointer? {
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
    pointer.initializeMemory(as: UInt8.self, repeating: 0, count: count)
    return pointer
  }

  // MARK: Derivation

  /// The most jobs one burst takes (IMB_MAX_BURST_SIZE).
  private static let maxBurst = 128

  /// PBKDF2-HMAC-`H` of `passwords` with their `salts`, one block (a digest's length) each, on
  /// `arch`'s manager, or nil if the library refused a job.
  func derive<H: MultiBufferHMAC>(
    _ hash: H.Type, _ arch: Architecture, _ passwords: [SecureBytes], _ salts: [SecureBytes],
    _ iterations: Int
  ) -> [SecureBytes]? {
    guard !passwords.isEmpty else { return [] }
    guard let (memory, manager) = takeManager(arch) else { return nil }
    defer { returnManager(arch, memory) }
    var seeds: [SecureBytes] = []
    seeds.reserveCapacity(passwords.count)
    var start = 0
    while start < passwords.count {
      let end = min(start + Self.maxBurst, passwords.count)
      guard
        let done = deriveBurst(
          H.self, manager, passwords[start..<end], salts[start..<end], iterations)
      else { return nil }
      seeds += done
      start = end
    }
    return seeds
  }

  /// One burst of at most `maxBurst` candidates, every intermediate in one locked allocation that
  /// is wiped before it is freed: per candidate a job, the two pad states, U in two alternating
  /// buffers, the running XOR T and the first message `salt ‖ INT(1)`; shared, the scratch of
  /// the pad precomputation.
  private func deriveBurst<H: MultiBufferHMAC>(
    _ hash: H.Type, _ manager: UnsafeMutableRawPointer, _ passwords: ArraySlice<SecureBytes>,
    _ salts: ArraySlice<SecureBytes>, _ iterations: Int
  ) -> [SecureBytes]? {
    let count = passwords.count
    // The burst takes an array of IMB_JOB: the jobs are packed at the struct's own stride.
    let jobBytes = fk_imb_job_byte_count()
    let jobsBytes = (count * jobBytes + 63) & ~63
    let digest = H.digestByteCount
    let laneBytes = 5 * digest
    let contextBytes = (MemoryLayout<H.Context>.stride + 63) & ~63
    let firstMessagesBytes = salts.reduce(0) { $0 + $1.count + 4 }
    let total =
      jobsBytes + count * laneBytes + 2 * contextBytes + H.blockByteCount + firstMessagesBytes
    return withLockedScratch(byteCount: total) { base in
      deriveBurst(
        H.self, manager, passwords, salts, iterations, scratch: base, jobBytes: jobBytes,
        jobsBytes: jobsBytes, contextBytes: contextBytes)
    }
  }

  private func deriveBurst<H: MultiBufferHMAC>(
    _ hash: H.Type, _ manager: UnsafeMutableRawPointer, _ passwords: ArraySlice<SecureBytes>,
    _ salts: ArraySlice<SecureBytes>, _ iterations: Int, scratch base: UnsafeMutableRawPointer,
    jobBytes: Int, jobsBytes: Int, contextBytes: Int
  ) -> [SecureBytes]? {
    let count = passwords.count
    let digest = H.digestByteCount
    let laneBytes = 5 * digest
    let jobs = base
    let lanes = base + jobsBytes
    let inner = (lanes + count * laneBytes).bindMemory(to: H.Context.self, capacity: 1)
    let outer = (UnsafeMutableRawPointer(inner) + contextBytes).bindMemory(
      to: H.Context.self, capacity: 1)
    let pad = UnsafeMutableRawPointer(outer) + contextBytes
    var firstMessage = pad + H.blockByteCount
    func job(_ i: Int) -> UnsafeMutableRawPointer { jobs + i * jobBytes }
    func ipad(_ i: Int) -> UnsafeMutableRawPointer { lanes + i * laneBytes }
    func opad(_ i: Int) -> UnsafeMutableRawPointer { ipad(i) + digest }
    func u(_ i: Int, _ which: Int) -> UnsafeMutableRawPointer { ipad(i) + (2 + which) * digest }
    func t(_ i: Int) -> UnsafeMutableRawPointer { ipad(i) + 4 * digest }

    // RFC 2104 keying, the compressions OpenSSL's: the state words after K ⊕ ipad and K ⊕ opad.
    let padBuffer = UnsafeMutableRawBufferPointer(start: pad, count: H.blockByteCount)
    for (i, password) in passwords.enumerated() {
      password.withUnsafeBytes { H.keyHMAC($0, inner: inner, outer: outer, pad: padBuffer) }
      ipad(i).copyMemory(from: UnsafeRawPointer(inner) + H.stateOffset, byteCount: digest)
      opad(i).copyMemory(from: UnsafeRawPointer(outer) + H.stateOffset, byteCount: digest)
      H.prepare(job: job(i), ipad: ipad(i), opad: opad(i))
      let salt = salts[salts.startIndex + i]
      salt.withUnsafeBytes {
        if $0.count > 0 { firstMessage.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
      }
      firstMessage.storeBytes(of: UInt32(1).bigEndian, toByteOffset: salt.count, as: UInt32.self)
      fk_imb_job_set_message(job(i), firstMessage, UInt64(salt.count + 4), u(i, 0))
      firstMessage += salt.count + 4
    }
    sodium_memzero(inner, 2 * contextBytes)

    // U_1 = HMAC(P, S ‖ INT(1)), then U_j = HMAC(P, U_{j−1}) with U alternating between two
    // buffers; T = U_1 ⊕ … ⊕ U_c. XOR is bytewise, so T needs no byte swapping.
    guard submit(H.self, manager, jobs, jobBytes, count) else { return nil }
    for i in 0..<count { t(i).copyMemory(from: u(i, 0), byteCount: digest) }
    let words = digest / 8
    for iteration in 1..<iterations {
      let source = (iteration - 1) & 1
      for i in 0..<count {
        fk_imb_job_set_message(job(i), u(i, source), UInt64(digest), u(i, source ^ 1))
      }
      guard submit(H.self, manager, jobs, jobBytes, count) else { return nil }
      for i in 0..<count {
        let out = u(i, source ^ 1).assumingMemoryBound(to: UInt64.self)
        let sum = t(i).assumingMemoryBound(to: UInt64.self)
        for w in 0..<words { sum[w] ^= out[w] }
      }
    }
    return (0..<count).map { i in
      SecureBytes(count: digest) { $0.baseAddress!.copyMemory(from: t(i), byteCount: digest) }
    }
  }

  /// One burst; false unless the library completed every job.
  private func submit<H: MultiBufferHMAC>(
    _ hash: H.Type, _ manager: UnsafeMutableRawPointer, _ jobs: UnsafeMutableRawPointer,
    _ jobBytes: Int, _ count: Int
  ) -> Bool {
    guard H.submitBurst(manager, jobs, UInt32(count)) == count else {
      return false
    }
    return (0..<count).allSatisfy { fk_imb_job_completed(jobs + $0 * jobBytes) != 0 }
  }
}

internal import COpenCL
import Synchronization

/// PBKDF2-HMAC-SHA512 (BIP-39 seeds) and PBKDF2-HMAC-SHA256 (vaults, PBKDF2 keystores) on an
/// OpenCL device, one candidate a work item: the kernels of `OpenCLKernelSource`, built by the
/// driver when the device is first opened (drivers keep their own cache of built programs) and
/// checked against `PBKDF2`'s known answers before any candidate is trusted to them.
///
/// Candidates and keys stay in `SecureBytes` on the host; the device's buffers are filled with
/// zeros before they are released. Several threads may derive at once: each call takes a
/// command queue of its own, so one batch runs while another is packed or read back.
public final class OpenCLPBKDF2: @unchecked Sendable {
  /// The device the kernels run on.
  public let device: OpenCLDevice
  private let library: OpenCLLibrary
  private let context: fk_cl_context
  private let deviceID: fk_cl_device_id
  private let sha512Program: fk_cl_program
  private let sha256Program: fk_cl_program
  /// Queues (with a kernel of each hash) not in use; a call takes one or makes one.
  private let idle = Mutex<[Queue]>([])
  /// The batch size measured on this device when it was opened (`OpenCLBatchSize`); set once,
  /// before the engine is handed out.
  public private(set) var batchSize: OpenCLBatchSize
  /// The calls (numbered from 0, each `derive…` one) that fail as a device failure would:
  /// empty, except on an engine a test made with `failing(calls:)`.
  private let faults: Set<Int>
  private let calls = Atomic<Int>(0)
  /// The calls made so far, on an engine a test made with `failing(calls:)` (0 on others).
  package var callCount: Int { calls.load(ordering: .relaxed) }

  /// A command queue with its own kernel objects (clSetKernelArg is not safe across threads on
  /// one kernel).
  private struct Queue: @unchecked Sendable {
    let queue: fk_cl_command_queue
    let sha512: fk_cl_kernel
    let sha256: fk_cl_kernel
    let ed25519: fk_cl_kernel
  }

  /// The hash a kernel build computes.
  enum Hash: Sendable {
    case sha512, sha256
    var digestByteCount: Int { self == .sha512 ? 64 : 32 }
  }

  /// The engines opened, by device number: a device's kernels are built once a process.
  private static let opened = Mutex<[Int: OpenCLPBKDF2]>([:])

  /// The engine on `device`, its kernels built and self-tested at the first call.
  public static func open(_ device: OpenCLDevice) throws(OpenCLError) -> OpenCLPBKDF2 {
    try opened.withLock { engines throws(OpenCLError) -> OpenCLPBKDF2 in
      if let engine = engines[device.number] { return engine }
      let engine = try OpenCLPBKDF2(device: device, library: OpenCLLibrary.loaded.get())
      try engine.selfTest()
      engine.batchSize = try engine.measureBatchSize()
      engines[device.number] = engine
      return engine
    }
  }

  private init(device: OpenCLDevice, library: OpenCLLibrary) throws(OpenCLError) {
    self.device = device
    self.library = library
    guard let id = fk_cl_device_id(bitPattern: device.handle) else { throw .noDevice }
    deviceID = id
    var code: fk_cl_int = 0
    var ids: [fk_cl_device_id?] = [id]
    guard let context = library.createContext(nil, 1, &ids, nil, nil, &code) else {
      throw .callFailed(function: "clCreateContext", code: code)
    }
    try OpenCLLibrary.check(code, "clCreateContext")
    self.context = context
    sha512Program = try Self.build(library, context, id, OpenCLKernelSource.sha512Options)
    sha256Program = try Self.build(library, context, id, OpenCLKernelSource.sha256Options)
    let first = OpenCLBatchSize.bounds(computeUnits: device.computeUnits, largest: Self.maxLaunch)
    batchSize = OpenCLBatchSize(chosen: first.lowerBound, trials: [], iterations: 0)
    faults = []
  }

  /// The same device, programs and batch size, with queues of its own, whose calls numbered
  /// in `calls` (from 0) throw as a failing device does, for tests of what a search does then.
  package func failing(calls: Set<Int>) -> OpenCLPBKDF2 {
    OpenCLPBKDF2(sharing: self, faults: calls)
  }

  private init(sharing engine: OpenCLPBKDF2, faults: Set<Int>) {
    device = engine.device
    library = engine.library
    context = engine.context
    deviceID = engine.deviceID
    sha512Program = engine.sha512Program
    sha256Program = engine.sha256Program
    batchSize = engine.batchSize
    self.faults = faults
  }

  private static func build(
    _ library: OpenCLLibrary, _ context: fk_cl_context, _ device: fk_cl_device_id,
    _ options: String
  ) throws(OpenCLError) -> fk_cl_program {
    var code: fk_cl_int = 0
    let source = OpenCLKernelSource.text
    let created: fk_cl_program? = source.withCString { text in
      var strings: [UnsafePointer<CChar>?] = [text]
      var lengths = [source.utf8.count]
      return library.createProgramWithSource(context, 1, &strings, &lengths, &code)
    }
    guard let program = created else {
      throw .callFailed(function: "clCreateProgramWithSource", code: code)
    }
    var devices: [fk_cl_device_id?] = [device]
    let built = library.buildProgram(program, 1, &devices, options, nil, nil)
    guard built == FK_CL_SUCCESS else {
      let log = library.text {
        library.getProgramBuildInfo(
          program, device, fk_cl_uint(FK_CL_PROGRAM_BUILD_LOG), $0, $1, $2)
      }
      _ = library.releaseProgram(program)
      throw .buildFailed(
        log: String(log.split(whereSeparator: \.isNewline).first ?? "error \(built)"))
    }
    return program
  }

  /// How many candidates to pass in one call: the batch size measured on this device when it
  /// was first opened (`batchSize`).
  public var preferredBatchSize: Int { batchSize.chosen }

  /// Times the SHA-512 kernel on growing batches of BIP-39-like inputs (sentences of 90 bytes,
  /// the salt "mnemonic"), as `OpenCLBatchSize.measure` says: each size twice, the faster
  /// kept, so that a moment another process takes the cores (PoCL's device is the CPU) is
  /// not read as the device's speed.
  private func measureBatchSize() throws(OpenCLError) -> OpenCLBatchSize {
    let sizes = OpenCLBatchSize.bounds(computeUnits: device.computeUnits, largest: Self.maxLaunch)
    let sentence = SecureBytes(Array(repeating: 0x61, count: 90))
    let salt = SecureBytes(utf8: "mnemonic")
    let clock = ContinuousClock()
    return try OpenCLBatchSize.measure(sizes: sizes) { size throws(OpenCLError) -> Double in
      let passwords = Array(repeating: sentence, count: size)
      let salts = Array(repeating: salt, count: size)
      var fastest = Double.infinity
      for _ in 0..<2 {
        let start = clock.now
        _ = try derive(.sha512, passwords, salts, OpenCLBatchSize.iterations)
        let elapsed = clock.now - start
        fastest = min(
          fastest,
          Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
      }
      return fastest
    }
  }

  // MARK: Deriving

  /// One 64-byte seed per phrase: PBKDF2-HMAC-SHA512(password: mnemonics[i], salt: salts[i],
  /// iterations), as `PBKDF2SHA512Batch.deriveBIP39Seeds` computes it.
  public func deriveBIP39Seeds(
    mnemonics: [SecureBytes], salts: [SecureBytes], iterations: Int
  ) throws(OpenCLError) -> [SecureBytes] {
    try derive(.sha512, mnemonics, salts, iterations)
  }

  /// One 32-byte key per password: PBKDF2-HMAC-SHA256(password: passwords[i], salt: salts[i],
  /// iterations), as `PBKDF2SHA256Batch.deriveKeys` computes it.
  public func deriveSHA256Keys(
    passwords: [SecureBytes], salts: [SecureBytes], iterations: Int
  ) throws(OpenCLError) -> [SecureBytes] {
    try derive(.sha256, passwords, salts, iterations)
  }

  /// The BIP-39 seed of each phrase (PBKDF2-HMAC-SHA512 as `deriveBIP39Seeds`), then the
  /// SLIP-0010 Ed25519 nodes of `steps` from it, in one launch: per phrase, the keys of
  /// `steps.outputs` (32 bytes each, end to end, as `SLIP10Ed25519Steps.keys(seed:)`), and
  /// its seed only when `keepingSeeds` (else `seeds` is empty and no seed leaves the device).
  public func deriveBIP39Ed25519Keys(
    mnemonics: [SecureBytes], salts: [SecureBytes], iterations: Int,
    steps: SLIP10Ed25519Steps, keepingSeeds: Bool
  ) throws(OpenCLError) -> (seeds: [SecureBytes], keys: [SecureBytes]) {
    let (seeds, keys) = try run(
      .ed25519(steps, keepingSeeds: keepingSeeds), mnemonics, salts, iterations)
    return (seeds, keys)
  }

  /// What one launch computes.
  enum Kernel {
    /// PBKDF2 alone.
    case pbkdf2(Hash)
    /// BIP-39 seeds and their Ed25519 chains.
    case ed25519(SLIP10Ed25519Steps, keepingSeeds: Bool)
  }

  /// The most work items one launch takes: the packed lengths are 32-bit offsets, and a
  /// launch this size stays far below them and below any device's allocation limit.
  private static let maxLaunch = 1 << 18
  /// The most bytes of Ed25519 nodes (64 a node and work item) one launch keeps on the device.
  private static let maxNodeBytes = 64 << 20

  func derive(
    _ hash: Hash, _ passwords: [SecureBytes], _ salts: [SecureBytes], _ iterations: Int
  ) throws(OpenCLError) -> [SecureBytes] {
    try run(.pbkdf2(hash), passwords, salts, iterations).0
  }

  /// `kernel` over every password, in launches of at most `maxLaunch` work items (and at most
  /// `maxNodeBytes` of nodes): the digests (or seeds) and the Ed25519 keys.
  private func run(
    _ kernel: Kernel, _ passwords: [SecureBytes], _ salts: [SecureBytes], _ iterations: Int
  ) throws(OpenCLError) -> ([SecureBytes], [SecureBytes]) {
    precondition(iterations >= 1 && iterations <= Int(UInt32.max), "PBKDF2 iterations")
    precondition(salts.count == passwords.count, "one salt per password")
    guard !passwords.isEmpty else { return ([], []) }
    if !faults.isEmpty, faults.contains(calls.add(1, ordering: .relaxed).oldValue) {
      throw .callFailed(function: "clEnqueueNDRangeKernel (a fault a test injected)", code: -5)
    }
    let queue = try takeQueue()
    defer { idle.withLock { $0.append(queue) } }
    var launchSize = Self.maxLaunch
    if case .ed25519(let steps, _) = kernel {
      launchSize = min(launchSize, max(1, Self.maxNodeBytes / (64 * steps.nodeCount)))
    }
    var digests: [SecureBytes] = []
    var keys: [SecureBytes] = []
    var start = 0
    while start < passwords.count {
      let end = min(passwords.count, start + launchSize)
      let (some, more) = try launch(
        kernel, queue, passwords[start..<end], salts[start..<end], UInt32(iterations))
      digests += some
      keys += more
      start = end
    }
    return (digests, keys)
  }

  private func takeQueue() throws(OpenCLError) -> Queue {
    if let queue = idle.withLock({ $0.popLast() }) { return queue }
    var code: fk_cl_int = 0
    guard let queue = library.createCommandQueue(context, deviceID, 0, &code) else {
      throw .callFailed(function: "clCreateCommandQueue", code: code)
    }
    guard let sha512 = library.createKernel(sha512Program, OpenCLKernelSource.kernelName, &code)
    else {
      _ = library.releaseCommandQueue(queue)
      throw .callFailed(function: "clCreateKernel", code: code)
    }
    guard let sha256 = library.createKernel(sha256Program, OpenCLKernelSource.kernelName, &code)
    else {
      _ = library.releaseKernel(sha512)
      _ = library.releaseCommandQueue(queue)
      throw .callFailed(function: "clCreateKernel", code: code)
    }
    guard
      let ed25519 = library.createKernel(
        sha512Program, OpenCLKernelSource.ed25519KernelName, &code)
    else {
      _ = library.releaseKernel(sha256)
      _ = library.releaseKernel(sha512)
      _ = library.releaseCommandQueue(queue)
      throw .callFailed(function: "clCreateKernel", code: code)
    }
    return Queue(queue: queue, sha512: sha512, sha256: sha256, ed25519: ed25519)
  }

  /// The candidates packed end to end in one zeroizing buffer, and each one's end offset
  /// (32-bit, in another: lengths are part of the secret).
  private static func pack(_ items: ArraySlice<SecureBytes>) -> (SecureBytes, SecureBytes) {
    let total = items.reduce(0) { $0 + $1.count }
    let bytes = SecureBytes(count: total) { out in
      var offset = 0
      for item in items {
        item.withUnsafeBytes { source in
          guard let base = source.baseAddress, source.count > 0 else { return }
          (out.baseAddress! + offset).copyMemory(from: base, byteCount: source.count)
        }
        offset += item.count
      }
    }
    let ends = SecureBytes(count: 4 * items.count) { out in
      var offset: UInt32 = 0
      for (index, item) in items.enumerated() {
        offset += UInt32(item.count)
        out.storeBytes(of: offset, toByteOffset: 4 * index, as: UInt32.self)
      }
    }
    return (bytes, ends)
  }

  /// One launch: the inputs written, the kernel run, the digests (or seeds) and Ed25519 keys
  /// read back, then every buffer filled with zeros on the device and released, on success or
  /// failure alike.
  private func launch(
    _ kind: Kernel, _ queue: Queue, _ passwords: ArraySlice<SecureBytes>,
    _ salts: ArraySlice<SecureBytes>, _ iterations: UInt32
  ) throws(OpenCLError) -> ([SecureBytes], [SecureBytes]) {
    let count = passwords.count
    let (passwordBytes, passwordEnds) = Self.pack(passwords)
    let (saltBytes, saltEnds) = Self.pack(salts)
    var buffers: [(fk_cl_mem, Int)] = []
    defer { wipeAndRelease(buffers, queue.queue) }
    func buffer(_ byteCount: Int, _ flags: UInt64) throws(OpenCLError) -> fk_cl_mem {
      var code: fk_cl_int = 0
      // A buffer of no bytes is an error in OpenCL: an empty input gets one unused byte.
      let size = max(1, byteCount)
      guard let memory = library.createBuffer(context, flags, size, nil, &code) else {
        throw .callFailed(function: "clCreateBuffer", code: code)
      }
      buffers.append((memory, size))
      return memory
    }
    func input(_ bytes: SecureBytes) throws(OpenCLError) -> fk_cl_mem {
      let memory = try buffer(bytes.count, FK_CL_MEM_READ_ONLY)
      guard bytes.count > 0 else { return memory }
      let code = bytes.withUnsafeBytes {
        library.enqueueWriteBuffer(
          queue.queue, memory, FK_CL_TRUE, 0, $0.count, $0.baseAddress, 0, nil, nil)
      }
      try OpenCLLibrary.check(code, "clEnqueueWriteBuffer")
      return memory
    }
    func read(_ memory: fk_cl_mem, _ byteCount: Int) throws(OpenCLError) -> SecureBytes {
      var failure: OpenCLError?
      let bytes = SecureBytes(count: byteCount) { out in
        let code = library.enqueueReadBuffer(
          queue.queue, memory, FK_CL_TRUE, 0, out.count, out.baseAddress, 0, nil, nil)
        if code != FK_CL_SUCCESS {
          failure = .callFailed(function: "clEnqueueReadBuffer", code: code)
        }
      }
      if let failure { throw failure }
      return bytes
    }
    func split(_ bytes: SecureBytes, _ each: Int) -> [SecureBytes] {
      (0..<count).map { bytes[$0 * each..<($0 + 1) * each] }
    }
    let kernel: fk_cl_kernel
    switch kind {
    case .pbkdf2(let hash): kernel = hash == .sha512 ? queue.sha512 : queue.sha256
    case .ed25519: kernel = queue.ed25519
    }
    var argument: fk_cl_uint = 0
    func pass(_ memory: fk_cl_mem) throws(OpenCLError) {
      var memory = memory
      try OpenCLLibrary.check(
        library.setKernelArg(kernel, argument, MemoryLayout<fk_cl_mem>.size, &memory),
        "clSetKernelArg")
      argument += 1
    }
    func pass(_ value: UInt32) throws(OpenCLError) {
      var value = value
      try OpenCLLibrary.check(library.setKernelArg(kernel, argument, 4, &value), "clSetKernelArg")
      argument += 1
    }
    for bytes in [passwordBytes, passwordEnds, saltBytes, saltEnds] { try pass(try input(bytes)) }
    try pass(iterations)
    try pass(UInt32(count))
    var outputs: [(memory: fk_cl_mem, each: Int)] = []
    switch kind {
    case .pbkdf2(let hash):
      let digests = try buffer(count * hash.digestByteCount, FK_CL_MEM_WRITE_ONLY)
      try pass(digests)
      outputs.append((digests, hash.digestByteCount))
    case .ed25519(let steps, let keepingSeeds):
      // Public: the shape of the tree (parent, index per step) and the outputs' nodes.
      let table = SecureBytes(count: 8 * steps.steps.count + 4 * steps.outputs.count) { out in
        for (position, step) in steps.steps.enumerated() {
          out.storeBytes(of: UInt32(step.parent), toByteOffset: 8 * position, as: UInt32.self)
          out.storeBytes(of: step.index, toByteOffset: 8 * position + 4, as: UInt32.self)
        }
        for (position, node) in steps.outputs.enumerated() {
          out.storeBytes(
            of: UInt32(node), toByteOffset: 8 * steps.steps.count + 4 * position,
            as: UInt32.self)
        }
      }
      try pass(try input(table[0..<8 * steps.steps.count]))
      try pass(UInt32(steps.nodeCount))
      try pass(try input(table[8 * steps.steps.count..<table.count]))
      try pass(UInt32(steps.outputs.count))
      try pass(keepingSeeds ? 1 : 0)
      let seeds = try buffer(keepingSeeds ? count * 64 : 0, FK_CL_MEM_WRITE_ONLY)
      let keys = try buffer(count * 32 * steps.outputs.count, FK_CL_MEM_WRITE_ONLY)
      try pass(seeds)
      try pass(keys)
      try pass(try buffer(count * 64 * steps.nodeCount, FK_CL_MEM_READ_WRITE))
      if keepingSeeds { outputs.append((seeds, 64)) }
      outputs.append((keys, 32 * steps.outputs.count))
    }
    // A multiple of 64 work items (the kernel ignores those past `count`), so the driver can
    // choose a work-group size that suits the device.
    var global = (count + 63) / 64 * 64
    try OpenCLLibrary.check(
      library.enqueueNDRangeKernel(queue.queue, kernel, 1, nil, &global, nil, 0, nil, nil),
      "clEnqueueNDRangeKernel")
    var results: [[SecureBytes]] = []
    for output in outputs {
      results.append(split(try read(output.memory, count * output.each), output.each))
    }
    switch kind {
    case .pbkdf2: return (results[0], [])
    case .ed25519(_, let keepingSeeds):
      return keepingSeeds ? (results[0], results[1]) : ([], results[0])
    }
  }

  /// Fills each buffer with zeros, waits for the queue, releases them.
  private func wipeAndRelease(_ buffers: [(fk_cl_mem, Int)], _ queue: fk_cl_command_queue) {
    var zero: UInt8 = 0
    for (memory, size) in buffers {
      _ = library.enqueueFillBuffer(queue, memory, &zero, 1, 0, size, 0, nil, nil)
    }
    _ = library.finish(queue)
    for (memory, _) in buffers { _ = library.releaseMemObject(memory) }
  }

  // MARK: Self-test

  /// Known answers against `PBKDF2` (OpenSSL), before any candidate is trusted to the device:
  /// passwords at and around each block (a key longer than a block is hashed first) with salts
  /// that cross a block, at 1 and 3 iterations; and their seeds' SLIP-0010 Ed25519 keys
  /// against `SLIP10Ed25519Steps.keys(seed:)` (libsodium's HMAC).
  private func selfTest() throws(OpenCLError) {
    let lengths = [0, 1, 63, 64, 65, 111, 112, 127, 128, 129, 200]
    let passwords = lengths.map { count in
      SecureBytes(count: count) { out in
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: i &* 7 &+ count) }
      }
    }
    let salts = lengths.reversed().map { count in
      SecureBytes(count: count) { out in
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: i &* 13 &+ 5) }
      }
    }
    for iterations in [1, 3] {
      let seeds = try derive(.sha512, passwords, salts, iterations)
      let keys = try derive(.sha256, passwords, salts, iterations)
      for index in passwords.indices {
        let seed = PBKDF2.hmacSHA512(
          password: passwords[index], salt: salts[index], iterations: iterations,
          keyByteCount: 64)
        let key = PBKDF2.hmacSHA256(
          password: passwords[index], salt: salts[index], iterations: iterations,
          keyByteCount: 32)
        guard seeds[index] == seed, keys[index] == key else {
          throw .selfTestFailed(device: device.name)
        }
      }
    }
    // The Ed25519 chains: a branch (m/44'/73405'/0'/0', m/44'/73404') and the master itself.
    let hardened: UInt32 = 1 << 31
    let steps = SLIP10Ed25519Steps(
      steps: [
        .init(parent: 0, index: hardened + 44), .init(parent: 1, index: hardened + 73405),
        .init(parent: 2, index: hardened), .init(parent: 3, index: hardened),
        .init(parent: 1, index: hardened + 73404),
      ], outputs: [4, 5, 0])
    for keepingSeeds in [false, true] {
      let (seeds, keys) = try deriveBIP39Ed25519Keys(
        mnemonics: passwords, salts: salts, iterations: 2, steps: steps,
        keepingSeeds: keepingSeeds)
      for index in passwords.indices {
        let seed = PBKDF2.hmacSHA512(
          password: passwords[index], salt: salts[index], iterations: 2, keyByteCount: 64)
        guard keys[index] == steps.keys(seed: seed), !keepingSeeds || seeds[index] == seed
        else { throw .selfTestFailed(device: device.name) }
      }
    }
  }
}

import CryptoPrimitives
import Dispatch
import Synchronization
import VaultKeys

/// The search over passwords: worker threads take the passwords in order, a batch at a time
/// (a PBKDF2 batch fills every SIMD lane), check each batch against the file and stop at the
/// first that opens it; the one found is then opened in full, as the app opens it.
package final class PasswordSearch: Sendable {
  /// How far a search got.
  package struct Progress: Sendable, Equatable {
    /// Passwords checked (whole batches).
    package var searched: UInt64
    /// Seconds since the search began.
    package var seconds: Double
    /// Every password below this one was checked (for a checkpoint).
    package var doneBelow: Int
  }

  /// How a search ended.
  package struct Outcome: Sendable {
    /// The index of the password that opened the file (in `passwords`), and what opened.
    package let found: (index: Int, opened: PasswordTarget.Opened)?
    /// Whether every password was checked (or one was found).
    package let isComplete: Bool
    package let progress: Progress
  }

  package let target: PasswordTarget
  package let passwords: PasswordSet
  /// The worker threads: those asked for, fewer where that many tries of the file's scrypt
  /// would take more memory together than the budget.
  package let threads: Int
  /// The threads asked for.
  package let requestedThreads: Int
  /// The memory the tries running together may take, where it bounds them (scrypt): the
  /// budget given, else `Scrypt.memoryBudget()`.
  package let memoryBudget: UInt64?
  /// Where the PBKDF2 batches run; not part of the search's hash (the same keys either way).
  package let backend: PBKDF2Backend

  /// A search of `passwords` against `target` on `threads` threads, as many of them as the
  /// file's scrypt fits in `memoryBudget` (`Scrypt.memoryBudget()` when nil) together; refused
  /// when not even one fits. PBKDF2 runs on `backend`.
  package init(
    target: PasswordTarget, passwords: PasswordSet, threads: Int, memoryBudget: UInt64? = nil,
    backend: PBKDF2Backend = .cpu
  ) throws(PasswordRecoveryError) {
    self.target = target
    self.passwords = passwords
    self.backend = backend
    requestedThreads = max(1, threads)
    if let perTry = target.memoryPerTry {
      let budget = memoryBudget ?? Scrypt.memoryBudget()
      let fit = budget / max(1, perTry)
      guard fit >= 1 else { throw .notEnoughMemory(needed: perTry, available: budget) }
      self.threads = Int(min(UInt64(requestedThreads), fit))
      self.memoryBudget = budget
    } else {
      self.threads = requestedThreads
      self.memoryBudget = nil
    }
  }

  /// A SHA-256 of what defines the search, for a checkpoint: the file's kind, KDF and salt, and
  /// the passwords (their number, then their digest put through the file's own KDF once, so a
  /// checkpoint costs as much per guess of the passwords as the file does).
  package func searchHash() throws(PasswordRecoveryError) -> [UInt8] {
    var header = Array("freedom-keys password set 1\0".utf8)
    withUnsafeBytes(of: UInt64(passwords.count).littleEndian) { header += $0 }
    // One buffer: adding the passwords one at a time copies the whole again each time.
    let whole = passwords.hashInput(after: header)
    let key = try target.deriveKey(whole.withUnsafeBytes { SecureBytes(SHA256.hash($0)) })
    let message =
      SecureBytes(Array("freedom-keys password search 1\0".utf8) + target.publicBytes + header)
      + key
    return message.withUnsafeBytes { SHA256.hash($0) }
  }

  /// The outcome of a match a checkpoint recorded: password `index` opened again, in full.
  package func reopen(_ index: Int) throws(PasswordRecoveryError) -> Outcome {
    guard (0..<passwords.count).contains(index) else { throw .malformedCheckpoint }
    let opened = try target.open(with: passwords.password(index))
    return Outcome(
      found: (index, opened), isComplete: true,
      progress: Progress(searched: 0, seconds: 0, doneBelow: index))
  }

  /// The number of passwords to try.
  package var candidateCount: Int { passwords.count }

  /// Checks the passwords of `range` (every one when nil) until one opens the file. `onTick`
  /// is called about every `tick` seconds from the calling thread with the progress so far;
  /// returning false stops the search (the batches under way are finished, the others left).
  package func run(
    range: Range<Int>? = nil, tick: Double = 0.2, onTick: (Progress) -> Bool = { _ in true }
  ) throws(PasswordRecoveryError) -> Outcome {
    let range = range ?? 0..<passwords.count
    // Few passwords: smaller batches, so every thread has one.
    let batch = max(1, min(target.batchSize(on: backend), (range.count + threads - 1) / threads))
    let coordinator = PasswordCoordinator(range: range, batch: batch)
    WorkerThread.runAll(
      min(threads, max(1, range.count)), tickEvery: tick,
      tick: { if !onTick(coordinator.progress) { coordinator.requestStop() } },
      body: { [self] in work(coordinator) })
    let (found, failure, complete) = coordinator.result
    if let failure { throw failure }
    let progress = coordinator.progress
    guard let found else {
      return Outcome(found: nil, isComplete: complete, progress: progress)
    }
    let opened = try target.open(with: passwords.password(found))
    return Outcome(found: (found, opened), isComplete: true, progress: progress)
  }

  private func work(_ coordinator: PasswordCoordinator) {
    if backend.device != nil, let (salt, iterations) = target.pbkdf2 {
      return workPipelined(coordinator, salt: SecureBytes(salt), iterations: iterations)
    }
    while let range = coordinator.take() {
      do {
        let match = try target.firstOpening(passwords.passwords(range), on: backend)
        coordinator.finish(range, found: match.map { range.lowerBound + $0 })
      } catch {
        coordinator.fail(error)
      }
    }
  }
}

extension PasswordSearch {
  /// `work` with the keys on a device, double-buffered: a batch is handed to the worker's
  /// `DeviceLane`, then the batch before it is waited for and checked while the device
  /// computes the new one and the worker takes the next. At most two batches are on the device
  /// per worker. Batches are reported in the order taken; after a match (this worker's or
  /// another's) the batches still on the device that lie past it are dropped unchecked and
  /// uncounted, as a worker on the CPU takes none after it (one before it is still checked,
  /// so the first password is the one found); after an interrupt they are checked and kept.
  fileprivate func workPipelined(
    _ coordinator: PasswordCoordinator, salt: SecureBytes, iterations: Int
  ) {
    let lane = DeviceLane()
    let backend = backend
    var inFlight: [(range: Range<Int>, keys: PendingBatch<[SecureBytes]>)] = []
    func checkOldest() {
      let (range, pending) = inFlight.removeFirst()
      let keys = pending.wait()
      // Past a match found already, a batch cannot change the answer.
      if let found = coordinator.found, found < range.lowerBound { return }
      coordinator.finish(
        range, found: target.firstOpening(keys: keys).map { range.lowerBound + $0 })
    }
    while let range = coordinator.take() {
      let batch: [SecureBytes]
      do {
        batch = try passwords.passwords(range)
      } catch {
        // A candidates file that changed: this batch is left undone and the search stops.
        coordinator.fail(error)
        break
      }
      let salts = Array(repeating: salt, count: batch.count)
      inFlight.append(
        (
          range,
          lane.submit {
            backend.deriveSHA256Keys(passwords: batch, salts: salts, iterations: iterations)
          }
        ))
      if inFlight.count == 2 { checkOldest() }
    }
    while !inFlight.isEmpty { checkOldest() }
  }
}

/// The state the workers share, touched once per batch: the next batch, the count checked and
/// a match (or a failure).
private final class PasswordCoordinator: Sendable {
  private struct State {
    var next: Int
    var doneBelow: Int
    /// Batches done above `doneBelow`: start → end.
    var done: [Int: Int] = [:]
    var searched: UInt64 = 0
    var found: Int?
    var failure: PasswordRecoveryError?
  }

  private let state: Mutex<State>
  private let stopping = Atomic<Bool>(false)
  private let range: Range<Int>
  private let batch: Int
  private let started = DispatchTime.now().uptimeNanoseconds

  init(range: Range<Int>, batch: Int) {
    state = Mutex(State(next: range.lowerBound, doneBelow: range.lowerBound))
    self.range = range
    self.batch = batch
  }

  /// The next batch, or nil when none is left or the search stops.
  func take() -> Range<Int>? {
    guard !stopping.load(ordering: .acquiring) else { return nil }
    return state.withLock { state in
      guard state.next < range.upperBound else { return nil }
      let range = state.next..<min(self.range.upperBound, state.next + batch)
      state.next = range.upperBound
      return range
    }
  }

  func requestStop() { stopping.store(true, ordering: .releasing) }

  /// The password a worker found, if one did.
  var found: Int? { state.withLock { $0.found } }

  func finish(_ range: Range<Int>, found: Int?) {
    state.withLock { state in
      state.searched += UInt64(range.count)
      state.done[range.lowerBound] = range.upperBound
      while let end = state.done.removeValue(forKey: state.doneBelow) { state.doneBelow = end }
      if let found, state.found.map({ found < $0 }) ?? true { state.found = found }
    }
    if found != nil { requestStop() }
  }

  func fail(_ error: PasswordRecoveryError) {
    state.withLock { state in
      if state.failure == nil { state.failure = error }
    }
    requestStop()
  }

  var progress: PasswordSearch.Progress {
    let (searched, doneBelow) = state.withLock { ($0.searched, $0.doneBelow) }
    return PasswordSearch.Progress(
      searched: searched, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
      doneBelow: doneBelow)
  }

  /// The match, a failure, and whether every batch was checked.
  var result: (found: Int?, failure: PasswordRecoveryError?, complete: Bool) {
    state.withLock { state in
      (state.found, state.failure, state.found != nil || Int(state.searched) == range.count)
    }
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// The phrase search double-buffered on an OpenCL device (PoCL's CPU device in CI): small
/// batches, so that a search of 2,048 or 30,720 candidates has many, against the CPU engine
/// with the same batch size. Skipped, saying why, without a device.
@Suite(.enabled(if: OpenCLChainDevice.isHere, "no OpenCL device (install pocl-opencl-icd)"))
struct OpenCLPipelineTests {
  typealias F = RecoveryFixture

  /// "legal winner thank year wave sausage worth useful legal winner thank ?": 128 phrases
  /// pass the checksum, in the search's order.
  static let damaged = F.damaged(F.words(F.legalWinner), [12: "?"])

  /// The checksum-valid phrases of `damaged`, in the order the search makes them.
  static func validPhrases(_ damaged: SecureBytes) throws -> [RecoveredPhrase] {
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: damaged))
    let recovery = try PhraseRecovery(
      search: search, targets: [], configuration: .init(threads: 1))
    return try recovery.run(collect: 100_000).candidates
  }

  static func address(_ phrase: RecoveredPhrase) throws -> RecoveryTarget {
    .address(try FreedomProfile(mnemonic: phrase.mnemonic).wallet.address)
  }

  static func recovery(
    _ damaged: SecureBytes, targets: [RecoveryTarget], backend: PBKDF2Backend, batchSize: Int,
    chunkSize: UInt64 = 1 << 13, threads: Int = 1
  ) throws -> PhraseRecovery {
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: damaged))
    return try PhraseRecovery(
      search: search, targets: targets,
      configuration: .init(
        threads: threads, chunkSize: chunkSize, backend: backend, batchSize: batchSize))
  }

  static func counts(_ outcome: PhraseRecovery.Outcome) -> [UInt64] {
    [outcome.progress.candidates, outcome.progress.checksumValid, outcome.progress.checked]
  }

  /// Two targets, one matching the 6th valid phrase (batch 0 of 8) and one the 12th (batch 1,
  /// on the device beside batch 0): the earlier is found, with the counts the CPU engine
  /// gives at the same batch size (6 checked); batches of 12 across chunks of 256 candidates
  /// alike.
  @Test(arguments: [(8, 1 << 13), (12, 256)] as [(Int, UInt64)])
  func aMatchInAnEarlierBatchWins(batchSize: Int, chunkSize: UInt64) throws {
    let engine = try OpenCLChainDevice.opened.get()
    let valid = try Self.validPhrases(Self.damaged)
    #expect(valid.count == 128)
    let (first, second) = batchSize == 8 ? (5, 11) : (40, 50)
    let targets = [try Self.address(valid[second]), try Self.address(valid[first])]
    var outcomes: [PhraseRecovery.Outcome] = []
    for backend in [PBKDF2Backend.cpu, .openCL(engine)] {
      let recovery = try Self.recovery(
        Self.damaged, targets: targets, backend: backend, batchSize: batchSize,
        chunkSize: chunkSize)
      outcomes.append(try recovery.run())
    }
    let (cpu, device) = (outcomes[0], outcomes[1])
    #expect(try F.words(of: device.found) == F.words(of: valid[first]))
    #expect(try F.words(of: cpu.found) == F.words(of: valid[first]))
    #expect(Self.counts(device) == Self.counts(cpu))
    #expect(device.progress.doneBelow == cpu.progress.doneBelow)
    #expect(device.progress.doneChunks == cpu.progress.doneChunks)
    if batchSize == 8 { #expect(Self.counts(device) == [cpu.progress.candidates, 8, 6]) }
  }

  /// 30,720 candidates (two words damaged) in chunks of 256, batches of 16, one thread (its
  /// counts up to a match are the same on every run): stopped after a
  /// chunk is done, the checkpoint fits the search and counts only done chunks, and resuming
  /// it finds the same phrase with the same counts as a run never stopped.
  @Test func anInterruptKeepsACheckpointThatResumesToTheSameAnswer() throws {
    let engine = try OpenCLChainDevice.opened.get()
    let damaged = F.damaged(F.words(F.legalWinner), [3: "th*", 12: "?"])
    let valid = try Self.validPhrases(damaged)
    let truth = try #require(valid.last)
    func recovery() throws -> PhraseRecovery {
      try Self.recovery(
        damaged, targets: [try Self.address(truth)], backend: .openCL(engine), batchSize: 16,
        chunkSize: 256)
    }
    let whole = try recovery().run()
    #expect(try F.words(of: whole.found) == F.words(of: truth))

    let search = try recovery()
    let stopped = try search.run(tick: 0.005) { $0.doneBelow == 0 && $0.doneChunks.isEmpty }
    try #require(!stopped.isComplete, "the search ended before the first tick")
    #expect(stopped.found == nil)
    try search.validate(stopped.progress)
    let saved = try RecoveryProgress(json: stopped.progress.jsonBytes())
    let resumed = try recovery().run(resumingFrom: saved)
    #expect(try F.words(of: resumed.found) == F.words(of: truth))
    #expect(Self.counts(resumed) == Self.counts(whole))
  }

  /// A device whose second and third calls fail: those batches are computed on the CPU, and
  /// the search finds and counts exactly what the CPU engine does (a match, then none: every
  /// one of the 8 chunks done).
  @Test func aDeviceFailingMidSearchFallsBackToTheCPU() throws {
    let engine = try OpenCLChainDevice.opened.get()
    let valid = try Self.validPhrases(Self.damaged)
    let other = try FreedomProfile(seed: SecureBytes([UInt8](repeating: 7, count: 64)))
    for targets in [[try Self.address(valid[20])], [.address(other.wallet.address)]] {
      let failing = engine.failing(calls: [1, 2])
      let device = try Self.recovery(
        Self.damaged, targets: targets, backend: .openCL(failing), batchSize: 8, chunkSize: 256
      ).run()
      let cpu = try Self.recovery(
        Self.damaged, targets: targets, backend: .cpu, batchSize: 8, chunkSize: 256
      ).run()
      #expect(failing.callCount >= 3)
      #expect((device.found == nil) == (cpu.found == nil))
      if device.found != nil { #expect(try F.words(of: device.found) == F.words(of: cpu.found)) }
      #expect(device.isComplete && cpu.isComplete)
      #expect(Self.counts(device) == Self.counts(cpu))
      #expect(device.progress.doneBelow == cpu.progress.doneBelow)
      if device.found == nil { #expect(Self.counts(device) == [2048, 128, 128]) }
    }
  }

  /// A vault (1,000 rounds) and four batches of passwords, the one that opens it in the
  /// second batch, on one thread: the device finds it and counts the two batches checked (the
  /// third, on the device beside the second, is dropped uncounted, as the CPU takes no batch
  /// after a match); a device failing its second call gives the same; the CPU finds the same.
  @Test func aPasswordSearchIsPipelinedAlike() throws {
    let engine = try OpenCLChainDevice.opened.get()
    let batch = engine.preferredBatchSize
    let json = try DesktopVault.encrypt(
      mnemonic: SecureBytes(utf8: F.legalWinner),
      password: SecureBytes(utf8: "Correct horse battery stapl"), iterations: 1_000)
    let target = PasswordTarget.vault(try DesktopVault(json: json))
    var lines = (0..<(4 * batch)).map { "wrong \($0)" }
    lines[batch + 5] = "Correct horse battery stapl"
    let set = try PasswordSet(
      remembered: nil, candidates: SecureBytes(utf8: lines.joined(separator: "\n")))
    for backend in [PBKDF2Backend.openCL(engine), .openCL(engine.failing(calls: [1])), .cpu] {
      let outcome = try PasswordSearch(
        target: target, passwords: set, threads: 1, backend: backend
      ).run()
      #expect(outcome.found?.index == batch + 5)
      #expect(outcome.isComplete)
      if backend.device != nil { #expect(outcome.progress.searched == UInt64(2 * batch)) }
    }
  }
}

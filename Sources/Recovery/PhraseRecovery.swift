import CryptoPrimitives
import Dispatch
import Synchronization
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The search engine: enumerates a `RecoverySearch` as word indices, tests each candidate's
/// checksum on its entropy bits (one SHA-256) before anything else, derives the seeds of those
/// that pass in batches (`PBKDF2Backend`: the CPU's batch engines or an OpenCL device), and derives from each seed only what the targets
/// need, cheapest first.
///
/// The candidate range (or one shard of it) is cut into chunks that worker threads take in
/// order; a worker keeps its candidates, sentences and counts in its own wiped scratch memory
/// and touches shared state only to take a chunk and to report it done.
package final class PhraseRecovery: Sendable {
  /// How a search is run.
  package struct Configuration: Sendable {
    /// Worker threads (at least 1).
    package var threads: Int
    /// The 1-based shard to search and the number of shards (1/1: everything).
    package var shardIndex: Int
    package var shardCount: Int
    /// Candidates per chunk: the unit of work, progress and checkpoints.
    package var chunkSize: UInt64
    /// Where the seeds' PBKDF2 runs. Not part of the search's definition: a part searched on a
    /// GPU and one on the CPU derive the same seeds, count the same and collect together.
    package var backend: PBKDF2Backend
    /// Phrases per PBKDF2 batch; nil: the backend's (`PBKDF2Backend.seedBatchSize`). Not part
    /// of the search's definition either.
    package var batchSize: Int?

    package init(
      threads: Int = ProcessInfo.processInfo.activeProcessorCount, shardIndex: Int = 1,
      shardCount: Int = 1, chunkSize: UInt64 = 1 << 13, backend: PBKDF2Backend = .cpu,
      batchSize: Int? = nil
    ) {
      self.threads = threads
      self.shardIndex = shardIndex
      self.shardCount = shardCount
      self.chunkSize = chunkSize
      self.backend = backend
      self.batchSize = batchSize
    }
  }

  /// How a run ended.
  package struct Outcome: Sendable {
    /// The phrase that matched a target.
    package let found: RecoveredPhrase?
    /// Without targets: the checksum-valid candidates, when there were at most the number asked.
    package let candidates: [RecoveredPhrase]
    /// Whether the whole range (of the shard) was searched, or a match found.
    package let isComplete: Bool
    /// What is done, to resume from.
    package let progress: RecoveryProgress
    /// Whether `found` is the match the checkpoint resumed from recorded (nothing was searched).
    package let foundEarlier: Bool
  }

  package let search: RecoverySearch
  package let targets: [RecoveryTarget]
  package let configuration: Configuration
  /// The candidate numbers this run searches (its shard).
  package let range: Range<UInt64>
  /// The number of chunks of `range`.
  package let chunkCount: Int
  /// SHA-256 of everything that defines the search; a checkpoint must carry the same.
  package let searchHash: [UInt8]
  /// The BIP-39 passphrases tried with every checksum-valid phrase.
  package let passphrases: PassphraseSet
  /// The number of candidates: every phrase of the search with every passphrase, numbered
  /// passphrase by passphrase (candidate n is phrase n mod W with passphrase n / W); a batch
  /// of seeds may span passphrases, each seed with its own salt, so the batch PBKDF2 stays full.
  package let candidateCount: UInt64
  private let sentenceWords: [[UInt8]]

  /// A search of `search` against `targets` (none: only count checksum-valid candidates) with
  /// the BIP-39 `passphrase`.
  package convenience init(
    search: RecoverySearch, targets: [RecoveryTarget],
    passphrase: SecureBytes = SecureBytes(count: 0) { _ in },
    configuration: Configuration = Configuration()
  ) throws(RecoveryError) {
    try self.init(
      search: search, targets: targets, passphrases: PassphraseSet(passphrase: passphrase),
      configuration: configuration)
  }

  /// A search of `search` with each of `passphrases` against `targets`.
  package init(
    search: RecoverySearch, targets: [RecoveryTarget], passphrases: PassphraseSet,
    configuration: Configuration = Configuration()
  ) throws(RecoveryError) {
    guard configuration.shardCount >= 1,
      (1...configuration.shardCount).contains(configuration.shardIndex)
    else {
      throw .invalidShard(index: configuration.shardIndex, count: configuration.shardCount)
    }
    self.search = search
    self.targets = targets
    var configuration = configuration
    configuration.threads = max(1, configuration.threads)
    configuration.chunkSize = max(1, configuration.chunkSize)
    self.configuration = configuration
    let (total, overflow) = search.candidateCount.multipliedReportingOverflow(
      by: UInt64(passphrases.count))
    guard !overflow, total < 1 << 63 else { throw .searchTooLarge }
    candidateCount = total
    self.passphrases = passphrases
    range = SearchSplit.range(
      of: total, part: configuration.shardIndex, of: configuration.shardCount)
    let count = UInt64(range.count)
    chunkCount = Int((count + configuration.chunkSize - 1) / configuration.chunkSize)
    sentenceWords = Wordlist.named(search.phrase.language).words.map { Array($0.utf8) }
    searchHash = Self.definitionHash(
      search: search, targets: targets, passphrases: passphrases, configuration: configuration)
  }

  // MARK: - Running

  /// Searches the range, resuming from `progress` if given (it must carry this search's hash).
  /// Without targets, collects the checksum-valid candidates while there are at most `collect`.
  /// `onTick` is called about every `tick` seconds from the calling thread with the progress so
  /// far; returning false stops the search (the chunks under way are left undone).
  package func run(
    resumingFrom progress: RecoveryProgress? = nil, collect: Int = 0, tick: Double = 0.2,
    onTick: (RecoveryProgress) -> Bool = { _ in true }
  ) throws(RecoveryCheckpointError) -> Outcome {
    if let progress {
      try validate(progress)
      if let match = progress.match {
        return Outcome(
          found: try rederive(match), candidates: [], isComplete: true, progress: progress,
          foundEarlier: true)
      }
    }
    let start =
      progress
      ?? RecoveryProgress(
        searchHash: searchHash,
        shard: (configuration.shardIndex, configuration.shardCount), shape: shapeHash)
    // Fewer chunks left than four a thread (a small search, a phrase with few passphrases):
    // each is cut into slices the threads share, and done when its last slice is.
    let undone = max(1, chunkCount - start.doneBelow - start.doneChunks.count)
    let perThread = 4 * configuration.threads
    let slices =
      configuration.threads == 1 || undone >= perThread
      ? 1 : min(Int(clamping: configuration.chunkSize), (perThread + undone - 1) / undone)
    let coordinator = Coordinator(
      progress: start, chunkCount: chunkCount, slices: slices,
      collect: targets.isEmpty ? collect : 0)
    WorkerThread.runAll(
      configuration.threads, tickEvery: tick,
      tick: { if !onTick(coordinator.snapshot()) { coordinator.requestStop() } },
      body: { [self] in work(coordinator) })
    if let failure = coordinator.failure { throw .candidates(failure) }
    do throws(CandidateFileError) {
      return try coordinator.outcome {
        part, passphrase, indices, label throws(CandidateFileError) in
        try recovered(part: part, passphrase: passphrase, indices: indices, matched: label)
      }
    } catch {
      throw .candidates(error)
    }
  }

  /// Checks that `progress` can be a checkpoint of this search: its hash, its chunks within
  /// the range, its counts within the candidates, its match a candidate of the search.
  package func validate(_ progress: RecoveryProgress) throws(RecoveryCheckpointError) {
    guard progress.searchHash == searchHash else { throw .otherSearch }
    guard progress.doneBelow <= chunkCount else {
      throw .inconsistent(
        "chunk \(progress.doneBelow) is done, but the search has \(chunkCount) chunks")
    }
    var previous = progress.doneBelow
    for chunk in progress.doneChunks {
      guard chunk > previous else {
        throw .inconsistent("the done chunks are not distinct and above the first undone one")
      }
      guard chunk < chunkCount else {
        throw .inconsistent("chunk \(chunk) is done, but the search has \(chunkCount) chunks")
      }
      previous = chunk
    }
    // Every done chunk counted all its candidates, except the one where the match stopped.
    func size(_ chunk: Int) -> UInt64 {
      let low = UInt64(chunk) * configuration.chunkSize
      return min(UInt64(range.count), low + configuration.chunkSize) - low
    }
    let below = min(UInt64(range.count), UInt64(progress.doneBelow) * configuration.chunkSize)
    let done = progress.doneChunks.reduce(below) { $0 + size($1) }
    guard
      progress.match == nil
        ? progress.candidates == done : progress.candidates <= done,
      progress.checksumValid <= progress.candidates, progress.checked <= progress.checksumValid
    else {
      throw .inconsistent(
        "it counts \(progress.candidates) candidates where its done chunks hold \(done)")
    }
    if let match = progress.match {
      _ = try indices(of: match)
      guard passphrases.count == 1 ? match.passphrase == nil : match.passphrase != nil,
        (0..<passphrases.count).contains(match.passphrase ?? 0)
      else { throw .inconsistent("the match it records is not in the search") }
    }
  }

  /// The match record of the candidate `indices` of `part`: the positions whose word is not
  /// the one remembered there.
  func match(part: Int, passphrase: Int, indices: [Int]) -> RecoveryProgress.Match {
    let changes = indices.indices.compactMap { position -> RecoveryProgress.Match.Change? in
      remembered(part: part, position: position) == indices[position]
        ? nil : .init(position: position + 1, wordIndex: indices[position])
    }
    return RecoveryProgress.Match(
      part: part, passphrase: passphrases.count > 1 ? passphrase : nil, changes: changes)
  }

  /// The word index remembered for `position` of `part`, if a known word is remembered there
  /// and the part allows it (a typo position does not).
  private func remembered(part index: Int, position: Int) -> Int? {
    // An order of the written words: what was written at the position.
    if search.order != nil {
      guard case .known(let word) = search.phrase.words[position] else { return nil }
      return word
    }
    let part = search.parts[index]
    guard let place = origin(part: part, position: position),
      case .known(let word) = search.phrase.words[place], part.sets[position].contains(word)
    else { return nil }
    return word
  }

  /// What was remembered at `position` of `part`: across a swap, the other word's place.
  private func origin(part: SearchPart, position: Int) -> Int? {
    if let swap = part.swap, position == swap { return part.origins[swap + 1] }
    if let swap = part.swap, position == swap + 1 { return part.origins[swap] }
    return part.origins[position]
  }

  /// The word indices a match record stands for, if it is a checksum-valid candidate of the
  /// search.
  private func indices(of match: RecoveryProgress.Match) throws(RecoveryCheckpointError) -> [Int] {
    let wrong = RecoveryCheckpointError.inconsistent("the match it records is not in the search")
    if let order = search.order {
      guard match.part == 0 else { throw wrong }
      var changes = [Int: Int]()
      for change in match.changes {
        guard (1...search.wordCount).contains(change.position),
          changes.updateValue(change.wordIndex, forKey: change.position) == nil,
          (0..<Wordlist.wordCount).contains(change.wordIndex),
          remembered(part: 0, position: change.position - 1) != change.wordIndex
        else { throw wrong }
      }
      var indices: [Int] = []
      for position in 0..<search.wordCount {
        guard let word = changes[position + 1] ?? remembered(part: 0, position: position)
        else { throw wrong }
        indices.append(word)
      }
      guard order.contains(indices), Mnemonic.entropy(fromWordIndices: indices) != nil else {
        throw wrong
      }
      return indices
    }
    guard search.parts.indices.contains(match.part) else { throw wrong }
    let part = search.parts[match.part]
    var changes = match.changes.makeIterator()
    var change = changes.next()
    var indices: [Int] = []
    for position in 0..<search.wordCount {
      if let recorded = change, recorded.position == position + 1 {
        guard (0..<Wordlist.wordCount).contains(recorded.wordIndex),
          part.sets[position].contains(recorded.wordIndex),
          remembered(part: match.part, position: position) != recorded.wordIndex
        else { throw wrong }
        indices.append(recorded.wordIndex)
        change = changes.next()
      } else {
        guard let word = remembered(part: match.part, position: position) else { throw wrong }
        indices.append(word)
      }
    }
    guard change == nil, Mnemonic.entropy(fromWordIndices: indices) != nil else { throw wrong }
    return indices
  }

  /// The phrase a checkpoint's match stands for, derived from the damaged phrase and checked
  /// against the targets again.
  package func rederive(_ match: RecoveryProgress.Match) throws(RecoveryCheckpointError)
    -> RecoveredPhrase
  {
    let indices = try indices(of: match)
    var sentence = SecureBytes(count: 0) { _ in }
    _ = SecureBytes(count: 2 * indices.count) { scratch in
      let words = scratch.bindMemory(to: UInt16.self)
      for (position, index) in indices.enumerated() { words[position] = UInt16(index) }
      sentence = self.sentence(words.baseAddress!)
    }
    let passphrase = match.passphrase ?? 0
    let salt: SecureBytes
    do throws(CandidateFileError) {
      salt = try passphrases.salt(passphrase)
    } catch {
      throw .candidates(error)
    }
    let seeds = PBKDF2SHA512Batch.deriveBIP39Seeds(
      mnemonics: [sentence], salt: salt, iterations: Mnemonic.seedIterations)
    guard let seed = seeds.first, let label = TargetMatcher(targets: targets).match(seed: seed)
    else { throw .matchFailsTargets }
    do throws(CandidateFileError) {
      return try recovered(
        part: match.part, passphrase: passphrase, indices: indices, matched: label)
    } catch {
      throw .candidates(error)
    }
  }

  /// The seconds one thread takes per checksum-valid candidate (seed and target derivation),
  /// measured on `samples` random phrases of the search's word count.
  package func measureSecondsPerCandidate(samples: Int = PBKDF2SHA512Batch.preferredBatchSize)
    -> Double
  {
    measureCandidates(samples: samples).seconds
  }

  /// `measureSecondsPerCandidate` with what the matcher computed for the samples: per seed,
  /// `work` divided by `work.seeds`; `fewest` is what one seed that matches nothing needs.
  package func measureCandidates(samples: Int = PBKDF2SHA512Batch.preferredBatchSize)
    -> (seconds: Double, work: TargetMatcher.Stats, fewest: TargetMatcher.Stats)
  {
    guard !targets.isEmpty else { return (0, .init(), .init()) }
    let matcher = TargetMatcher(targets: targets)
    let phrases = (0..<max(1, samples)).map { _ in
      (try? Mnemonic.generate(wordCount: search.wordCount, language: search.phrase.language))!
        .normalizedSentence()
    }
    let start = DispatchTime.now().uptimeNanoseconds
    let (seeds, keys) = derive(
      phrases, salts: Array(repeating: passphrases.firstSalt, count: phrases.count), for: matcher)
    _ = matcher.firstMatch(in: seeds, ed25519Keys: keys)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return (elapsed / Double(phrases.count), matcher.stats, matcher.fewestPerSeed)
  }

  // MARK: - The worker

  /// Takes chunks until none is left or the search stops.
  private func work(_ coordinator: Coordinator) {
    let length = search.wordCount
    let batchSize = self.batchSize
    // On a device with targets, two batches: one on the device while the next is made.
    let pipelined = configuration.backend.device != nil && !targets.isEmpty
    let words = length * (2 + (pipelined ? 2 : 1) * batchSize)
    // indices, digits, the batches' candidates, entropy and its SHA-256: one wiped buffer.
    _ = SecureBytes(count: 2 * words + 64) { scratch in
      let base = scratch.baseAddress!.bindMemory(to: UInt16.self, capacity: words)
      let buffers = Buffers(
        current: base, batch: base + 2 * length, entropy: scratch.baseAddress! + 2 * words)
      // The candidate space is the model's: the damage model's parts, or the orders of the
      // written words. Each is its own specialisation of the one loop.
      if let order = search.order {
        var cursor = OrderCursor(order)
        if pipelined {
          workPipelined(coordinator, cursor: &cursor, buffers: buffers)
        } else {
          work(coordinator, cursor: &cursor, buffers: buffers)
        }
      } else {
        var cursor = PartsCursor(search: search, digits: base + length)
        if pipelined {
          workPipelined(coordinator, cursor: &cursor, buffers: buffers)
        } else {
          work(coordinator, cursor: &cursor, buffers: buffers)
        }
      }
    }
  }

  /// Phrases per PBKDF2 batch.
  private var batchSize: Int {
    max(1, configuration.batchSize ?? configuration.backend.seedBatchSize)
  }

  /// Where a worker keeps a candidate, a batch and the checksum's entropy (wiped scratch).
  private struct Buffers {
    let current: UnsafeMutablePointer<UInt16>
    let batch: UnsafeMutablePointer<UInt16>
    let entropy: UnsafeMutableRawPointer
  }

  /// Takes chunks until none is left or the search stops, walking them with `cursor`.
  private func work<Cursor: CandidateCursor>(
    _ coordinator: Coordinator, cursor: inout Cursor, buffers: Buffers
  ) {
    let length = search.wordCount
    let batchSize = self.batchSize
    let matcher = targets.isEmpty ? nil : TargetMatcher(targets: targets)
    let entropyBytes = (length * 11 - length / 3) / 8
    let current = buffers.current
    let batch = buffers.batch
    let entropy = buffers.entropy
    var batchParts = [Int](repeating: 0, count: batchSize)
    // Each slot's passphrase: a batch may span several, so every SIMD lane stays busy even
    // when few phrases pass the checksum (a phrase known but its passphrase not).
    var batchPassphrases = [Int](repeating: 0, count: batchSize)

    while let (chunk, slice) = coordinator.take() {
      let chunkLow = range.lowerBound + UInt64(chunk) * configuration.chunkSize
      let chunkHigh = min(range.upperBound, chunkLow + configuration.chunkSize)
      let sliceSize =
        (chunkHigh - chunkLow + UInt64(coordinator.slices) - 1)
        / UInt64(coordinator.slices)
      let low = min(chunkHigh, chunkLow + UInt64(slice) * sliceSize)
      let high = min(chunkHigh, low + sliceSize)
      var counts = Counts()
      // Candidate n is phrase n mod W with passphrase n / W.
      let phraseCount = search.candidateCount
      var passphrase = Int(low / phraseCount)
      cursor.seek(to: low % phraseCount, current)
      var batchCount = 0
      var found: Found?
      var stopped = false
      var number = low

      func flush() {
        guard let matcher, batchCount > 0 else { return }
        let batchSalts: [SecureBytes]
        do {
          batchSalts = try salts(batchPassphrases[0..<batchCount])
        } catch {
          // A candidates file that changed: the slice is left undone, and the search stops.
          coordinator.fail(error)
          stopped = true
          batchCount = 0
          return
        }
        let sentences = (0..<batchCount).map { sentence(batch + $0 * length) }
        let (seeds, keys) = derive(sentences, salts: batchSalts, for: matcher)
        if let (slot, label) = matcher.firstMatch(in: seeds, ed25519Keys: keys) {
          counts.checked += UInt64(slot + 1)
          let indices = (0..<length).map { Int(batch[slot * length + $0]) }
          let passphrase = batchPassphrases[slot]
          found = Found(
            part: batchParts[slot], passphrase: passphrase, indices: indices, label: label,
            record: match(part: batchParts[slot], passphrase: passphrase, indices: indices))
        } else {
          counts.checked += UInt64(batchCount)
        }
        batchCount = 0
      }

      while number < high {
        counts.candidates += 1
        if passesChecksum(current, length: length, entropy: entropy, entropyBytes: entropyBytes),
          !cursor.triedEarlier(current)
        {
          counts.checksumValid += 1
          if matcher == nil {
            coordinator.collect(part: cursor.part, indices: (0..<length).map { Int(current[$0]) })
          } else {
            (batch + batchCount * length).update(from: current, count: length)
            batchParts[batchCount] = cursor.part
            batchPassphrases[batchCount] = passphrase
            batchCount += 1
            if batchCount == batchSize {
              flush()
              if found != nil || stopped { break }
              if coordinator.isStopping {
                stopped = true
                break
              }
            }
          }
        }
        number += 1
        // Every phrase was tried with this passphrase: the next one.
        if number < high, !cursor.advance(current) { passphrase += 1 }
        if matcher == nil, number & 0xFFF == 0, coordinator.isStopping {
          stopped = true
          break
        }
      }
      if !stopped, found == nil { flush() }
      if stopped && found == nil { break }
      coordinator.finish(chunk: chunk, counts: counts, found: found)
      if found != nil { break }
    }
  }

  // MARK: - The worker on a device

  /// A batch of the pipelined worker: its phrases' word indices (in one of the two scratch
  /// batches), and each slot's part, passphrase, chunk (its `OpenChunk.id`) and place among
  /// its chunk's checksum-valid phrases.
  private struct DeviceBatch {
    let words: UnsafeMutablePointer<UInt16>
    var count = 0
    var parts: [Int]
    var passphrases: [Int]
    var chunks: [Int]
    var ordinals: [Int]

    init(words: UnsafeMutablePointer<UInt16>, capacity: Int) {
      self.words = words
      parts = Array(repeating: 0, count: capacity)
      passphrases = parts
      chunks = parts
      ordinals = parts
    }
  }

  /// A chunk the pipelined worker took and has not finished: its counts, whether all its
  /// candidates were made, and the last batch that holds one of them.
  private struct OpenChunk {
    /// Its place among the chunks (or slices of one) this worker took: one chunk's slices
    /// may be taken one after another.
    let id: Int
    let chunk: Int
    /// Its candidates' numbers.
    let low: UInt64
    let high: UInt64
    var counts = Counts()
    var made = false
    var lastBatch = -1
  }

  /// `work(_:cursor:buffers:)` with the seeds on a device, double-buffered: a full batch is
  /// handed to the worker's `DeviceLane`, the batch before it is then waited for and checked
  /// (libsecp256k1, libsodium, the targets) while the device computes the new one, and the
  /// worker makes the next. At most two batches are on the device per worker, and one more is
  /// being filled. Batches span chunks, so a device gets full batches however few phrases a
  /// chunk has; a chunk is reported done only once every batch holding one of its phrases was
  /// checked, in the order they were made, so a checkpoint covers checked chunks only and a
  /// match in an earlier batch is always the one found. Stopping (an interrupt, another
  /// worker's match) makes no more candidates: the batches made are checked and the chunks
  /// they complete kept.
  private func workPipelined<Cursor: CandidateCursor>(
    _ coordinator: Coordinator, cursor: inout Cursor, buffers: Buffers
  ) {
    let length = search.wordCount
    let batchSize = self.batchSize
    let cpuBatchSize = max(1, configuration.batchSize ?? PBKDF2SHA512Batch.preferredBatchSize)
    let matcher = TargetMatcher(targets: targets)
    let backend = configuration.backend
    let steps = matcher.ed25519Steps
    let keepingSeeds = matcher.needsSeeds
    let entropyBytes = (length * 11 - length / 3) / 8
    let current = buffers.current
    let entropy = buffers.entropy
    let lane = DeviceLane()
    typealias Derived = (seeds: [SecureBytes], ed25519Keys: [SecureBytes]?)
    var inFlight: [(batch: DeviceBatch, sequence: Int, result: PendingBatch<Derived>)] = []
    var sequence = 0
    var lastChecked = -1
    var filling = DeviceBatch(words: buffers.batch, capacity: batchSize)
    var chunks: [OpenChunk] = []
    var taken = 0
    var found: Found?

    // Reports, in order, the chunks whose candidates are all made and checked.
    func finishChecked() {
      while let first = chunks.first, first.made, first.lastBatch <= lastChecked {
        coordinator.finish(chunk: first.chunk, counts: first.counts, found: nil)
        chunks.removeFirst()
      }
    }

    // Waits for the oldest batch on the device and checks its keys.
    func checkOldest() {
      let (batch, number, pending) = inFlight.removeFirst()
      let (seeds, keys) = pending.wait()
      let hit = matcher.firstMatch(in: seeds, ed25519Keys: keys)
      let checked = hit.map { $0.index + 1 } ?? batch.count
      var place = 0
      for slot in 0..<checked {
        while chunks[place].id != batch.chunks[slot] { place += 1 }
        chunks[place].counts.checked += 1
      }
      lastChecked = number
      guard let (slot, label) = hit else { return finishChecked() }
      // The chunks before the match's are made and checked: done, as on the CPU.
      let id = batch.chunks[slot]
      while let first = chunks.first, first.id != id {
        coordinator.finish(chunk: first.chunk, counts: first.counts, found: nil)
        chunks.removeFirst()
      }
      let counts = recount(chunks[0], through: batch.ordinals[slot])
      let indices = (0..<length).map { Int(batch.words[slot * length + $0]) }
      let part = batch.parts[slot]
      let passphrase = batch.passphrases[slot]
      found = Found(
        part: part, passphrase: passphrase, indices: indices, label: label,
        record: match(part: part, passphrase: passphrase, indices: indices))
      coordinator.finish(chunk: chunks[0].chunk, counts: counts, found: found)
      chunks.removeAll()
    }

    // The counts of a chunk whose checksum-valid phrase `ordinal` matched, as the CPU engine
    // reports them (its batches of `cpuBatchSize` start with the chunk: the candidates up to
    // the end of the batch holding the match), whichever way this worker's batches fell: the
    // chunk is walked again to there (a SHA-256 a candidate). The counts of a search then
    // depend on neither the engine, nor its batch size, nor a resumed checkpoint.
    func recount(_ open: OpenChunk, through ordinal: Int) -> Counts {
      let end = UInt64((ordinal / cpuBatchSize + 1) * cpuBatchSize)
      var counts = Counts(checked: UInt64(ordinal + 1))
      cursor.seek(to: open.low % search.candidateCount, current)
      var number = open.low
      while number < open.high {
        counts.candidates += 1
        if passesChecksum(current, length: length, entropy: entropy, entropyBytes: entropyBytes),
          !cursor.triedEarlier(current)
        {
          counts.checksumValid += 1
          if counts.checksumValid == end { break }
        }
        number += 1
        if number < open.high { _ = cursor.advance(current) }
      }
      return counts
    }

    // Hands the batch being filled to the device, then checks the one before it.
    // A candidates file that changed: the batch is dropped, its chunks left undone (never
    // counted), and the search stops.
    func handOver() {
      let batch = filling
      let sentences = (0..<batch.count).map { sentence(batch.words + $0 * length) }
      let salts: [SecureBytes]
      do {
        salts = try self.salts(batch.passphrases[0..<batch.count])
      } catch {
        coordinator.fail(error)
        filling.count = 0
        return
      }
      let result = lane.submit {
        Self.derive(
          sentences, salts: salts, on: backend, ed25519: steps, keepingSeeds: keepingSeeds)
      }
      inFlight.append((batch, sequence, result))
      sequence += 1
      // The other scratch batch is free once the batch before this one is checked.
      let other = batch.words == buffers.batch ? buffers.batch + batchSize * length : buffers.batch
      if inFlight.count == 2 { checkOldest() }
      filling = DeviceBatch(words: other, capacity: batchSize)
    }

    chunksLoop: while found == nil, let (chunk, slice) = coordinator.take() {
      let chunkLow = range.lowerBound + UInt64(chunk) * configuration.chunkSize
      let chunkHigh = min(range.upperBound, chunkLow + configuration.chunkSize)
      let sliceSize =
        (chunkHigh - chunkLow + UInt64(coordinator.slices) - 1) / UInt64(coordinator.slices)
      let low = min(chunkHigh, chunkLow + UInt64(slice) * sliceSize)
      let high = min(chunkHigh, low + sliceSize)
      chunks.append(OpenChunk(id: taken, chunk: chunk, low: low, high: high))
      taken += 1
      // Candidate n is phrase n mod W with passphrase n / W.
      let phraseCount = search.candidateCount
      var passphrase = Int(low / phraseCount)
      cursor.seek(to: low % phraseCount, current)
      var number = low
      while number < high {
        chunks[chunks.count - 1].counts.candidates += 1
        if passesChecksum(current, length: length, entropy: entropy, entropyBytes: entropyBytes),
          !cursor.triedEarlier(current)
        {
          chunks[chunks.count - 1].counts.checksumValid += 1
          chunks[chunks.count - 1].lastBatch = sequence
          let slot = filling.count
          (filling.words + slot * length).update(from: current, count: length)
          filling.parts[slot] = cursor.part
          filling.passphrases[slot] = passphrase
          filling.chunks[slot] = taken - 1
          filling.ordinals[slot] = Int(chunks[chunks.count - 1].counts.checksumValid) - 1
          filling.count += 1
          if filling.count == batchSize {
            handOver()
            if found != nil { break chunksLoop }
            // Stopping: this chunk is left undone, as on the CPU; its batches made are checked.
            if coordinator.isStopping { break chunksLoop }
          }
        }
        number += 1
        // Every phrase was tried with this passphrase: the next one.
        if number < high, !cursor.advance(current) { passphrase += 1 }
      }
      // The chunk being made is the last open one (the ones before it may be done by now).
      chunks[chunks.count - 1].made = true
      finishChecked()
    }
    // The last batch, however few phrases it holds, then every batch still on the device.
    if found == nil, filling.count > 0 { handOver() }
    while found == nil, !inFlight.isEmpty { checkOldest() }
    // After a match: the batches handed over later are computed, and dropped unchecked.
    for batch in inFlight { _ = batch.result.wait() }
  }

  /// The seeds of a batch on `backend`, and the Ed25519 keys of `steps` where given (on a
  /// device; the lane's thread calls this without the matcher).
  private static func derive(
    _ sentences: [SecureBytes], salts: [SecureBytes], on backend: PBKDF2Backend,
    ed25519 steps: SLIP10Ed25519Steps?, keepingSeeds: Bool
  ) -> (seeds: [SecureBytes], ed25519Keys: [SecureBytes]?) {
    if let steps {
      return backend.deriveBIP39Seeds(
        mnemonics: sentences, salts: salts, iterations: Mnemonic.seedIterations,
        ed25519: steps, keepingSeeds: keepingSeeds)
    }
    let seeds = backend.deriveBIP39Seeds(
      mnemonics: sentences, salts: salts, iterations: Mnemonic.seedIterations)
    return (seeds, nil)
  }

  /// The batch's seeds on the backend. On a device, with Ed25519 identities, their SLIP-0010
  /// keys are derived there too, after each seed (only the keys come back, and the seeds only
  /// when a secp256k1 identity needs them); the CPU engine derives seeds alone, as before.
  private func derive(_ sentences: [SecureBytes], salts: [SecureBytes], for matcher: TargetMatcher)
    -> (seeds: [SecureBytes], ed25519Keys: [SecureBytes]?)
  {
    let backend = configuration.backend
    return Self.derive(
      sentences, salts: salts, on: backend,
      ed25519: backend.device == nil ? nil : matcher.ed25519Steps,
      keepingSeeds: matcher.needsSeeds)
  }

  /// The salt of each passphrase of a batch, made once for a run of equal ones. A batch's
  /// passphrases never go down: the distinct ones are taken in runs of consecutive numbers,
  /// one read (or one token walk) a run.
  private func salts(_ indices: ArraySlice<Int>) throws(CandidateFileError) -> [SecureBytes] {
    var distinct: [Int] = []
    for index in indices where distinct.last != index { distinct.append(index) }
    var made: [SecureBytes] = []
    made.reserveCapacity(distinct.count)
    var start = 0
    while start < distinct.count {
      var end = start + 1
      while end < distinct.count, distinct[end] == distinct[end - 1] + 1 { end += 1 }
      made += try passphrases.salts(distinct[start]..<(distinct[end - 1] + 1))
      start = end
    }
    var salts: [SecureBytes] = []
    salts.reserveCapacity(indices.count)
    var slot = 0
    for (position, index) in indices.enumerated() {
      if position > 0, indices[indices.startIndex + position - 1] != index { slot += 1 }
      salts.append(made[slot])
    }
    return salts
  }

  /// Whether the entropy the indices encode has the checksum their last bits carry.
  @inline(__always)
  private func passesChecksum(
    _ indices: UnsafeMutablePointer<UInt16>, length: Int, entropy: UnsafeMutableRawPointer,
    entropyBytes: Int
  ) -> Bool {
    var accumulator: UInt32 = 0
    var bits = 0
    var written = 0
    for position in 0..<length {
      accumulator = accumulator << 11 | UInt32(indices[position])
      bits += 11
      while bits >= 8, written < entropyBytes {
        bits -= 8
        entropy.storeBytes(
          of: UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)), toByteOffset: written,
          as: UInt8.self)
        written += 1
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    // The digest follows the entropy in the scratch, which keeps 64 bytes for the two.
    let digest = entropy + entropyBytes
    SHA256.hash(UnsafeRawBufferPointer(start: entropy, count: entropyBytes), into: digest)
    return UInt32(digest.load(as: UInt8.self) >> UInt8(8 - bits)) == accumulator
  }

  /// The NFKD sentence of the candidate, the PBKDF2 password.
  private func sentence(_ indices: UnsafeMutablePointer<UInt16>) -> SecureBytes {
    let length = search.wordCount
    var count = length - 1
    for position in 0..<length { count += sentenceWords[Int(indices[position])].count }
    return SecureBytes(count: count) { buffer in
      var offset = 0
      for position in 0..<length {
        if position > 0 {
          buffer[offset] = 0x20
          offset += 1
        }
        for byte in sentenceWords[Int(indices[position])] {
          buffer[offset] = byte
          offset += 1
        }
      }
    }
  }

  // MARK: - Results

  /// The phrase of `indices` in `part` and how it differs from the phrase as remembered.
  func recovered(part index: Int, passphrase: Int = 0, indices: [Int], matched: String?)
    throws(CandidateFileError) -> RecoveredPhrase
  {
    let phrase = search.phrase
    let list = Wordlist.named(phrase.language)
    // The checksum was verified before the candidate got here.
    let entropy = Mnemonic.entropy(fromWordIndices: indices)!
    let mnemonic = Mnemonic(
      verifiedEntropy: entropy, language: phrase.language, expandedAbbreviations: [])
    if let order = search.order {
      // The order found, and the unknown word's choice; the words moved are told by the order.
      let from = order.writtenPositions(of: indices)
      let changes = indices.indices.compactMap { position -> RecoveryChange? in
        guard phrase.words[from[position] - 1] == .unknown else { return nil }
        return RecoveryChange(
          position: position + 1, word: list.words[indices[position]],
          was: phrase.written[from[position] - 1])
      }
      var found = RecoveredPhrase(
        mnemonic: mnemonic, changes: changes, swappedPositions: nil, matched: matched)
      found.writtenPositions = from
      found.passphraseOrigin = passphrases.origin(passphrase)
      found.passphrase = try passphrases.passphrase(passphrase)
      return found
    }
    let part = search.parts[index]
    var changes: [RecoveryChange] = []
    for position in indices.indices {
      guard let place = origin(part: part, position: position) else {
        changes.append(
          RecoveryChange(position: position + 1, word: list.words[indices[position]], was: nil))
        continue
      }
      if phrase.words[place] == .known(indices[position]) { continue }
      changes.append(
        RecoveryChange(
          position: position + 1, word: list.words[indices[position]], was: phrase.written[place]))
    }
    var found = RecoveredPhrase(
      mnemonic: mnemonic, changes: changes, swappedPositions: part.swap.map { ($0 + 1, $0 + 2) },
      matched: matched)
    found.extraPositions = part.dropped.map { $0 + 1 }
    found.passphraseOrigin = passphrases.origin(passphrase)
    found.passphrase = try passphrases.passphrase(passphrase)
    return found
  }

  // MARK: - Definition

  private static func definitionHash(
    search: RecoverySearch, targets: [RecoveryTarget], passphrases: PassphraseSet,
    configuration: Configuration
  ) -> [UInt8] {
    var bytes = Array("freedom-keys recover search 1\0".utf8)
    func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    bytes += Array(search.phrase.language.rawValue.utf8) + [0]
    append(UInt64(search.phrase.words.count))
    for set in search.phrase.sets { for word in set.bits { append(word) } }
    appendDamageModels(of: search, to: &bytes)
    if passphrases.source == .single {
      bytes += SHA256.hash(passphrases.firstSalt)
    } else {
      // Keyed by the remembered words, so the checkpoint does not let a passphrase be guessed.
      bytes += Array("passphrases\0".utf8)
      append(UInt64(passphrases.count))
      bytes += passphrases.digest(
        key: SecureBytes(utf8: search.phrase.written.joined(separator: " ")))
    }
    appendTargets(targets, to: &bytes)
    append(UInt64(configuration.shardIndex))
    append(UInt64(configuration.shardCount))
    append(configuration.chunkSize)
    return SHA256.hash(bytes)
  }

  /// SHA-256 of the shape of a search that every shard shares and that holds no word and no
  /// passphrase: the language, the word count, the damage models, the number of candidates and
  /// the targets (public data). A checkpoint keeps it, to say what changed when it does not fit.
  package var shapeHash: [UInt8] {
    var bytes = Array("freedom-keys recover shards 1\0".utf8)
    func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    bytes += Array(search.phrase.language.rawValue.utf8) + [0]
    append(UInt64(search.phrase.words.count))
    Self.appendDamageModels(of: search, to: &bytes)
    append(candidateCount / UInt64(passphrases.count))
    if passphrases.count > 1 { append(UInt64(passphrases.count)) }
    Self.appendTargets(targets, to: &bytes)
    return SHA256.hash(bytes)
  }

  /// The hash the part results of one search share: the shape, and the words and passphrases
  /// as remembered through PBKDF2-HMAC-SHA512 at 64 times a seed's iterations, so that a part
  /// of a search whose words or passphrases changed is told apart, while guessing them from it
  /// costs more than checking a candidate against the targets does.
  package var publicSearchHash: [UInt8] {
    let shape = shapeHash
    let sets = search.phrase.sets
    let label = Array("words\0".utf8)
    let words = SecureBytes(count: label.count + sets.count * Wordlist.wordCount / 8) { buffer in
      buffer.copyBytes(from: label)
      var offset = label.count
      for set in sets {
        for word in set.bits {
          withUnsafeBytes(of: word.littleEndian) {
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + 8)]).copyMemory(
              from: $0)
          }
          offset += 8
        }
      }
    }
    let password =
      words
      + (passphrases.source == .single
        ? passphrases.firstSalt : SecureBytes(passphrases.digest(key: SecureBytes(shape))))
    let digest = PBKDF2.hmacSHA512(
      password: password, salt: Array("freedom-keys recover parts 1\0".utf8) + shape,
      iterations: Self.publicHashIterations, keyByteCount: 32)
    return SHA256.hash(
      Array("freedom-keys recover parts 1\0".utf8) + shape
        + digest.withUnsafeBytes { Array($0) })
  }

  /// 64 times BIP-39's 2048: about a tenth of a second, once per part result.
  static let publicHashIterations = 64 * Mnemonic.seedIterations

  /// The damage models of `search`, as both hashes take them.
  private static func appendDamageModels(of search: RecoverySearch, to bytes: inout [UInt8]) {
    func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    append(UInt64(search.missingWords))
    append(search.allowsSwap ? 1 : 0)
    append(UInt64(search.typos))
    // The models added later enter only when used, so earlier checkpoints still fit.
    if search.extraWords > 0 || search.requiresSwap || search.minimumTypos > 0 {
      bytes += Array("extra, swap required, fewest typos\0".utf8)
      append(UInt64(search.extraWords))
      append(search.requiresSwap ? 1 : 0)
      append(UInt64(search.minimumTypos))
    }
    if search.wrongWords == .close {
      // Versioned: another definition of close words is another search.
      bytes += Array("close wrong words 1\0".utf8)
    }
    if let order = search.order {
      // Versioned: another list of structured orders is another numbering.
      bytes += Array("order lost 1\0".utf8)
      append(UInt64(order.keptPositions.count))
      for position in order.keptPositions { append(UInt64(position)) }
      append(order.structuredCount)
      append(order.allOrdersCount ?? .max)
    }
  }

  /// The targets' definitions, each after its length, after their count.
  private static func appendTargets(_ targets: [RecoveryTarget], to bytes: inout [UInt8]) {
    func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    append(UInt64(targets.count))
    for target in targets {
      let definition = target.definitionBytes
      append(UInt64(definition.count))
      bytes += definition
    }
  }
}

/// Counts of one chunk.
struct Counts {
  var candidates: UInt64 = 0
  var checksumValid: UInt64 = 0
  var checked: UInt64 = 0
}

/// A match: the part, the passphrase, the word indices and the target.
struct Found: Sendable {
  let part: Int
  let passphrase: Int
  let indices: [Int]
  let label: String
  /// What the checkpoint records of it.
  let record: RecoveryProgress.Match
}

/// The state the workers share, touched once per chunk (and once per batch to see whether to
/// stop): which chunk comes next, which are done, the totals and a match.
private final class Coordinator: Sendable {
  private struct State {
    var progress: RecoveryProgress
    var done: Set<Int>
    var next: Int
    /// The next slice of chunk `next` to hand out.
    var nextSlice = 0
    /// Chunks with slices done but not all: their counts so far and the slices still to finish.
    var partial: [Int: (counts: Counts, remaining: Int)] = [:]
    var found: Found?
    var collected: [(part: Int, indices: [Int])] = []
    var collectedTooMany = false
    var failure: CandidateFileError?
  }

  private let state: Mutex<State>
  /// Read by every worker once per batch: a flag of its own, so that reading it takes no lock.
  private let stopping = Atomic<Bool>(false)
  private let chunkCount: Int
  /// The slices each chunk is cut into (1: chunks are handed out whole).
  let slices: Int
  private let collectLimit: Int
  private let started = DispatchTime.now().uptimeNanoseconds
  private let previousSeconds: Double

  init(progress: RecoveryProgress, chunkCount: Int, slices: Int, collect: Int) {
    state = Mutex(
      State(progress: progress, done: Set(progress.doneChunks), next: progress.doneBelow))
    self.chunkCount = chunkCount
    self.slices = max(1, slices)
    collectLimit = collect
    previousSeconds = progress.seconds
  }

  /// The next chunk and slice to search, or nil when none is left or the search stops.
  func take() -> (chunk: Int, slice: Int)? {
    guard !isStopping else { return nil }
    return state.withLock { state in
      while state.next < chunkCount, state.done.contains(state.next) { state.next += 1 }
      guard state.next < chunkCount else { return nil }
      let taken = (state.next, state.nextSlice)
      state.nextSlice += 1
      if state.nextSlice == slices {
        state.nextSlice = 0
        state.next += 1
      }
      return taken
    }
  }

  var isStopping: Bool { stopping.load(ordering: .acquiring) }

  func requestStop() { stopping.store(true, ordering: .releasing) }

  /// Stops the search for a candidates file that cannot be read any more (the slice that met
  /// it is not finished, so no checkpoint counts it).
  func fail(_ error: CandidateFileError) {
    state.withLock { state in
      if state.failure == nil { state.failure = error }
    }
    requestStop()
  }

  /// The first failure a worker met, if any.
  var failure: CandidateFileError? { state.withLock { $0.failure } }

  func collect(part: Int, indices: [Int]) {
    state.withLock { state in
      if state.collected.count < collectLimit {
        state.collected.append((part, indices))
      } else {
        state.collectedTooMany = true
      }
    }
  }

  /// Records a slice searched to its end (or to a match). A chunk's counts reach the progress
  /// only with the chunk done (its last slice, or its match), so a checkpoint counts exactly
  /// its done chunks.
  func finish(chunk: Int, counts: Counts, found: Found?) {
    state.withLock { state in
      var counts = counts
      if slices > 1 {
        var entry = state.partial[chunk] ?? (Counts(), slices)
        entry.counts.candidates += counts.candidates
        entry.counts.checksumValid += counts.checksumValid
        entry.counts.checked += counts.checked
        entry.remaining -= 1
        // A slice that ends after its chunk was closed by a match adds nothing more.
        guard !state.done.contains(chunk), chunk >= state.progress.doneBelow else { return }
        guard entry.remaining == 0 || found != nil else {
          state.partial[chunk] = entry
          return
        }
        state.partial[chunk] = nil
        counts = entry.counts
      }
      state.progress.candidates += counts.candidates
      state.progress.checksumValid += counts.checksumValid
      state.progress.checked += counts.checked
      state.done.insert(chunk)
      while state.done.contains(state.progress.doneBelow) {
        state.done.remove(state.progress.doneBelow)
        state.progress.doneBelow += 1
      }
      // The match is recorded in the same step that marks its chunk done, so no snapshot
      // (no checkpoint) has the chunk done without the match.
      if let found, state.found == nil {
        state.found = found
        state.progress.match = found.record
        requestStop()
      }
    }
  }

  func snapshot() -> RecoveryProgress {
    state.withLock { state in
      var snapshot = state.progress
      snapshot.doneChunks = state.done.sorted()
      snapshot.seconds =
        previousSeconds + Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
      return snapshot
    }
  }

  func outcome(
    _ recovered: (Int, Int, [Int], String?) throws(CandidateFileError) -> RecoveredPhrase
  ) throws(CandidateFileError) -> PhraseRecovery.Outcome {
    let snapshot = snapshot()
    let (found, collected) = state.withLock { state in
      (state.found, state.collectedTooMany ? nil : state.collected)
    }
    let complete = found != nil || snapshot.doneBelow >= chunkCount
    let candidates =
      try (collected ?? []).sorted { $0.indices.lexicographicallyPrecedes($1.indices) }.map {
        entry throws(CandidateFileError) in try recovered(entry.part, 0, entry.indices, nil)
      }
    return PhraseRecovery.Outcome(
      found: try found.map { found throws(CandidateFileError) in
        try recovered(found.part, found.passphrase, found.indices, found.label)
      },
      candidates: candidates,
      isComplete: complete, progress: snapshot, foundEarlier: false)
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// The order-lost model: its exact counts, its numbering (unranking against the walk), the
/// structured orders people produce found before the rest, shards covering the space once,
/// the checkpoint's match record and the refusals.
@Suite("recover: the order of the words lost")
struct PhraseOrderTests {
  typealias F = RecoveryFixture

  /// BIP-39 vector (Trezor) of 0xc0ba5a8e914111210f2bd131f3d5e08d: twelve distinct words.
  static let scheme = F.words(
    "scheme spot photo card baby mountain device kick cradle pact join borrow")
  /// BIP-39 vector (Trezor) of 0x15da872c…c90419: twenty-four distinct words.
  static let beyond = F.words(
    "beyond stage sleep clip because twist token leaf atom beauty genius food business side "
      + "grid unable middle armed observe pair crouch tonight away coconut")

  static func order(_ words: [String], keeping kept: [Int] = []) throws -> PhraseOrder {
    try PhraseOrder(
      phrase: DamagedPhrase(phrase: SecureBytes(utf8: words.joined(separator: " "))),
      keptPositions: kept)
  }

  /// Searches the orders of `written` for `truth`'s swarm address; stops once `limit`
  /// candidates are done (nil: to the end).
  static func search(
    _ written: [String], truth: [String], keeping kept: [Int] = [], limit: UInt64? = nil
  ) throws -> (PhraseRecovery.Outcome, PhraseRecovery) {
    let phrase = try DamagedPhrase(phrase: SecureBytes(utf8: written.joined(separator: " ")))
    let recovery = try PhraseRecovery(
      search: RecoverySearch(phrase: phrase, orderLostKeeping: kept),
      targets: [.address(try F.profile(truth, .english).swarm.address, of: .swarm)],
      configuration: .init(threads: 2, chunkSize: 1 << 12))
    let outcome = try recovery.run(tick: 0.05) { progress in
      limit.map { progress.candidates < $0 } ?? true
    }
    return (outcome, recovery)
  }

  // MARK: - Counting

  @Test func countsAreExact() throws {
    #expect(try Self.order(Self.scheme).allOrdersCount == 479_001_600)
    // legal ×2, winner ×2, thank ×2: each distinct order once.
    #expect(try Self.order(F.words(F.legalWinner)).allOrdersCount == 479_001_600 / 8)
    // abandon ×11: twelve places for 'about'.
    let abandon = Array(repeating: "abandon", count: 11) + ["about"]
    #expect(try Self.order(abandon).allOrdersCount == 12)
    // Seven kept: 5! orders of the rest.
    #expect(try Self.order(Self.scheme, keeping: [1, 2, 3, 5, 8, 9, 12]).allOrdersCount == 120)
    // 24 distinct words: 24! is more than can be counted; the structured orders only.
    let beyond = try Self.order(Self.beyond)
    #expect(beyond.allOrdersCount == nil)
    #expect(beyond.candidateCount == beyond.structuredCount)
    #expect(PhraseOrder.multinomial([0, 0, 1, 1, 2]) == 30)
    #expect(PhraseOrder.binomial(24, 12) == 2_704_156)
  }

  @Test func oneUnknownWordMultipliesByTheList() throws {
    var words = Self.scheme
    words[4] = "?"
    let order = try Self.order(words, keeping: [1, 2, 3, 5, 8, 9, 12])
    #expect(order.unknownChoices == 2048)
    #expect(order.candidateCount == (order.structuredCount + 120) * 2048)
  }

  @Test func unrankingMatchesTheWalk() throws {
    // 6 free positions holding legal ×2, winner ×2, thank, year: 6!/(2!·2!) = 180 orders.
    let order = try Self.order(F.words(F.legalWinner), keeping: [5, 6, 7, 8, 11, 12])
    #expect(order.allOrdersCount == 180)
    var walked = order.classes
    order.unrank(0, into: &walked)
    var seen = Set<[UInt8]>()
    for rank in 0..<UInt64(180) {
      var unranked = order.classes
      order.unrank(rank, into: &unranked)
      #expect(unranked == walked, "rank \(rank)")
      seen.insert(walked)
      let moved = walked.withUnsafeMutableBufferPointer { order.nextOrder($0.baseAddress!) }
      #expect(moved == (rank < 179))
    }
    #expect(seen.count == 180)
  }

  // MARK: - The orders people produce

  /// The rank of `truth` among the structured orders of `written`, if it is one.
  static func structuredRank(_ written: [String], truth: [String], keeping kept: [Int] = [])
    throws -> Int?
  {
    let order = try Self.order(written, keeping: kept)
    let classes = truth.map { word in
      order.classes[written.indices.first { written[$0] == word }!]
    }
    return order.structured.firstIndex(of: PhraseOrder.Packed(classes))
  }

  /// The 3×4 grid the words were written in by rows, read back by columns.
  static func gridByColumns(_ words: [String]) -> [String] {
    (0..<12).map { k in words[(k % 3) * 4 + k / 3] }
  }

  @Test func aGridReadByColumnsIsAStructuredOrder() throws {
    let written = Self.gridByColumns(Self.scheme)
    #expect(try Self.structuredRank(written, truth: Self.scheme) != nil)
    // And read by rows when written by columns.
    let other = (0..<12).map { k in Self.scheme[(k % 4) * 3 + k / 4] }
    #expect(try Self.structuredRank(other, truth: Self.scheme) != nil)
  }

  @Test func aGridReadByColumnsIsFound() throws {
    let written = Self.gridByColumns(Self.scheme)
    let order = try Self.order(written)
    // Only the structured orders are searched: the grid must be among them.
    let (outcome, _) = try Self.search(
      written, truth: Self.scheme, limit: order.structuredCount)
    #expect(try F.words(of: outcome.found) == Self.scheme)
    let from = try #require(outcome.found?.writtenPositions)
    #expect(from.map { written[$0 - 1] } == Self.scheme)
  }

  @Test func aSearchResumesFromItsCheckpoint() throws {
    let written = Self.gridByColumns(Self.scheme)
    let rank = try #require(try Self.structuredRank(written, truth: Self.scheme))
    let phrase = try DamagedPhrase(phrase: SecureBytes(utf8: written.joined(separator: " ")))
    let chunk: UInt64 = 8
    let recovery = try PhraseRecovery(
      search: RecoverySearch(phrase: phrase, orderLostKeeping: []),
      targets: [.address(try F.profile(Self.scheme, .english).swarm.address, of: .swarm)],
      configuration: .init(threads: 2, chunkSize: chunk))
    let structured = try #require(recovery.search.order?.structuredCount)
    /// A checkpoint with the chunks below `done` searched.
    func checkpoint(_ done: Int) -> RecoveryProgress {
      var progress = RecoveryProgress(
        searchHash: recovery.searchHash, shard: (1, 1), shape: recovery.shapeHash)
      progress.doneBelow = done
      progress.candidates = UInt64(done) * chunk
      return progress
    }
    // The chunks before the match's are done: the search goes on from there and finds it.
    let resumed = try recovery.run(resumingFrom: checkpoint(rank / Int(chunk)), tick: 0.05) {
      $0.candidates < structured
    }
    #expect(try F.words(of: resumed.found) == Self.scheme)
    // Its chunk done too: the rest of the likely orders hold no match.
    let past = try recovery.run(resumingFrom: checkpoint(rank / Int(chunk) + 1), tick: 0.05) {
      $0.candidates < structured
    }
    #expect(past.found == nil)
  }

  @Test func cardsSwappedAndOneWordMovedIsFound() throws {
    var written = Array(Self.beyond[12...] + Self.beyond[..<12])
    written.insert(written.remove(at: 3), at: 17)
    #expect(try Self.structuredRank(written, truth: Self.beyond) != nil)
    let (outcome, recovery) = try Self.search(written, truth: Self.beyond)
    #expect(try F.words(of: outcome.found) == Self.beyond)
    // The checkpoint's record of the match stands for the same phrase.
    let match = try #require(outcome.progress.match)
    #expect(try F.words(of: recovery.rederive(match)) == Self.beyond)
  }

  @Test func sevenKeptAndFiveShuffledIsFound() throws {
    let free = [3, 5, 6, 9, 10]
    var written = Self.scheme
    // A rotation of the five free words: no structured order.
    for (index, position) in free.enumerated() {
      written[position] = Self.scheme[free[(index + 2) % free.count]]
    }
    let kept = [1, 2, 3, 5, 8, 9, 12]
    #expect(try Self.structuredRank(written, truth: Self.scheme, keeping: kept) == nil)
    let (outcome, _) = try Self.search(written, truth: Self.scheme, keeping: kept)
    #expect(try F.words(of: outcome.found) == Self.scheme)
  }

  @Test func oneUnknownWordAndTwoExchanged() throws {
    let truth = F.words(F.legalWinner)
    var written = truth
    written.swapAt(2, 9)
    written[6] = "?"
    let (outcome, _) = try Self.search(written, truth: truth, keeping: [1, 2, 4, 5, 6, 8, 9])
    #expect(try F.words(of: outcome.found) == truth)
    #expect(outcome.found?.changes.map(\.position) == [7])
  }

  // MARK: - Parts

  /// Every checksum-valid candidate of a part of the search (no target: collected).
  static func collected(_ words: [String], kept: [Int], shard: (Int, Int)) throws
    -> [[String]]
  {
    let phrase = try DamagedPhrase(phrase: SecureBytes(utf8: words.joined(separator: " ")))
    let recovery = try PhraseRecovery(
      search: RecoverySearch(phrase: phrase, orderLostKeeping: kept), targets: [],
      configuration: .init(threads: 2, shardIndex: shard.0, shardCount: shard.1, chunkSize: 64))
    let outcome = try recovery.run(collect: 100_000)
    #expect(outcome.isComplete)
    return try outcome.candidates.map { try F.words(of: $0) }
  }

  @Test func shardsCoverTheOrdersOnce() throws {
    let words = F.words(F.legalWinner)
    let kept = [1, 5, 6, 7, 8]
    let whole = try Self.collected(words, kept: kept, shard: (1, 1))
    // Each distinct order once, however often it is also a structured one.
    #expect(Set(whole).count == whole.count)
    #expect(!whole.isEmpty)
    var parts: [[String]] = []
    for index in 1...3 { parts += try Self.collected(words, kept: kept, shard: (index, 3)) }
    func sorted(_ list: [[String]]) -> [[String]] {
      list.sorted { $0.lexicographicallyPrecedes($1) }
    }
    #expect(sorted(parts) == sorted(whole))
    // Every checksum-valid order of the free words, counted directly.
    let order = try Self.order(words, keeping: kept)
    var current = order.classes
    order.unrank(0, into: &current)
    var valid = 0
    repeat {
      let indices = current.map { Int(order.classWords[Int($0)]) }
      if Mnemonic.entropy(fromWordIndices: indices) != nil { valid += 1 }
    } while current.withUnsafeMutableBufferPointer { order.nextOrder($0.baseAddress!) }
    #expect(whole.count == valid)
  }

  // MARK: - Refusals

  @Test func refusals() throws {
    #expect(throws: RecoveryError.keptPositionOutOfRange(position: 13, words: 12)) {
      try Self.order(Self.scheme, keeping: [1, 13])
    }
    #expect(throws: RecoveryError.keptPositionRepeated(4)) {
      try Self.order(Self.scheme, keeping: [4, 2, 4])
    }
    var two = Self.scheme
    two[2] = "?"
    two[7] = "?"
    #expect(throws: RecoveryError.orderLostSecondUnknown(position: 8)) {
      try Self.order(two)
    }
    var prefix = Self.scheme
    prefix[5] = "mou*"
    #expect(throws: RecoveryError.orderLostNeedsWords(position: 6)) {
      try Self.order(prefix)
    }
  }
}

import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

@testable import Recovery

/// Part results merged: found, exhausted, incomplete (missing, interrupted, still being
/// written), and what is refused — another search (other words or passphrases included),
/// another split, a duplicate, counts that cannot be true.
@Suite("recover: collecting parts")
struct ShardCollectionTests {
  typealias F = RecoveryFixture
  typealias S = RecoverySessionTests

  /// The parts of the search with the last word unknown, cut `count` ways, against `target`.
  static func parts(
    count: Int, changes: [Int: String] = [12: "?"], target: RecoveryTarget? = nil,
    passphrases: PassphraseSet = PassphraseSet()
  ) throws -> [(name: String, bytes: [UInt8])] {
    try (1...count).map { index in
      let session = try S.session(
        changes, damage: RecoveryDamage(), targets: [try target ?? S.target()],
        passphrases: passphrases, shard: (index, count), sharded: true)
      let part = try #require(try session.run().part)
      return ("part-\(index).json", part.jsonBytes())
    }
  }

  /// A target no candidate matches.
  static func nothing() throws -> RecoveryTarget {
    .address(try F.profile(F.words(F.letterAdvice), .english).swarm.address, of: .swarm)
  }

  static func edited(_ bytes: [UInt8], _ from: String, _ to: String) -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    precondition(text.contains(from), "\(from) is not in the result")
    return Array(text.replacingOccurrences(of: from, with: to).utf8)
  }

  @Test func foundExhaustedAndIncomplete() throws {
    let found = try ShardCollection(files: try Self.parts(count: 3))
    #expect(found.status == .found)
    #expect(found.found.map(\.result.index).count == 1)
    #expect(found.missing.isEmpty)
    #expect(found.searchCandidates == 2048)

    let none = try Self.parts(count: 3, target: try Self.nothing())
    let exhausted = try ShardCollection(files: none)
    #expect(exhausted.status == .exhausted)
    #expect(exhausted.searched == 2048)
    #expect(exhausted.candidates == 2048)

    let partial = try ShardCollection(files: [none[0], none[2]])
    #expect(partial.status == .incomplete)
    #expect(partial.missing == [2])
    // The parts read, against the whole search.
    #expect(partial.candidates < partial.searchCandidates)
    #expect(partial.searchCandidates == 2048)

    var stopped = none
    stopped[1].bytes = Self.edited(stopped[1].bytes, "\"complete\": true", "\"complete\": false")
    let interrupted = try ShardCollection(files: stopped)
    #expect(interrupted.status == .incomplete)
    #expect(interrupted.interrupted == [2])
  }

  @Test(arguments: [0, 1, 40])
  func aResultStillBeingWrittenIsUnfinishedNotRefused(keep: Int) throws {
    var files = try Self.parts(count: 3, target: try Self.nothing())
    files[1].bytes = Array(files[1].bytes.prefix(keep))
    let collection = try ShardCollection(files: files)
    #expect(collection.status == .incomplete)
    #expect(collection.unfinished == ["part-2.json"])
    #expect(collection.missing == [2])
    // Every one still being written: nothing to merge yet.
    #expect(throws: ShardCollectionError.allUnfinished(["part-2.json"])) {
      try ShardCollection(files: [files[1]])
    }
  }

  @Test func anythingElseIsRefusedByName() throws {
    var files = try Self.parts(count: 3, target: try Self.nothing())
    files[0].bytes = Array("{]".utf8)
    #expect {
      try ShardCollection(files: files)
    } throws: { error in
      guard case .unreadable("part-1.json", .malformed(let reason)) = error as? ShardCollectionError
      else { return false }
      return reason.hasPrefix("invalid JSON at byte 1")
    }
  }

  @Test func partsOfAnotherSearchAreRefusedWordsAndPassphrasesIncluded() throws {
    let parts = try Self.parts(count: 2, target: try Self.nothing())
    // The same shape (count, options, targets), another remembered word: the shape hash is
    // the same, the public hash is not.
    let otherWords = try Self.parts(
      count: 2, changes: [1: "letter", 12: "?"], target: try Self.nothing())
    let otherPassphrase = try Self.parts(
      count: 2, target: try Self.nothing(),
      passphrases: PassphraseSet(passphrase: SecureBytes(utf8: "TREZOR")))
    for other in [otherWords, otherPassphrase] {
      #expect(throws: ShardCollectionError.otherSearch(file: "part-2.json", first: "part-1.json")) {
        try ShardCollection(files: [parts[0], other[1]])
      }
    }
    let split = try Self.parts(count: 3, target: try Self.nothing())
    #expect(
      throws: ShardCollectionError.otherSplit(
        file: "part-3.json", index: 3, count: 3, first: "part-1.json", firstCount: 2)
    ) {
      try ShardCollection(files: [parts[0], split[2]])
    }
    #expect(
      throws: ShardCollectionError.duplicate(first: "part-1.json", second: "again.json", index: 1)
    ) {
      try ShardCollection(files: [parts[0], ("again.json", parts[0].bytes), parts[1]])
    }
  }

  @Test func theWordsAndPassphrasesEnterOnlyThePublicHash() throws {
    let a = try S.session([12: "?"], damage: RecoveryDamage(), shard: (1, 2), sharded: true)
    let b = try S.session(
      [1: "letter", 12: "?"], damage: RecoveryDamage(), shard: (1, 2), sharded: true)
    let c = try S.session(
      [12: "?"], damage: RecoveryDamage(),
      passphrases: PassphraseSet(passphrase: SecureBytes(utf8: "TREZOR")), shard: (1, 2),
      sharded: true)
    let (ra, rb, rc) = (a.phases[0].recovery, b.phases[0].recovery, c.phases[0].recovery)
    #expect(ra.shapeHash == rb.shapeHash)
    #expect(ra.shapeHash == rc.shapeHash)
    #expect(ra.publicSearchHash != rb.publicSearchHash)
    #expect(ra.publicSearchHash != rc.publicSearchHash)
    #expect(rb.publicSearchHash != rc.publicSearchHash)
  }

  @Test func countsThatCannotBeTrueAreRefusedWithoutACrash() throws {
    let parts = try Self.parts(count: 2, target: try Self.nothing())
    // Two parts of 2^63 candidates each claim a search of 2^64 - 1: their sum overflows.
    let huge = parts.map { part in
      var bytes = Self.edited(
        part.bytes, "\"searchCandidates\": 2048", "\"searchCandidates\": 18446744073709551615")
      bytes = Self.edited(bytes, "\"candidates\": 1024", "\"candidates\": 9223372036854775808")
      bytes = Self.edited(bytes, "\"complete\": true", "\"complete\": false")
      return (name: part.name, bytes: bytes)
    }
    #expect(throws: ShardCollectionError.countsExceedSearch(searchCandidates: .max)) {
      try ShardCollection(files: huge)
    }
    // Complete without a match, having searched nothing.
    var empty = parts
    empty[1].bytes = Self.edited(empty[1].bytes, "\"searched\": 1024", "\"searched\": 0")
    empty[1].bytes = Self.edited(
      empty[1].bytes, "\"checksumValid\": ", "\"checksumValid\": 0, \"x\": ")
    #expect {
      try ShardCollection(files: empty)
    } throws: { error in
      guard case .unreadable("part-2.json", let reason) = error as? ShardCollectionError else {
        return false
      }
      return reason == .completeButUnsearched(searched: 0, candidates: 1024)
    }
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// How merged part results read, as lines and as JSON, naming no tool and no option.
@Suite("recover: collected parts in words")
struct ShardCollectionTextTests {
  static let search = String(repeating: "ab", count: 32)

  /// Phrase part `index` of 3 (10 candidates each of 30).
  static func part(
    _ index: Int, found: Bool = false, complete: Bool = true, searched: Int = 10
  ) -> (name: String, bytes: [UInt8]) {
    let changes =
      found
      ? "[{\"position\": 4, \"word\": \"abandon\", \"was\": \"abot\"}, "
        + "{\"position\": 7, \"word\": \"zoo\", \"was\": \"\"}]" : "[]"
    let matched = found ? ", \"matched\": \"swarm.address\"" : ""
    let json =
      "{\"found\": \(found), \"changes\": \(changes)\(matched), \"complete\": \(complete), "
      + "\"candidates\": 10, \"searched\": \(searched), \"checksumValid\": 1, \"checked\": 1, "
      + "\"seconds\": 0.0, \"shard\": {\"index\": \(index), \"count\": 3}, "
      + "\"searchCandidates\": 30, \"search\": \"\(search)\"}\n"
    return ("part-\(index).json", Array(json.utf8))
  }

  @Test func aPhraseFoundByOnePart() throws {
    let collection = try ShardCollection(files: [
      Self.part(1), Self.part(2, found: true, searched: 5),
    ])
    let entry = try #require(collection.found.first)
    #expect(
      collection.foundLines(entry) == [
        "found by shard 2 of 3 (part-2.json)", "word 4 is 'abandon' (was 'abot')",
        "word 7 is 'zoo' (was missing)", "matched swarm.address",
      ])
    #expect(
      collection.summaryLines == [
        "2 of 3 shards: 15 of 30 candidates searched", "missing: shard 3",
      ])
    let change: (UInt64, String, String) -> JSONValue = {
      .object(["position": .number($0), "word": .string($1), "was": .string($2)])
    }
    let expected: JSONObject = [
      "status": .string("found"), "shards": .number(3), "missing": .array([.number(3)]),
      "incomplete": .array([]), "unfinished": .array([]), "candidates": .number(20),
      "searched": .number(15), "searchCandidates": .number(30), "search": .string(Self.search),
      "results": .array([
        .object([
          "shard": .number(1), "file": .string("part-1.json"), "complete": .bool(true),
          "found": .bool(false), "changes": .array([]), "candidates": .number(10),
          "searched": .number(10), "checksumValid": .number(1),
        ]),
        .object([
          "shard": .number(2), "file": .string("part-2.json"), "complete": .bool(true),
          "found": .bool(true),
          "changes": .array([change(4, "abandon", "abot"), change(7, "zoo", "")]),
          "matched": .string("swarm.address"), "candidates": .number(10),
          "searched": .number(5), "checksumValid": .number(1),
        ]),
      ]),
    ]
    #expect(collection.json() == .object(expected))
  }

  @Test func exhaustedAndIncomplete() throws {
    let exhausted = try ShardCollection(files: [Self.part(1), Self.part(2), Self.part(3)])
    #expect(exhausted.status == .exhausted)
    #expect(
      exhausted.summaryLines == [
        "3 of 3 shards: 30 of 30 candidates searched",
        "every shard searched everything; none matched",
      ])
    #expect(
      exhausted.exhaustedReason
        == "no shard matched the targets: all 3 shards searched all 30 candidates")

    let incomplete = try ShardCollection(files: [
      Self.part(1), Self.part(2, complete: false, searched: 4), ("part-4.json", []),
    ])
    #expect(
      incomplete.summaryLines == [
        "2 of 3 shards: 14 of 30 candidates searched", "missing: shard 3",
        "interrupted: shard 2", "still being written: part-4.json",
      ])
    #expect(
      incomplete.incompleteReason
        == "the search is incomplete (14 of 30 candidates searched; shard 3 missing, 2 "
        + "interrupted; part-4.json still being written (a shard running, or stopped while "
        + "writing its result))")
    let missingOnly = try ShardCollection(files: [Self.part(1)])
    #expect(
      missingOnly.incompleteReason
        == "the search is incomplete (10 of 30 candidates searched; shard 2 missing, 3 missing)")
  }

  @Test func aPasswordFoundByOnePart() throws {
    typealias P = PasswordPartTests
    let vault = PasswordTarget.vault(
      try DesktopVault(
        json: try PasswordRecoveryTests.vector("vaults/legacy-no-keymetadata.json")))
    let files = [
      P.part(1, of: 3, target: vault), P.part(2, of: 3, target: vault),
      P.part(3, of: 3, target: vault, opened: .vault(words: 24)),
    ]
    let collection = try ShardCollection(files: files)
    let entry = try #require(collection.found.first)
    #expect(
      collection.foundLines(entry) == [
        "found by shard 3 of 3 (part-3.json)", "the password opens the vault",
      ])
    #expect(collection.summaryLines == ["3 of 3 shards: 134 of 200 passwords tried"])
    guard case .object(let json) = collection.json() else {
      Issue.record("not an object")
      return
    }
    let keys = json.members.map(\.key)
    #expect(keys.suffix(2) == ["kind", "file"])
    #expect(json.members.last?.value == .string(Hex.encode(vault.publicHash)))
    guard case .array(let results) = json.members.first(where: { $0.key == "results" })?.value,
      case .object(let last) = results.last
    else {
      Issue.record("no results")
      return
    }
    #expect(
      last.members.map(\.key) == [
        "shard", "file", "complete", "found", "matched", "candidates", "searched",
      ])

    let exhausted = try ShardCollection(files: files.dropLast() + [P.part(3, of: 3, target: vault)])
    #expect(
      exhausted.exhaustedReason
        == "no shard opened the file: all 3 shards tried all 200 passwords")
  }

  @Test func remediesNameNoTool() {
    #expect(ShardCollectionError.duplicate(first: "a", second: "b", index: 1).remedy == "keep one")
    #expect(
      ShardCollectionError.otherSplit(file: "a", index: 1, count: 2, first: "b", firstCount: 3)
        .remedy == "a search is split one way; remove the results of the other split")
    #expect(
      ShardCollectionError.otherSearch(file: "a", first: "b", kind: .password).remedy?
        .contains("passwords, typos, tokens or candidates") == true)
    #expect(
      ShardCollectionError.otherSearch(file: "a", first: "b").remedy?.contains(
        "words, passphrases, options or targets") == true)
    #expect(ShardCollectionError.noResults.remedy == nil)
    #expect(ShardCollectionError.unreadable(file: "a", .unfinished).remedy == nil)
  }
}

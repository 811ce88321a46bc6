import CryptoPrimitives
import VaultKeys

/// How merged part results read, as lines and as JSON, in words that name no tool and no
/// option: a caller adds how to write what a part found, and what to do about the rest.
extension ShardCollection {
  // MARK: - Text

  /// What the part of `entry` found, one line each: "found by shard 2 of 3 (FILE)", the words
  /// it changed ("word 4 is 'x' (was 'y')") and the target it matched, or what the password
  /// opens.
  package func foundLines(_ entry: Entry) -> [String] {
    let result = entry.result
    var lines = ["found by shard \(result.index) of \(count) (\(entry.file))"]
    switch result.kind {
    case .password:
      let matched = result.matched ?? ""
      lines.append(
        matched == "vault"
          ? "the password opens the vault" : "the password opens the keystore of \(matched)")
    case .phrase:
      if let order = result.order, order != Array(1...UInt64(order.count)) {
        lines.append(
          "the words in order are the written words "
            + order.map { String($0) }.joined(separator: " "))
      }
      for change in result.changes {
        let was = change.was.isEmpty ? "missing" : "'\(change.was)'"
        lines.append("word \(change.position) is '\(change.word)' (was \(was))")
      }
      if result.changes.isEmpty, result.order == nil {
        lines.append("the phrase was right as remembered")
      }
      lines.append("matched \(result.matched ?? "")")
    }
    return lines
  }

  /// How far the parts got: "2 of 3 shards: 1,000 of 1,500 candidates searched", then the
  /// parts missing, interrupted or still being written, and whether none matched.
  package var summaryLines: [String] {
    var lines = [
      "\(results.count) of \(count) shards: \(RecoveryText.grouped(searched)) of "
        + "\(RecoveryText.grouped(searchCandidates)) "
        + (kind == .password ? "passwords tried" : "candidates searched")
    ]
    if !missing.isEmpty {
      lines.append("missing: shard " + missing.map(String.init).joined(separator: ", "))
    }
    if !interrupted.isEmpty {
      lines.append("interrupted: shard " + interrupted.map(String.init).joined(separator: ", "))
    }
    if !unfinished.isEmpty {
      lines.append("still being written: " + unfinished.joined(separator: ", "))
    }
    if status == .exhausted { lines.append("every shard searched everything; none matched") }
    return lines
  }

  /// Why an exhausted search found nothing: "no shard matched the targets: all 3 shards
  /// searched all 1,500 candidates" (for a password: "no shard opened the file: …").
  package var exhaustedReason: String {
    let whole = RecoveryText.grouped(searchCandidates)
    return kind == .password
      ? "no shard opened the file: all \(count) shards tried all \(whole) passwords"
      : "no shard matched the targets: all \(count) shards searched all \(whole) candidates"
  }

  /// Why an incomplete search cannot answer yet: "the search is incomplete (1,000 of 1,500
  /// candidates searched; shard 2 missing, 3 interrupted; x.json still being written (a
  /// shard running, or stopped while writing its result))".
  package var incompleteReason: String {
    let shards = missing.map { "\($0) missing" } + interrupted.map { "\($0) interrupted" }
    let running =
      unfinished.isEmpty
      ? ""
      : "; \(unfinished.joined(separator: ", ")) still being written (a shard running, or "
        + "stopped while writing its result)"
    return
      "the search is incomplete (\(RecoveryText.grouped(searched)) of "
      + "\(RecoveryText.grouped(searchCandidates)) candidates searched"
      + "\(shards.isEmpty ? "" : "; shard " + shards.joined(separator: ", "))\(running))"
  }

  // MARK: - JSON

  /// The merged answer as one JSON object: its status, which parts are missing, incomplete or
  /// unfinished, the counts, the search's hash and every part's result (no word, no password).
  package func json() -> JSONValue {
    var object: JSONObject = [
      "status": .string(status.rawValue), "shards": .number(UInt64(count)),
      "missing": .array(missing.map { .number(UInt64($0)) }),
      "incomplete": .array(interrupted.map { .number(UInt64($0)) }),
      "unfinished": .array(unfinished.map { .string($0) }),
      "candidates": .number(candidates), "searched": .number(searched),
      "searchCandidates": .number(searchCandidates),
      "search": .string(Hex.encode(search)),
      "results": .array(results.map(Self.json)),
    ]
    if kind == .password {
      object.append("kind", .string("password"))
      object.append("file", .string(Hex.encode(file ?? [])))
    }
    return .object(object)
  }

  /// One part's result as the merged answer lists it.
  private static func json(_ entry: Entry) -> JSONValue {
    let result = entry.result
    var object: JSONObject = [
      "shard": .number(UInt64(result.index)), "file": .string(entry.file),
      "complete": .bool(result.complete), "found": .bool(result.found),
    ]
    if result.kind == .phrase {
      object.append(
        "changes",
        .array(
          result.changes.map {
            .object([
              "position": .number($0.position), "word": .string($0.word), "was": .string($0.was),
            ])
          }))
    }
    if let order = result.order { object.append("order", .array(order.map { .number($0) })) }
    if let matched = result.matched { object.append("matched", .string(matched)) }
    object.append("candidates", .number(result.candidates))
    object.append("searched", .number(result.searched))
    if result.kind == .phrase {
      object.append("checksumValid", .number(result.checksumValid))
    }
    return .object(object)
  }
}

extension ShardCollectionError {
  /// What to do about results of more than one search, split or part, in words that name no
  /// tool; nil where only the caller can say (how to run a part again, what its results are).
  package var remedy: String? {
    switch self {
    case .otherFile: "collect the results of one file's search in a directory of their own"
    case .otherSearch(_, _, .password):
      "collect the results of one search in a directory of their own (a search whose "
        + "passwords, typos, tokens or candidates changed is another search)"
    case .otherSearch:
      "collect the results of one search in a directory of their own (a search whose words, "
        + "passphrases, options or targets changed is another search)"
    case .otherSplit: "a search is split one way; remove the results of the other split"
    case .duplicate: "keep one"
    default: nil
    }
  }
}

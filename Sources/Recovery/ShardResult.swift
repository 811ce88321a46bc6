import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What one part (shard) of a search did, as a cluster job leaves it for `ShardCollection`:
/// whether it found the phrase (the words it changed, the target it matched) or the password
/// (what it opened), how far it got, and the search's public hash. No word as written, no
/// passphrase, never the phrase, never a password.
package struct ShardResult: Sendable, Equatable {
  /// What a search looks for. A phrase part's JSON names no kind (as before passwords).
  package enum Kind: String, Sendable {
    case phrase, password
  }

  /// One word of the match that differs from the one remembered.
  package struct Change: Sendable, Equatable {
    package let position: UInt64
    package let word: String
    /// What was remembered there; empty for a word that was missing.
    package let was: String
  }

  package let kind: Kind
  /// A password part's file: `PasswordTarget.publicHash` (its kind, KDF and salt), so parts of
  /// another file are told apart without its path. Nil for a phrase part.
  package let file: [UInt8]?
  package let found: Bool
  /// The match is the one the part's checkpoint recorded (nothing was searched again).
  package let foundEarlier: Bool
  package let changes: [Change]
  /// When only the order was lost: for each position, the 1-based written position of its
  /// word (`RecoveredPhrase.writtenPositions`); nil otherwise.
  package var order: [UInt64]?
  /// The target that matched (`swarm.address`, …; for a password, `vault` or the keystore's
  /// address), exactly when `found`.
  package let matched: String?
  /// Whether the part was searched to its end (or to a match).
  package let complete: Bool
  /// The part's candidates.
  package let candidates: UInt64
  package let searched: UInt64
  package let checksumValid: UInt64
  package let checked: UInt64
  /// The time the part searched (written, not read back: a reader sees 0).
  package let seconds: Double
  /// The part: `index` of `count`, 1-based.
  package let index: Int
  package let count: Int
  /// The whole search's candidates.
  package let searchCandidates: UInt64
  /// `PhraseRecovery.publicSearchHash`: the parts of one search share it.
  package let search: [UInt8]

  /// The most parts a search is cut into.
  package static let maximumCount = 1 << 20

  /// The result of `recovery` (one part) with `progress`.
  init(
    recovery: PhraseRecovery, progress: RecoveryProgress?, found phrase: RecoveredPhrase?,
    foundEarlier: Bool, complete: Bool
  ) {
    kind = .phrase
    file = nil
    found = phrase != nil
    self.foundEarlier = foundEarlier
    changes = (phrase?.changes ?? []).map {
      Change(position: UInt64($0.position), word: $0.word, was: $0.was ?? "")
    }
    matched = phrase?.matched
    order = phrase?.writtenPositions?.map(UInt64.init)
    self.complete = complete
    candidates = UInt64(recovery.range.count)
    searched = progress?.candidates ?? 0
    checksumValid = progress?.checksumValid ?? 0
    checked = progress?.checked ?? 0
    seconds = progress?.seconds ?? 0
    index = recovery.configuration.shardIndex
    count = recovery.configuration.shardCount
    searchCandidates = recovery.candidateCount
    search = recovery.publicSearchHash
  }

  /// The result of part `index` of `count` of a password search (its public hash `search`):
  /// `candidates` of the search's `searchCandidates` are the part's, `searched` of them were
  /// tried; `opened`: what the password found opened. The password is not in it.
  package init(
    password target: PasswordTarget, search: [UInt8], part index: Int, of count: Int,
    candidates: UInt64, searchCandidates: UInt64, searched: UInt64,
    opened: PasswordTarget.Opened?, foundEarlier: Bool, complete: Bool, seconds: Double
  ) {
    kind = .password
    file = target.publicHash
    found = opened != nil
    self.foundEarlier = foundEarlier
    changes = []
    matched = opened.map {
      switch $0 {
      case .vault: "vault"
      case .keystore(let address): address.checksummed
      }
    }
    self.complete = complete
    (self.candidates, self.searched, checksumValid, checked) = (candidates, searched, 0, 0)
    self.seconds = seconds
    (self.index, self.count, self.searchCandidates, self.search) =
      (index, count, searchCandidates, search)
  }

  /// The result as one line of JSON (with its newline): what `init(json:)` reads.
  package func jsonBytes() -> [UInt8] {
    var object: JSONObject = [:]
    if kind == .password {
      object.append("kind", .string(kind.rawValue))
      object.append("file", .string(Hex.encode(file ?? [])))
    }
    object.append("found", .bool(found))
    if foundEarlier { object.append("foundEarlier", .bool(true)) }
    if kind == .phrase {
      object.append(
        "changes",
        .array(
          changes.map {
            .object([
              "position": .number($0.position), "word": .string($0.word), "was": .string($0.was),
            ])
          }))
    }
    if let order { object.append("order", .array(order.map { .number($0) })) }
    if let matched { object.append("matched", .string(matched)) }
    object.append("complete", .bool(complete))
    object.append("candidates", .number(candidates))
    object.append("searched", .number(searched))
    if kind == .phrase {
      object.append("checksumValid", .number(checksumValid))
      object.append("checked", .number(checked))
    }
    object.append("seconds", .tenths(seconds))
    object.append(
      "shard", .object(["index": .number(UInt64(index)), "count": .number(UInt64(count))]))
    object.append("searchCandidates", .number(searchCandidates))
    object.append("search", .string(Hex.encode(search)))
    return Array((JSONValue.object(object).rendered() + "\n").utf8)
  }

  /// Reads a result `jsonBytes()` wrote. A file still being written (empty, or cut short) is
  /// `.unfinished`, told apart from one that is not a result at all.
  package init(json: some ContiguousBytes) throws(ShardResultError) {
    let parsed: Result<ShardResult, ShardResultError> = json.withUnsafeBytes { raw in
      do throws(ShardResultError) {
        return .success(try Self.parse(raw))
      } catch {
        return .failure(error)
      }
    }
    self = try parsed.get()
  }

  private init(
    kind: Kind, file: [UInt8]?, found: Bool, foundEarlier: Bool, changes: [Change],
    matched: String?, complete: Bool,
    candidates: UInt64, searched: UInt64, checksumValid: UInt64, checked: UInt64,
    seconds: Double, index: Int, count: Int, searchCandidates: UInt64, search: [UInt8]
  ) {
    (self.kind, self.file) = (kind, file)
    (self.found, self.foundEarlier, self.changes, self.matched) =
      (found, foundEarlier, changes, matched)
    (self.complete, self.candidates, self.searched) = (complete, candidates, searched)
    (self.checksumValid, self.checked, self.seconds) = (checksumValid, checked, seconds)
    (self.index, self.count, self.searchCandidates, self.search) =
      (index, count, searchCandidates, search)
  }

  private static func parse(_ raw: UnsafeRawBufferPointer) throws(ShardResultError)
    -> ShardResult
  {
    let isBlank = raw.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    guard !isBlank else { throw .unfinished }
    let root: JSONNode
    do {
      root = try JSONText.parse(raw)
    } catch {
      // Valid so far and cut off: a job still writing, or killed while it wrote.
      if error.offset >= raw.count { throw .unfinished }
      throw .malformed(error.description)
    }
    guard case .object = root.kind else { throw .malformed("it is not a JSON object") }
    func member(_ name: String, of node: JSONNode) throws(ShardResultError) -> JSONNode {
      let found = node.members(named: name)
      guard found.count == 1 else { throw .malformed("it needs exactly one \"\(name)\"") }
      return found[0].value
    }
    func number(_ name: String, of node: JSONNode = root) throws(ShardResultError) -> UInt64 {
      guard let value = JSONText.unsignedInteger(try member(name, of: node), in: raw) else {
        throw .malformed("\"\(name)\" is not a whole number")
      }
      return value
    }
    func bool(_ name: String) throws(ShardResultError) -> Bool {
      guard case .bool(let value) = try member(name, of: root).kind else {
        throw .malformed("\"\(name)\" is not true or false")
      }
      return value
    }
    func string(_ name: String, of node: JSONNode = root) throws(ShardResultError) -> String {
      let value = try member(name, of: node)
      guard JSONText.isString(value) else { throw .malformed("\"\(name)\" is not a string") }
      return JSONText.string(value, in: raw)
    }
    let shard = try member("shard", of: root)
    let index = try number("index", of: shard)
    let count = try number("count", of: shard)
    guard count >= 1, count <= UInt64(maximumCount), (1...count).contains(index) else {
      throw .malformed("\"shard\" is not an index from 1 to its count")
    }
    guard let search = Hex.decode(try string("search")), search.count == SHA256.byteCount else {
      throw .malformed("\"search\" is not a SHA-256 in hex")
    }
    let kindName = root.members(named: "kind").isEmpty ? "phrase" : try string("kind")
    guard let kind = Kind(rawValue: kindName) else {
      throw .malformed("\"kind\" is neither phrase nor password")
    }
    var file: [UInt8]?
    if kind == .password {
      guard let hash = Hex.decode(try string("file")), hash.count == SHA256.byteCount else {
        throw .malformed("\"file\" is not a SHA-256 in hex")
      }
      file = hash
    }
    // A password part changes no word and checks no checksum.
    let changeNodes: [JSONNode]
    if kind == .password {
      changeNodes = []
    } else {
      guard case .array(let nodes) = try member("changes", of: root).kind else {
        throw .malformed("\"changes\" is not an array")
      }
      changeNodes = nodes
    }
    var changes: [Change] = []
    for node in changeNodes {
      changes.append(
        Change(
          position: try number("position", of: node), word: try string("word", of: node),
          was: try string("was", of: node)))
    }
    let found = try bool("found")
    let matched = root.members(named: "matched").isEmpty ? nil : try string("matched")
    guard found == (matched != nil) else {
      throw .malformed("\"matched\" is given exactly when \"found\" is true")
    }
    let earlier = root.members(named: "foundEarlier").isEmpty ? false : try bool("foundEarlier")
    var result = ShardResult(
      kind: kind, file: file, found: found, foundEarlier: earlier, changes: changes,
      matched: matched, complete: try bool("complete"), candidates: try number("candidates"),
      searched: try number("searched"),
      checksumValid: kind == .password ? 0 : try number("checksumValid"),
      checked: root.members(named: "checked").isEmpty ? 0 : try number("checked"),
      seconds: 0, index: Int(index), count: Int(count),
      searchCandidates: try number("searchCandidates"), search: search)
    if !root.members(named: "order").isEmpty {
      guard case .array(let nodes) = try member("order", of: root).kind, found,
        nodes.count <= 24
      else { throw .malformed("\"order\" is not an array of positions of a match") }
      result.order = []
      for node in nodes {
        guard let position = JSONText.unsignedInteger(node, in: raw),
          (1...UInt64(nodes.count)).contains(position)
        else {
          throw .malformed("\"order\" holds a position outside the phrase")
        }
        result.order?.append(position)
      }
    }
    guard result.searched <= result.candidates, result.candidates <= result.searchCandidates,
      result.checksumValid <= result.searched
    else { throw .malformed("its counts are larger than its part or search") }
    // A part that says it searched everything must have: a match may end it early.
    guard !result.complete || result.found || result.searched == result.candidates else {
      throw .completeButUnsearched(searched: result.searched, candidates: result.candidates)
    }
    return result
  }
}

/// Why a part result cannot be used.
package enum ShardResultError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Empty or cut short: its part is still running, or stopped while writing it.
  case unfinished
  /// Not a part result (or changed): why, in a few words.
  case malformed(String)
  /// It says its part is complete without a match, yet it searched fewer than its candidates.
  case completeButUnsearched(searched: UInt64, candidates: UInt64)

  package var description: String {
    switch self {
    case .unfinished:
      "it is empty or cut short: its part is still running, or stopped while writing it"
    case .malformed(let reason): reason
    case .completeButUnsearched(let searched, let candidates):
      "it says its part is complete without a match, but it searched \(searched) of its "
        + "\(candidates) candidates"
    }
  }
}

import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How far a password search got, kept between runs: every password below `doneBelow` was
/// tried, and, once found, which one opened the file (its number, never its text).
///
/// `{"format": "freedom-keys password checkpoint 1", "search": "<hex>", "doneBelow": 64}`, with
/// `"found": 7` once found, and `"shard": {"index": 2, "count": 8}` for a part of a search cut
/// into several. `search` is `PasswordSearch.searchHash`.
package struct PasswordCheckpoint: Sendable, Equatable {
  static let format = "freedom-keys password checkpoint 1"

  package var search: [UInt8]
  package var doneBelow: Int
  package var found: Int?
  /// The part (1-based) of the search this checkpoint is of, and the number of parts; 1 of 1
  /// for a search not cut.
  package var shard: (index: Int, count: Int)

  package init(
    search: [UInt8], doneBelow: Int, found: Int? = nil, shard: (index: Int, count: Int) = (1, 1)
  ) {
    self.search = search
    self.doneBelow = doneBelow
    self.found = found
    self.shard = shard
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    (lhs.search, lhs.doneBelow, lhs.found) == (rhs.search, rhs.doneBelow, rhs.found)
      && lhs.shard == rhs.shard
  }

  /// The checkpoint as one JSON object.
  package func jsonBytes() -> [UInt8] {
    var text =
      "{\"format\": \"\(Self.format)\", \"search\": \"\(Hex.encode(search))\", "
      + "\"doneBelow\": \(doneBelow)"
    if let found { text += ", \"found\": \(found)" }
    if shard.count > 1 {
      text += ", \"shard\": {\"index\": \(shard.index), \"count\": \(shard.count)}"
    }
    return Array((text + "}\n").utf8)
  }

  /// Reads a checkpoint `jsonBytes()` wrote; whether it fits a search is the caller's to say
  /// (its `search` against `PasswordSearch.searchHash()`).
  package init(json: some ContiguousBytes) throws(PasswordRecoveryError) {
    let parsed = json.withUnsafeBytes { raw -> PasswordCheckpoint? in
      guard let root = try? JSONText.parse(raw), case .object = root.kind else { return nil }
      func member(_ name: String, of node: JSONNode = root) -> JSONNode? {
        let found = node.members(named: name)
        return found.count == 1 ? found[0].value : nil
      }
      func index(_ name: String, of node: JSONNode = root) -> Int? {
        member(name, of: node).flatMap { JSONText.unsignedInteger($0, in: raw) }
          .flatMap(Int.init(exactly:))
      }
      guard let format = member("format"), JSONText.isString(format),
        JSONText.string(format, in: raw) == Self.format,
        let search = member("search"), JSONText.isString(search),
        let hash = Hex.decode(JSONText.string(search, in: raw)), hash.count == SHA256.byteCount,
        let doneBelow = index("doneBelow")
      else { return nil }
      let found = index("found")
      guard found != nil || member("found") == nil else { return nil }
      var shard = (index: 1, count: 1)
      if let part = member("shard") {
        guard let number = index("index", of: part), let count = index("count", of: part),
          count > 1, (1...count).contains(number)
        else { return nil }
        shard = (number, count)
      }
      return PasswordCheckpoint(search: hash, doneBelow: doneBelow, found: found, shard: shard)
    }
    guard let parsed else { throw .malformedCheckpoint }
    self = parsed
  }
}

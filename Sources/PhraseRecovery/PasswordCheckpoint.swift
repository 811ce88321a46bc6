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
/// `"found": 7` once found. `search` is `PasswordSearch.searchHash`.
package struct PasswordCheckpoint: Sendable, Equatable {
  static let format = "freedom-keys password checkpoint 1"

  package var search: [UInt8]
  package var doneBelow: Int
  package var found: Int?

  package init(search: [UInt8], doneBelow: Int, found: Int? = nil) {
    self.search = search
    self.doneBelow = doneBelow
    self.found = found
  }

  /// The checkpoint as one JSON object.
  package func jsonBytes() -> [UInt8] {
    var text =
      "{\"format\": \"\(Self.format)\", \"search\": \"\(Hex.encode(search))\", "
      + "\"doneBelow\": \(doneBelow)"
    if let found { text += ", \"found\": \(found)" }
    return Array((text + "}\n").utf8)
  }

  /// Reads a checkpoint `jsonBytes()` wrote; whether it fits a search is the caller's to say
  /// (its `search` against `PasswordSearch.searchHash()`).
  package init(json: some ContiguousBytes) throws(PasswordRecoveryError) {
    let parsed: PasswordCheckpoint? = json.withUnsafeBytes { raw in
      guard let root = try? JSONText.parse(raw), case .object = root.kind else { return nil }
      func member(_ name: String) -> JSONNode? {
        let found = root.members(named: name)
        return found.count == 1 ? found[0].value : nil
      }
      func index(_ name: String) -> Int? {
        member(name).flatMap { JSONText.unsignedInteger($0, in: raw) }.flatMap(Int.init(exactly:))
      }
      guard let format = member("format"), JSONText.isString(format),
        JSONText.string(format, in: raw) == Self.format,
        let search = member("search"), JSONText.isString(search),
        let hash = Hex.decode(JSONText.string(search, in: raw)), hash.count == SHA256.byteCount,
        let doneBelow = index("doneBelow")
      else { return nil }
      let found = index("found")
      guard found != nil || member("found") == nil else { return nil }
      return PasswordCheckpoint(search: hash, doneBelow: doneBelow, found: found)
    }
    guard let parsed else { throw .malformedCheckpoint }
    self = parsed
  }
}

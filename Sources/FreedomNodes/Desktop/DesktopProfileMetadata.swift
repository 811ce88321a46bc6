import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A profile's `profile.json` as desktop Freedom reads it: `JSON.parse` of the file (a member
/// named twice: the last one wins), then `Number.isInteger(metadata.slot)` — so `2.0` and `2e0`
/// are the slot 2, a negative integer is a slot too (`R/-1`), and `2.5`, `"2"`, `null`, a
/// number too large for a double (`1e400`, which parses as Infinity) or a document that is not
/// an object mean no slot (profile-catalog.js `readProfileMetadata`, profile-paths.js
/// `getCatalogRadicleDataDir`). What desktop cannot read is refused, never guessed.
package struct DesktopProfileMetadata: Sendable, Equatable {
  /// The catalog slot (Radicle's home is `R/<slot>`), or nil when desktop uses none.
  package let slot: Int?

  /// Reads `profile.json`.
  package init(json: some ContiguousBytes) throws(DesktopProfileMetadataError) {
    let read: Result<Int?, DesktopProfileMetadataError> = json.withUnsafeBytes { bytes in
      let document: JSONNode
      do throws(JSONSyntaxError) {
        document = try JSONText.parse(bytes, duplicates: .kept)
      } catch {
        return .failure(.invalidJSON(error.description))
      }
      if case .null = document.kind { return .failure(.nullDocument) }
      guard let member = document.lastMember(named: "slot"), case .number = member.value.kind
      else { return .success(nil) }
      // JavaScript's number: the nearest double (Swift's parser rounds the same way).
      guard let value = Double(JSONText.text(member.value, in: bytes)), value.isFinite,
        value.rounded(.towardZero) == value
      else { return .success(nil) }
      // Beyond 2^53 − 1 desktop's String(slot) is no longer the integer's digits.
      guard abs(value) <= Self.maximumSafeInteger else { return .failure(.slotOutOfRange) }
      return .success(Int(value))
    }
    slot = try read.get()
  }

  /// The `slot` of a `profile.json` as desktop reads it, or nil when desktop uses no slot (then
  /// Radicle's home is `radicle-data`) — and also when desktop could not read the file at all,
  /// which `init(json:)` refuses with its reason: prefer that where a refusal can be reported.
  package static func slot(json: some ContiguousBytes) -> Int? {
    (try? DesktopProfileMetadata(json: json))?.slot
  }

  /// JavaScript's `Number.MAX_SAFE_INTEGER`.
  static let maximumSafeInteger = Double((1 << 53) - 1)
}

/// Why desktop Freedom could not read a `profile.json`, so no slot can be taken from it.
package enum DesktopProfileMetadataError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Not JSON that `JSON.parse` reads (desktop fails to open the profile); the reason names it.
  case invalidJSON(String)
  /// The document is `null`, on which desktop's profile code fails.
  case nullDocument
  /// `slot` is an integer beyond ±(2^53 − 1), where desktop's path no longer spells it.
  case slotOutOfRange

  package var description: String {
    switch self {
    case .invalidJSON(let reason): "profile.json is not JSON desktop Freedom can read: \(reason)"
    case .nullDocument: "profile.json holds null, which desktop Freedom cannot read"
    case .slotOutOfRange:
      "profile.json's slot is too large for desktop Freedom's Radicle path; fix the slot"
    }
  }
}

import NodeFiles
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A profile an export registers in an app root whose registry does not list it, as desktop's
/// profile catalog registers one (`profile-catalog.js` `createProfile`, docs/desktop-user-data.md):
/// the id desktop sanitises the name to, the name as its display name, the lowest slot from 1
/// no record holds (0 for `default`), a record appended to `profile-registry.json` (every other
/// byte kept) and the same fields in the profile's `profile.json`, with the managed ports
/// desktop derives from the slot. Written in the export's one transaction, under the app root.
package struct DesktopProfileRegistration: Sendable, Equatable {
  /// The id (`DesktopProfileRegistry.sanitizedID` of the name).
  package let id: String
  /// The name as given, trimmed.
  package let displayName: String
  /// The slot allocated.
  package let slot: Int
  /// The profile's userData, the record's `dir`.
  package let userData: String
  /// `createdAt` and `lastOpenedAt`, as JavaScript's `toISOString` writes them.
  let time: String
  /// A dev build's port offset (`getDevPortOffset`), nil for a packaged build.
  let devOffset: Int?

  /// The registration of `name` in `appRoot`, whose registry (nil: none yet) does not list it.
  static func new(
    _ name: String, appRoot: String, registry: DesktopProfileRegistry?, at date: Date = Date()
  ) throws(NodeError) -> DesktopProfileRegistration {
    guard let id = DesktopProfileRegistry.sanitizedID(name) else {
      throw .invalidInput(.profileName)
    }
    let trimmed = String(
      name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    var slot = 0
    if id != DesktopProfileRegistry.defaultProfileID {
      let used = Set((registry?.profiles ?? []).compactMap(\.slot).filter { $0 >= 0 })
      slot = 1
      while used.contains(slot) { slot += 1 }
    }
    var devOffset: Int?
    if DesktopProfileLocation.isDev(appRoot: appRoot) {
      // parseInt(hash, 16) % 100 * 10: the hash's leading hex digits.
      let leaf = NodePath.leaf(appRoot)
      let hash = leaf.dropFirst(DesktopProfileLocation.checkoutPrefix.count).prefix(8)
      let digits = hash.prefix { $0.isHexDigit }
      devOffset = Int(UInt64(digits, radix: 16).map { $0 % 100 } ?? 0) * 10
    }
    return DesktopProfileRegistration(
      id: id, displayName: trimmed, slot: slot,
      userData: DesktopProfileLocation.userData(of: id, appRoot: appRoot),
      time: DesktopVault.isoTimestamp(date), devOffset: devOffset)
  }

  /// The managed nodes desktop configures for the slot (`buildNodeConfig`).
  var nodes: JSONValue {
    let offset = devOffset ?? 0
    let base = devOffset == nil ? (11633, 12633, 19150) : (21633, 22633, 29150)
    func port(_ value: Int) -> JSONValue { .number(UInt64(value + offset + slot)) }
    func object(_ members: [(String, JSONValue)]) -> JSONValue {
      var object = JSONObject()
      for (key, value) in members { object.append(key, value) }
      return .object(object)
    }
    return object([
      (
        "bee",
        object([
          ("mode", .string("managed")), ("apiPort", port(base.0)), ("p2pPort", port(base.1)),
          ("externalApi", .null),
        ])
      ),
      ("ipfs", object([("mode", .string("managed")), ("backend", .string("freedom-ipfs"))])),
      ("myotis", object([("mode", .string("managed")), ("backend", .string("myotis-native"))])),
      ("radicle", object([("mode", .string("managed"))])),
      (
        "tor",
        object([
          ("mode", .string("managed")), ("socksPort", port(base.2)), ("externalSocks", .null),
        ])
      ),
    ])
  }

  /// The registry record (`createProfileRecord`).
  var record: JSONValue {
    var record = JSONObject()
    record.append("id", .string(id))
    record.append("displayName", .string(displayName))
    record.append("dir", .string(userData))
    record.append("slot", .number(UInt64(slot)))
    record.append("createdAt", .string(time))
    record.append("lastOpenedAt", .string(time))
    record.append("nodes", nodes)
    return .object(record)
  }

  /// `profile.json` (`createProfileMetadata`), as desktop writes it (two-space indent).
  var metadata: [UInt8] {
    var metadata = JSONObject()
    metadata.append("version", .number(1))
    metadata.append("id", .string(id))
    metadata.append("displayName", .string(displayName))
    metadata.append("createdAt", .string(time))
    metadata.append("lastOpenedAt", .string(time))
    metadata.append("slot", .number(UInt64(slot)))
    metadata.append("nodes", nodes)
    return Array(JSONValue.object(metadata).rendered().utf8)
  }

  /// The registry with the record appended to its `profiles` (every other byte as it was), or
  /// a new registry holding only it; nil when `existing` is no registry desktop reads, or
  /// already lists the id or the slot (it changed since the profile was looked up).
  func registry(extending existing: [UInt8]?) -> [UInt8]? {
    guard let existing else {
      var registry = JSONObject()
      registry.append("version", .number(1))
      registry.append("profiles", .array([record]))
      return Array(JSONValue.object(registry).rendered().utf8)
    }
    guard let read = try? DesktopProfileRegistry(json: existing),
      read.profile(id: id) == nil, read.profile(slot: slot) == nil
    else { return nil }
    return existing.withUnsafeBytes { bytes -> [UInt8]? in
      guard let document = try? JSONText.parse(bytes, duplicates: .kept),
        case .object(let members) = document.kind,
        let list = members.last(where: { $0.name == "profiles" })?.value,
        case .array(let items) = list.kind
      else { return nil }
      let rendered = Array(record.rendered(indent: "    ").utf8)
      if let last = items.last {
        let at = last.range.upperBound
        return Array(existing[..<at]) + Array(",\n    ".utf8) + rendered + Array(existing[at...])
      }
      let open = list.range.lowerBound + 1
      return Array(existing[..<open]) + Array("\n    ".utf8) + rendered + Array("\n  ".utf8)
        + Array(existing[(list.range.upperBound - 1)...])
    }
  }
}

import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Desktop Freedom's profile catalog, `<appRoot>/profile-registry.json` (`profile-catalog.js`
/// `loadCatalog`): `{"version": 1, "profiles": [{id, displayName, dir, slot, …}]}`. Desktop
/// refuses another version or a `profiles` that is not an array ("Unsupported profile
/// catalog"); so does this reader. `dir` is an absolute path of the machine that wrote it, so
/// profiles are found by id (`Profiles/<id>`, the default one in the app root) instead.
package struct DesktopProfileRegistry: Sendable, Equatable {
  /// The file's name in the app root.
  package static let fileName = "profile-registry.json"
  /// The id of the profile a first run registers (slot 0; in a packaged build its userData is
  /// the app root).
  package static let defaultProfileID = "default"

  /// One registered profile.
  package struct Profile: Sendable, Equatable {
    /// The sanitized id, the name of its directory under `Profiles/`.
    package let id: String
    /// The name the app shows.
    package let displayName: String?
    /// The catalog's slot (`Number.isInteger`), or nil.
    package let slot: Int?

    package init(id: String, displayName: String?, slot: Int?) {
      self.id = id
      self.displayName = displayName
      self.slot = slot
    }
  }

  /// The profiles, in catalog order (records without a string id are skipped, as desktop's
  /// lookups by id never find them).
  package let profiles: [Profile]
  /// The position in `profiles` of each id's first record, so that a lookup by id costs the
  /// same whatever the registry's size (verify looks up every profile's).
  private let firstByID: [String: Int]

  /// A registry of `profiles`.
  package init(profiles: [Profile]) {
    self.profiles = profiles
    firstByID = Self.index(profiles)
  }

  /// Reads the bytes of a `profile-registry.json`.
  package init(json: some ContiguousBytes) throws(DesktopProfileRegistryError) {
    let read: Result<[Profile], DesktopProfileRegistryError> = json.withUnsafeBytes { bytes in
      let document: JSONNode
      do throws(JSONSyntaxError) {
        document = try JSONText.parse(bytes, duplicates: .kept)
      } catch {
        return .failure(.invalidJSON(error.description))
      }
      guard let version = document.lastMember(named: "version"),
        Self.integer(version.value, in: bytes) == 1
      else { return .failure(.unsupported) }
      guard let list = document.lastMember(named: "profiles"),
        case .array(let items) = list.value.kind
      else { return .failure(.unsupported) }
      var profiles: [Profile] = []
      for item in items {
        guard let id = item.lastMember(named: "id"), id.value.isString else { continue }
        let name = item.lastMember(named: "displayName").flatMap {
          $0.value.isString ? JSONText.string($0.value, in: bytes) : nil
        }
        let slot = item.lastMember(named: "slot").flatMap { Self.integer($0.value, in: bytes) }
        profiles.append(
          Profile(id: JSONText.string(id.value, in: bytes), displayName: name, slot: slot))
      }
      return .success(profiles)
    }
    profiles = try read.get()
    firstByID = Self.index(profiles)
  }

  private static func index(_ profiles: [Profile]) -> [String: Int] {
    var index: [String: Int] = [:]
    index.reserveCapacity(profiles.count)
    for (position, profile) in profiles.enumerated() where index[profile.id] == nil {
      index[profile.id] = position
    }
    return index
  }

  /// The first record whose id is `id`, found without a scan of the list.
  package func profile(id: String) -> Profile? { firstByID[id].map { profiles[$0] } }

  /// The profile `name` names: its id, else the id desktop sanitises it to, else its display
  /// name exactly, else its display name ignoring case — nil when that last names several.
  package func profile(named name: String) -> Profile? {
    let found = profiles(named: name)
    return Set(found.map(\.id)).count == 1 ? found.first : nil
  }

  /// Every profile `name` names at the first of these that names any: its id, the id desktop
  /// sanitises it to, its display name exactly, its display name ignoring case (the one step
  /// that can name several profiles, which a caller must not choose between).
  package func profiles(named name: String) -> [Profile] {
    let byID = profiles.filter { $0.id == name }
    if !byID.isEmpty { return byID }
    if let id = Self.sanitizedID(name) {
      let bySanitizedID = profiles.filter { $0.id == id }
      if !bySanitizedID.isEmpty { return bySanitizedID }
    }
    let byName = profiles.filter { $0.displayName == name }
    if !byName.isEmpty { return byName }
    return profiles.filter { $0.displayName?.lowercased() == name.lowercased() }
  }

  /// Whether `id` is an id desktop makes: its own sanitised form (`sanitizedID`). Desktop
  /// only ever writes such ids, and joins one to `Profiles/`; any other (`../../victim`) in a
  /// registry was not written by desktop and names no profile directory.
  package static func isDesktopID(_ id: String) -> Bool { sanitizedID(id) == id }

  /// The profile whose catalog slot is `slot`.
  package func profile(slot: Int) -> Profile? { profiles.first { $0.slot == slot } }

  /// An id as desktop's `sanitizeProfileId` makes it: trimmed, lower case, every run of
  /// characters other than `a-z 0-9 _ -` one `-`, no `-` at either end; nil when nothing is
  /// left (or the input names a path).
  package static func sanitizedID(_ input: String) -> String? {
    let trimmed = String(
      input.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
    ).lowercased()
    guard !trimmed.isEmpty, trimmed != ".", trimmed != "..", !trimmed.contains("/"),
      !trimmed.contains("\\")
    else { return nil }
    var id = ""
    var dash = false
    for scalar in trimmed.unicodeScalars {
      if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        || scalar == "-"
      {
        id.unicodeScalars.append(scalar)
        dash = false
      } else if !dash {
        id += "-"
        dash = true
      }
    }
    while id.hasPrefix("-") { id.removeFirst() }
    while id.hasSuffix("-") { id.removeLast() }
    return id.isEmpty ? nil : id
  }

  /// A JSON number that JavaScript's `Number.isInteger` accepts, within ±(2^53 − 1).
  static func integer(_ node: JSONNode, in bytes: UnsafeRawBufferPointer) -> Int? {
    guard case .number = node.kind, let value = Double(JSONText.text(node, in: bytes)),
      value.isFinite, value.rounded(.towardZero) == value,
      abs(value) <= DesktopProfileMetadata.maximumSafeInteger
    else { return nil }
    return Int(value)
  }
}

/// Why a `profile-registry.json` cannot be read (desktop cannot read it either).
package enum DesktopProfileRegistryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Not JSON that `JSON.parse` reads; the reason names it.
  case invalidJSON(String)
  /// Not version 1 with a `profiles` array: desktop refuses it as an unsupported catalog.
  case unsupported

  package var description: String {
    switch self {
    case .invalidJSON(let reason):
      "profile-registry.json is not JSON desktop Freedom can read: \(reason)"
    case .unsupported:
      "profile-registry.json is not a version 1 catalog with a profiles list; desktop Freedom "
        + "refuses it too"
    }
  }
}

import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Desktop Freedom's `<userData>/swarm-feeds.json` (`src/main/swarm/feed-store.js`, version 2):
/// per origin, the identities that sign its Swarm feeds and each feed's signer. `{version: 2,
/// nextPublisherKeyIndex, origins: {<origin>: {activeIdentityId, identities: {<id>: {id, mode,
/// publisherKeyIndex, walletIndex, label, …}}, feeds: {<name>: {topic, owner, identityId, …}},
/// …}}}`. A signer's `mode` is `app-scoped` (publisher key i), `bee-wallet` (the Swarm wallet)
/// or `ethereum-wallet` (user-wallet account i); `owner` is the address desktop computed when it
/// created the feed. Entries desktop would skip (not objects, no valid active identity) are
/// skipped here too.
package struct DesktopPublisherMap: Sendable, Equatable {
  /// The file's name in userData.
  package static let fileName = "swarm-feeds.json"
  /// The version desktop reads and writes.
  package static let currentVersion = 2

  /// Which key signs.
  package enum Signer: Sendable, Hashable {
    /// Publisher key i, m/44'/73406'/i'/0/0 (`app-scoped:<i>`).
    case publisher(Int)
    /// The Swarm wallet, m/44'/60'/0'/0/1 (`bee-wallet`).
    case swarmWallet
    /// User-wallet account i, m/44'/60'/i'/0/0 (`ethereum-wallet:<i>`).
    case userWallet(Int)
  }

  /// One feed and the signer it was written with.
  package struct Feed: Sendable, Equatable {
    package let origin: String
    package let name: String
    /// The signer its `identityId` names (nil when that identity is missing or unknown).
    package let signer: Signer?
    /// The `identityId` as stored.
    package let identityID: String?
    /// The feed owner's address as stored.
    package let owner: String?
  }

  /// What the file is.
  package enum Content: Sendable, Equatable {
    /// Version 2: the feeds of every origin (in file order) and the origins' active signers.
    case current(feeds: [Feed], activeSigners: [(origin: String, signer: Signer)])
    /// Version 1: desktop migrates it at its next start (keeping `swarm-feeds.v1-backup.json`).
    case version1
    /// Another version: desktop copies it aside (`swarm-feeds.unsupported.json`) and starts
    /// with an empty map.
    case unsupported(String)

    package static func == (lhs: Content, rhs: Content) -> Bool {
      switch (lhs, rhs) {
      case (.current(let a, let b), .current(let c, let d)):
        a == c && b.map(\.origin) == d.map(\.origin) && b.map(\.signer) == d.map(\.signer)
      case (.version1, .version1): true
      case (.unsupported(let a), .unsupported(let b)): a == b
      default: false
      }
    }
  }

  package let content: Content

  /// Reads the bytes of a `swarm-feeds.json`; what desktop could not read at all is an error
  /// (desktop copies such a file aside as `swarm-feeds.corrupt.json`).
  package init(json: some ContiguousBytes) throws(DesktopPublisherMapError) {
    let read: Result<Content, DesktopPublisherMapError> = json.withUnsafeBytes { bytes in
      let document: JSONNode
      do throws(JSONSyntaxError) {
        document = try JSONText.parse(bytes, duplicates: .kept)
      } catch {
        return .failure(.invalidJSON(error.description))
      }
      guard document.isObject else { return .failure(.notAnObject) }
      let version = document.lastMember(named: "version").map {
        DesktopProfileRegistry.integer($0.value, in: bytes).map(String.init)
          ?? JSONText.text($0.value, in: bytes)
      }
      if version == "1" { return .success(.version1) }
      guard version == String(Self.currentVersion) else {
        return .success(.unsupported(version ?? "missing"))
      }
      guard let origins = document.lastMember(named: "origins"), origins.value.isObject,
        case .object(let entries) = origins.value.kind
      else { return .failure(.originsNotAnObject) }
      var feeds: [Feed] = []
      var active: [(origin: String, signer: Signer)] = []
      for entry in entries {
        let signers = Self.signers(entry.value, in: bytes)
        guard let activeID = Self.string(entry.value, "activeIdentityId", bytes),
          let activeSigner = signers[activeID] ?? nil
        else { continue }
        active.append((entry.name, activeSigner))
        guard let list = entry.value.lastMember(named: "feeds"),
          case .object(let named) = list.value.kind
        else { continue }
        for feed in named where feed.value.isObject {
          let id = Self.string(feed.value, "identityId", bytes)
          feeds.append(
            Feed(
              origin: entry.name, name: feed.name, signer: id.flatMap { signers[$0] ?? nil },
              identityID: id, owner: Self.string(feed.value, "owner", bytes)))
        }
      }
      return .success(.current(feeds: feeds, activeSigners: active))
    }
    content = try read.get()
  }

  /// The identities of one origin entry by id (nil for one whose mode desktop does not know).
  private static func signers(_ entry: JSONNode, in bytes: UnsafeRawBufferPointer) -> [String:
    Signer?]
  {
    guard let identities = entry.lastMember(named: "identities"),
      case .object(let members) = identities.value.kind
    else { return [:] }
    var result: [String: Signer?] = [:]
    for member in members {
      let node = member.value
      let index = { (name: String) in
        node.lastMember(named: name).flatMap { DesktopProfileRegistry.integer($0.value, in: bytes) }
          .flatMap { $0 >= 0 ? $0 : nil }
      }
      switch string(node, "mode", bytes) {
      case "app-scoped": result[member.name] = index("publisherKeyIndex").map { .publisher($0) }
      case "bee-wallet": result[member.name] = .swarmWallet
      case "ethereum-wallet": result[member.name] = index("walletIndex").map { .userWallet($0) }
      default: result[member.name] = .some(nil)
      }
    }
    return result
  }

  private static func string(_ node: JSONNode, _ name: String, _ bytes: UnsafeRawBufferPointer)
    -> String?
  {
    node.lastMember(named: name).flatMap {
      $0.value.isString ? JSONText.string($0.value, in: bytes) : nil
    }
  }
}

/// Why desktop could not read a `swarm-feeds.json` at all (it copies it aside as
/// `swarm-feeds.corrupt.json` and starts with an empty map).
package enum DesktopPublisherMapError: Error, Equatable, Sendable, CustomStringConvertible {
  case invalidJSON(String)
  case notAnObject
  case originsNotAnObject

  package var description: String {
    switch self {
    case .invalidJSON(let reason): "swarm-feeds.json is not JSON: \(reason)"
    case .notAnObject: "swarm-feeds.json is not a JSON object"
    case .originsNotAnObject: "swarm-feeds.json's origins is not an object"
    }
  }
}

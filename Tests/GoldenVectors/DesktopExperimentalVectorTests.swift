import CryptoPrimitives
import Testing
import VaultKeys

/// One vector of Vectors/freedom-desktop-experimental.json: a key of Railgun's "babyjubjub seed"
/// tree at a path (the engine's vectors), or one of desktop's credential rows (an account's
/// spending and viewing keys and its storage root in one profile). Field names as in the source.
struct DesktopExperimentalVector: Decodable, Sendable, CustomTestStringConvertible {
  struct Profile: Decodable, Sendable {
    let id: String
    let userDataDir: String
  }

  let id: String
  /// The file the values come from and the commit it was read at.
  let source: String
  let mnemonic: String
  let path: String?
  let privateKey: String?
  let profile: Profile?
  let profileId: String?
  let accountIndex: UInt32?
  let spendingHex: String?
  let viewingHex: String?
  let storageRootHex: String?
  var testDescription: String { id }
}

/// Desktop Freedom's experimental Railgun keys against the vectors its own tests check.
@Suite struct DesktopExperimentalVectorTests {
  static let vectors =
    (try? VectorFile<DesktopExperimentalVector>.load("freedom-desktop-experimental").vectors) ?? []

  @Test func vectorsLoaded() {
    #expect(Self.vectors.count == 9)
    #expect(Self.vectors.filter { $0.path != nil }.count == 3)
    #expect(Set(Self.vectors.compactMap(\.accountIndex)) == [0, 1, 65535])
    #expect(
      Set(Self.vectors.compactMap(\.profile?.id)) == ["public-fixture-a", "public-fixture-b"])
  }

  @Test(arguments: vectors)
  func matchesDesktop(_ vector: DesktopExperimentalVector) throws {
    let seed = try Mnemonic(phrase: vector.mnemonic).seed()
    var checked = 0
    func check(_ expected: String?, _ actual: String) {
      guard let expected else { return }
      #expect(actual == expected, "vector \(vector.id)")
      checked += 1
    }
    let master = try RailgunKeyNode(seed: seed)
    if let path = vector.path {
      check(vector.privateKey, try master.derive(DerivationPath(path)).privateKey.revealHex())
    }
    if let index = vector.accountIndex {
      let account = try RailgunAccount(master: master, index: index)
      check(vector.spendingHex, account.spendingKey.revealHex())
      check(vector.viewingHex, account.viewingKey.revealHex())
      #expect(account.spendingPath.description == "m/44'/1984'/0'/0'/\(index)'")
      #expect(account.viewingPath.description == "m/420'/1984'/0'/0'/\(index)'")
      let profile = try #require(vector.profile, "vector \(vector.id) names no profile")
      let profileID = RailgunStorageRoot.profileID(
        id: profile.id, userDataDirectory: profile.userDataDir)
      check(vector.profileId, profileID)
      check(
        vector.storageRootHex,
        try RailgunStorageRoot.root(seed: seed, profileID: profileID, accountIndex: index)
          .revealHex())
    }
    #expect(checked > 0, "vector \(vector.id) publishes no value")
  }
}

import CryptoPrimitives
import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// Issue 26, item 4: a catalog profile's userData (`Profiles/<id>`) and its Radicle home
/// (`R/<slot>`) change as one transaction under the app root, so a failure in either leaves the
/// old installation whole, and the dry run counts both.
@Suite("FreedomNodes: one profile, one transaction")
struct ProfileTransactionTests {
  static let vaultPassword = SecureBytes(utf8: "correct horse battery staple")

  /// A packaged app root with the default profile (slot 0) and "work" (slot 2).
  func appRoot(_ fixture: NodeFixture) throws -> String {
    try DesktopFilesTests().appRoot(fixture)
  }

  func inputs(_ mnemonic: Mnemonic) -> DesktopInstallation.ExportInputs {
    .init(
      mnemonic: mnemonic, profile: try! FreedomProfile(mnemonic: mnemonic),
      vaultPassword: Self.vaultPassword)
  }

  /// Every regular file below `path` with its bytes (the engine's lock files left out).
  func contents(_ path: String) -> [String: Data] {
    var all: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: path)
    while let name = enumerator?.nextObject() as? String {
      guard !name.hasSuffix(".freedom-keys.lock") else { continue }
      var isDirectory: ObjCBool = false
      let full = path + "/" + name
      guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      all[name] = FileManager.default.contents(atPath: full)
    }
    return all
  }

  @Test func aFailureInTheRadicleHomeLeavesTheOldInstallationWhole() throws {
    let fixture = try NodeFixture()
    let root = try appRoot(fixture)
    let work = try DesktopInstallation(userData: root + "/Profiles/work")
    _ = try NodeSession.export(work, inputs(NodeFixture.junk), consent: .none)
    let before = contents(root)
    #expect(before["Profiles/work/identity/identity-vault.json"] != nil)
    #expect(before["R/2/keys/radicle"] != nil)
    // Something in R/2/keys that is no key file: the Radicle half of the change cannot stage
    // its new keys/ (the userData half could).
    try FileManager.default.createDirectory(
      atPath: root + "/R/2/keys/planted", withIntermediateDirectories: true)
    #expect(throws: NodeError.self) {
      _ = try NodeSession.export(
        work, inputs(NodeFixture.abandon),
        consent: ExportConsent(replacesOtherIdentities: true, replacesVault: true))
    }
    // Old-whole: the vault, ant-data and Radicle all still hold the old mnemonic.
    let after = contents(root)
    #expect(after == before, "\(Set(after.keys).symmetricDifference(before.keys))")
    let opened = try work.openVault(password: Self.vaultPassword)
    #expect(opened.phrase() == NodeFixture.junk.phrase())
  }

  @Test func aDevBuildsProfileIsOneTransactionRootedInFreedomDev() throws {
    let fixture = try NodeFixture()
    let dev = fixture.path("Freedom Dev")
    let appRoot = dev + "/freedom-browser-abcd1234"
    try fixture.file(
      "Freedom Dev/freedom-browser-abcd1234/profile-registry.json",
      #"{"version": 1, "profiles": [{"id": "default", "slot": 0}, {"id": "work", "slot": 2}]}"#)
    try fixture.file(
      "Freedom Dev/freedom-browser-abcd1234/Profiles/work/profile.json", #"{"slot": 2}"#)
    let work = try DesktopInstallation(appRoot: appRoot, profile: "work")
    #expect(work.radicleHome == dev + "/R/abcd1234/2")
    // The nearest folder holding both Profiles/work and R/abcd1234/2.
    #expect(work.transactionRoot == dev)
    _ = try NodeSession.export(work, inputs(NodeFixture.junk), consent: .none)
    let before = contents(dev)
    try FileManager.default.createDirectory(
      atPath: dev + "/R/abcd1234/2/keys/planted", withIntermediateDirectories: true)
    #expect(throws: NodeError.self) {
      _ = try NodeSession.export(
        work, inputs(NodeFixture.abandon),
        consent: ExportConsent(replacesOtherIdentities: true, replacesVault: true))
    }
    #expect(contents(dev) == before)
    #expect(try work.openVault(password: Self.vaultPassword).phrase() == NodeFixture.junk.phrase())
  }

  @Test func theDryRunCountsTheRadicleHome() throws {
    let fixture = try NodeFixture()
    let root = try appRoot(fixture)
    let work = try DesktopInstallation(userData: root + "/Profiles/work")
    _ = try NodeSession.export(work, inputs(NodeFixture.abandon), consent: .none)
    // Only Radicle's key is missing: the export writes it, and the dry run says so.
    try FileManager.default.removeItem(atPath: root + "/R/2/keys")
    let dryRun = try NodeSession.dryRun(work, inputs(NodeFixture.abandon), consent: .none)
    #expect(dryRun.changes)
    #expect(
      dryRun.actions.filter { $0.kind == .create }.map(\.path).sorted() == [
        root + "/R/2/keys/radicle", root + "/R/2/keys/radicle.pub",
      ])
    _ = try NodeSession.export(work, inputs(NodeFixture.abandon), consent: .none)
    #expect(FileManager.default.fileExists(atPath: root + "/R/2/keys/radicle"))
    let again = try NodeSession.dryRun(work, inputs(NodeFixture.abandon), consent: .none)
    #expect(!again.changes)
  }

  @Test func theDryRunCountsARadicleHomeGivenOutsideToo() throws {
    let fixture = try NodeFixture()
    // A userData outside any catalog, Radicle's home given elsewhere: two transactions, both
    // counted.
    let installation = try DesktopInstallation(
      userData: fixture.path("Freedom"), radicleHome: fixture.path("rad"),
      createsInstallation: true)
    _ = try NodeSession.export(installation, inputs(NodeFixture.abandon), consent: .none)
    try FileManager.default.removeItem(atPath: fixture.path("rad/keys"))
    let dryRun = try NodeSession.dryRun(installation, inputs(NodeFixture.abandon), consent: .none)
    #expect(dryRun.plan.change == nil)
    #expect(dryRun.changes)
  }

  /// A work profile that held junk's identity and now holds abandon's, junk's kept aside in
  /// Profiles/work and R/2 under one backup name.
  func replaced(_ fixture: NodeFixture) throws -> (String, DesktopInstallation) {
    let root = try appRoot(fixture)
    let work = try DesktopInstallation(userData: root + "/Profiles/work")
    _ = try NodeSession.export(work, inputs(NodeFixture.junk), consent: .none)
    _ = try NodeSession.export(
      work, inputs(NodeFixture.abandon),
      consent: ExportConsent(replacesOtherIdentities: true, replacesVault: true))
    return (root, work)
  }

  func checks(_ work: DesktopInstallation, _ profile: FreedomProfile) throws -> [String: NodeFinding
    .Status]
  {
    let findings = try NodeSession.verify(work, against: profile)
    return Dictionary(
      findings.map { ($0.check, $0.status) }, uniquingKeysWith: { first, _ in first })
  }

  @Test func undoPutsBothFoldersBack() throws {
    let fixture = try NodeFixture()
    let (root, work) = try replaced(fixture)
    let backups = try FileManager.default.contentsOfDirectory(
      atPath: root + "/Profiles/work/.freedom-keys.replaced")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root + "/R/2/.freedom-keys.replaced")
        == backups)
    let plan = try NodeUndo.dryRun(work.directory)
    #expect(plan.restores.count == 1)
    let outcome = try NodeUndo.undo(work.directory)
    #expect(
      outcome.backups.sorted() == [
        root + "/Profiles/work/.freedom-keys.replaced/" + backups[0],
        root + "/R/2/.freedom-keys.replaced/" + backups[0],
      ])
    #expect(try work.openVault(password: Self.vaultPassword).phrase() == NodeFixture.junk.phrase())
    let found = try checks(work, NodeFixture.other)
    #expect(found["ant-data"] == .match)
    #expect(found["radicle"] == .match)
    // Nothing of the engine's left at the app root: no record, staging or backup of its own.
    let left = try FileManager.default.contentsOfDirectory(atPath: root).filter {
      $0.hasPrefix(".freedom-keys")
    }
    #expect(left == [])
  }

  @Test func anUndoRefusedInTheRadicleHomeChangesNeitherFolder() throws {
    let fixture = try NodeFixture()
    let (root, work) = try replaced(fixture)
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: root + "/R/2/.freedom-keys.replaced")
        .first)
    // Something the Radicle half of the backup cannot hold: the undo is refused whole.
    try fixture.file("Freedom/R/2/.freedom-keys.replaced/" + name + "/planted", "x")
    let before = contents(root)
    #expect(throws: NodeError.self) { _ = try NodeUndo.undo(work.directory) }
    #expect(contents(root) == before)
    #expect(
      try work.openVault(password: Self.vaultPassword).phrase() == NodeFixture.abandon.phrase())
  }
}

/// Issue 26, item 8: `--create --profile NAME` on an app root without that profile registers
/// it as desktop does, in the export's one transaction.
@Suite("FreedomNodes: a new profile registered")
struct ProfileRegistrationTests {
  func inputs() -> DesktopInstallation.ExportInputs {
    .init(
      mnemonic: NodeFixture.abandon, profile: NodeFixture.profile,
      vaultPassword: ProfileTransactionTests.vaultPassword)
  }

  @Test func aNewProfileGetsARecordProfileJSONAndTheNextFreeSlot() throws {
    let fixture = try NodeFixture()
    let root = try ProfileTransactionTests().appRoot(fixture)
    let registryBefore = try #require(fixture.read("Freedom/profile-registry.json"))
    let installation = try DesktopInstallation(
      appRoot: root, profile: "Home Office", createsInstallation: true)
    #expect(installation.directory == root + "/Profiles/home-office")
    // Slots 0 and 2 are taken: the lowest free one from 1.
    #expect(installation.radicleHome == root + "/R/1")
    let dryRun = try NodeSession.dryRun(installation, inputs(), consent: .none)
    #expect(dryRun.changes)
    #expect(dryRun.actions.first?.path == root + "/profile-registry.json")
    #expect(fixture.read("Freedom/profile-registry.json") == registryBefore)
    _ = try NodeSession.export(installation, inputs(), consent: .none)

    // Desktop lists it: the registry reads with the record appended, every other byte kept.
    let registryText = try #require(fixture.read("Freedom/profile-registry.json"))
    let registry = try DesktopProfileRegistry(json: Array(registryText.utf8))
    #expect(registry.profiles.map(\.id) == ["default", "work", "home-office"])
    let record = try #require(registry.profile(id: "home-office"))
    #expect(record.displayName == "Home Office")
    #expect(record.slot == 1)
    #expect(registryText.hasPrefix(String(registryBefore.dropLast(2))))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(registryText.utf8)) as? [String: Any])
    let added = try #require((json["profiles"] as? [[String: Any]])?.last)
    #expect(added["dir"] as? String == root + "/Profiles/home-office")
    let nodes = try #require(added["nodes"] as? [String: Any])
    #expect((nodes["bee"] as? [String: Any])?["apiPort"] as? Int == 11634)
    #expect((nodes["tor"] as? [String: Any])?["socksPort"] as? Int == 19151)
    let metadata = try DesktopProfileMetadata(
      json: Array(try #require(fixture.read("Freedom/Profiles/home-office/profile.json")).utf8))
    #expect(metadata.slot == 1)

    // Found again by its name, and it verifies where desktop reads it.
    let again = try DesktopInstallation(appRoot: root, profile: "Home Office")
    #expect(again.radicleHome == root + "/R/1")
    let findings = try NodeSession.verify(again, against: NodeFixture.profile)
    #expect(findings.first { $0.check == "radicle" }?.status == .match)
    #expect(findings.first { $0.check == "ant-data" }?.status == .match)
    #expect(!FileManager.default.fileExists(atPath: root + "/.freedom-keys.replaced"))
  }

  @Test func aFailedRegistrationLeavesTheRegistryAsItWas() throws {
    let fixture = try NodeFixture()
    let root = try ProfileTransactionTests().appRoot(fixture)
    let registryBefore = fixture.read("Freedom/profile-registry.json")
    let installation = try DesktopInstallation(
      appRoot: root, profile: "travel", createsInstallation: true)
    // Something that is no key file appears in R/1/keys after the profile was located: the
    // transaction cannot stage Radicle's keys/, and nothing of it stays.
    try FileManager.default.createDirectory(
      atPath: root + "/R/1/keys/planted", withIntermediateDirectories: true)
    #expect(throws: NodeError.self) {
      _ = try NodeSession.export(installation, inputs(), consent: .none)
    }
    #expect(fixture.read("Freedom/profile-registry.json") == registryBefore)
    #expect(!FileManager.default.fileExists(atPath: root + "/Profiles/travel/profile.json"))
    #expect(!FileManager.default.fileExists(atPath: root + "/Profiles/travel/identity"))
  }

  @Test func aNewProfileWithARadicleHomeElsewhereIsRefusedWritingNothing() throws {
    let fixture = try NodeFixture()
    let root = try ProfileTransactionTests().appRoot(fixture)
    let registryBefore = fixture.read("Freedom/profile-registry.json")
    let installation = try DesktopInstallation(
      appRoot: root, profile: "travel", radicleHome: fixture.path("rad"),
      createsInstallation: true)
    #expect(throws: NodeError.self) {
      _ = try NodeSession.export(installation, inputs(), consent: .none)
    }
    #expect(fixture.read("Freedom/profile-registry.json") == registryBefore)
    #expect(!FileManager.default.fileExists(atPath: root + "/Profiles/travel/profile.json"))
    #expect(!FileManager.default.fileExists(atPath: fixture.path("rad/keys")))
  }

  @Test func aFolderHoldingSomethingElseIsNotRegistered() throws {
    let fixture = try NodeFixture()
    let root = try ProfileTransactionTests().appRoot(fixture)
    try fixture.file("Freedom/Profiles/travel/notes.txt", "mine")
    do {
      _ = try DesktopInstallation(appRoot: root, profile: "travel", createsInstallation: true)
      Issue.record("a folder holding another's files was taken for a new profile")
    } catch {
      guard case .invalidInput(.unregisteredProfileFolder(let path)) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(path == root + "/Profiles/travel")
    }
  }

  @Test func aNewAppRootGetsARegistryOfItsOwn() throws {
    let fixture = try NodeFixture()
    let root = fixture.path("Freedom")
    let installation = try DesktopInstallation(
      appRoot: root, profile: "work", createsInstallation: true)
    _ = try NodeSession.export(installation, inputs(), consent: .none)
    let registry = try DesktopProfileRegistry(
      json: Array(try #require(fixture.read("Freedom/profile-registry.json")).utf8))
    #expect(registry.profiles.map(\.id) == ["work"])
    #expect(registry.profiles.map(\.slot) == [1])
    #expect(FileManager.default.fileExists(atPath: root + "/R/1/keys/radicle"))
    #expect(FileManager.default.fileExists(atPath: root + "/Profiles/work/ant-data/keys/swarm.key"))
  }
}

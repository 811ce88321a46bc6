import CryptoPrimitives
import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// Each node's keep / refuse / replace decision, in process through `NodeSession.export`: a
/// fresh directory is created, the same identity is kept, another is refused without consent
/// and replaced with it, the old key kept in the change's backup directory.
@Suite("FreedomNodes: keep, refuse, replace")
struct NodePolicyTests {
  /// The bytes of every regular file below `path`.
  static func files(below path: String) -> [[UInt8]] {
    let manager = FileManager.default
    guard let names = try? manager.subpathsOfDirectory(atPath: path) else { return [] }
    return names.compactMap { name in
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { return nil }
      return manager.contents(atPath: path + "/" + name).map { Array($0) }
    }
  }

  /// Runs the four decisions on `node`: `theirs` (the identity `theirsID`) first into a fresh
  /// directory, then `mine` over it. `keyFile` is the key's path; `fresh` the kind its first
  /// export plans for it.
  func decisions<Node: FreedomNode>(
    _ node: Node, theirs: Node.ExportInputs, theirsID: String, mine: Node.ExportInputs,
    mineID: String, keyFile: String, fresh: PlannedAction.Kind = .create,
    consent: ExportConsent = ExportConsent(replacesOtherIdentities: true)
  ) throws {
    // Fresh: the key is created.
    let created = try NodeSession.export(node, theirs, consent: .none)
    #expect(created.plan.actions.contains(PlannedAction(keyFile, fresh, after: theirsID)))
    #expect(created.result != nil)
    let old = try #require(FileManager.default.contents(atPath: keyFile))

    // The same identity: kept, nothing written.
    let kept = try NodeSession.export(node, theirs, consent: .none)
    #expect(kept.plan.change == nil)
    #expect(kept.result == nil)
    #expect(kept.plan.actions.contains(PlannedAction(keyFile, .keep, after: theirsID)))
    #expect(FileManager.default.contents(atPath: keyFile) == old)

    // Another identity without consent: refused, the key as it was.
    let conflicts = try refusal { () throws(NodeError) in
      _ = try NodeSession.export(node, mine, consent: .none)
    }
    #expect(conflicts?.contains { $0.path == keyFile && $0.expected == mineID } == true)
    #expect(FileManager.default.contents(atPath: keyFile) == old)
    #expect(Self.files(below: node.directory + "/" + NodeLayout.replacedName).isEmpty)

    // With consent: replaced, the old key in the backup.
    let replaced = try NodeSession.export(node, mine, consent: consent)
    #expect(
      replaced.plan.actions.contains(
        PlannedAction(keyFile, .replace(before: theirsID), after: mineID)))
    #expect(!replaced.keptAside.isEmpty)
    #expect(FileManager.default.contents(atPath: keyFile) != old)
    #expect(
      Self.files(below: node.directory + "/" + NodeLayout.replacedName).contains(Array(old)))

    // And the new identity is now the one kept.
    let keptMine = try NodeSession.export(node, mine, consent: .none)
    #expect(keptMine.plan.change == nil)
  }

  static let mine = NodeFixture.profile
  static let theirs = NodeFixture.other

  @Test func bee() throws {
    let fixture = try NodeFixture()
    let bee = Bee(directory: fixture.path("bee"))
    func inputs(_ profile: FreedomProfile) -> Bee.ExportInputs {
      .init(profile: profile, password: SecureBytes(utf8: "pw"), passwordPath: nil, scryptN: 1024)
    }
    try decisions(
      bee, theirs: inputs(Self.theirs), theirsID: Self.theirs.swarm.address.checksummed,
      mine: inputs(Self.mine), mineID: Self.mine.swarm.address.checksummed,
      keyFile: bee.keystorePath)
  }

  @Test func antd() throws {
    let fixture = try NodeFixture()
    try fixture.file("ant-data/config.yaml", "password: pw-of-the-test\n")
    let antd = Antd(directory: fixture.path("ant-data"))
    try decisions(
      antd, theirs: .init(profile: Self.theirs, password: nil),
      theirsID: Self.theirs.swarm.address.checksummed,
      mine: .init(profile: Self.mine, password: nil),
      mineID: Self.mine.swarm.address.checksummed, keyFile: antd.keystorePath)
  }

  @Test func ant() throws {
    let fixture = try NodeFixture()
    let ant = Ant(directory: fixture.path("ant"))
    try decisions(
      ant, theirs: Self.theirs, theirsID: Self.theirs.swarm.address.checksummed, mine: Self.mine,
      mineID: Self.mine.swarm.address.checksummed, keyFile: ant.identityPath)
  }

  @Test func kubo() throws {
    let fixture = try NodeFixture()
    try fixture.file("ipfs/config", "{\"Identity\": {}}\n")
    let kubo = Kubo(repository: fixture.path("ipfs"))
    try decisions(
      kubo, theirs: Self.theirs, theirsID: Self.theirs.ipfs.peerID.description, mine: Self.mine,
      mineID: Self.mine.ipfs.peerID.description, keyFile: kubo.configPath,
      fresh: .replace(before: nil))
  }

  @Test func radicle() throws {
    let fixture = try NodeFixture()
    let radicle = Radicle(home: fixture.path("rad"))
    try decisions(
      radicle, theirs: .init(identity: Self.theirs.radicle, alias: nil, comment: "x"),
      theirsID: Self.theirs.radicle.radicle.did,
      mine: .init(identity: Self.mine.radicle, alias: nil, comment: "x"),
      mineID: Self.mine.radicle.radicle.did, keyFile: radicle.privateKeyPath)
  }

  @Test func desktopInstallation() throws {
    let fixture = try NodeFixture()
    try FileManager.default.createDirectory(
      atPath: fixture.path("Freedom"), withIntermediateDirectories: true)
    let installation = try DesktopInstallation(
      userData: fixture.path("Freedom"), createsInstallation: true)
    let password = SecureBytes(utf8: "correct horse battery staple")
    try decisions(
      installation,
      theirs: .init(mnemonic: NodeFixture.junk, profile: Self.theirs, vaultPassword: password),
      theirsID: Self.theirs.swarm.address.checksummed,
      mine: .init(mnemonic: NodeFixture.abandon, profile: Self.mine, vaultPassword: password),
      mineID: Self.mine.swarm.address.checksummed, keyFile: installation.antd.keystorePath,
      // Node keys and the vault of another mnemonic are each consented to on their own.
      consent: ExportConsent(replacesOtherIdentities: true, replacesVault: true))
  }
}

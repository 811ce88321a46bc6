import CryptoPrimitives
import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// Bee, Kubo, Radicle and Ant, in process: plans, refusals, findings and targets.
@Suite("FreedomNodes: Bee, Kubo, Radicle, Ant")
struct NodeTypesTests {
  @Test func beeKeepsReplacesOnlyWithConsentAndMovesTheOldStateAside() throws {
    let fixture = try NodeFixture()
    let bee = Bee(directory: fixture.path("bee"))
    let inputs = Bee.ExportInputs(
      profile: NodeFixture.other, password: nil, passwordPath: nil, scryptN: 1024)
    let first = try NodeSession.export(bee, inputs, consent: .none)
    #expect(first.plan.writesPasswordFile)
    try FileManager.default.createDirectory(
      atPath: fixture.path("bee/statestore"), withIntermediateDirectories: true)
    let mine = Bee.ExportInputs(
      profile: NodeFixture.profile, password: nil, passwordPath: nil, scryptN: 1024)
    #expect(throws: NodeError.self) { try NodeSession.export(bee, mine, consent: .none) }
    let forced = try NodeSession.export(
      bee, mine, consent: ExportConsent(replacesOtherIdentities: true))
    #expect(forced.plan.replaced == NodeFixture.other.swarm.address)
    #expect(forced.removed == [fixture.path("bee/statestore")])
    #expect(!forced.plan.writesPasswordFile)
    let again = try NodeSession.export(bee, mine, consent: .none)
    #expect(again.plan.change == nil)
    let password = try #require(fixture.read("bee/password"))
    let check = Bee(
      directory: bee.directory, password: SecureBytes(utf8: String(password.dropLast())))
    let finding = try NodeSession.verify(check, against: NodeFixture.profile)[0]
    #expect(finding.status == .match)
    #expect(finding.authenticated == true)
    #expect(
      try NodeSession.recoveryTargets(bee)
        == [.address(NodeFixture.profile.swarm.address, of: .swarm)])
  }

  @Test func kuboNeedsAnInitialisedRepository() throws {
    let fixture = try NodeFixture()
    try FileManager.default.createDirectory(
      atPath: fixture.path("ipfs"), withIntermediateDirectories: true)
    let kubo = Kubo(repository: fixture.path("ipfs"))
    do throws(NodeError) {
      _ = try NodeSession.export(kubo, NodeFixture.profile, consent: .none)
      Issue.record("an empty repository was written")
    } catch {
      guard case .missingFile(let path, .kuboConfig(let repository)) = error else {
        Issue.record("the error is \(error)")
        return
      }
      #expect(path == kubo.configPath)
      #expect(repository == kubo.directory)
    }
    try fixture.file("ipfs/config", "{\"Identity\": {}}\n")
    let outcome = try NodeSession.export(kubo, NodeFixture.profile, consent: .none)
    #expect(outcome.plan.replacedPeerID == nil)
    #expect(try NodeSession.verify(kubo, against: NodeFixture.profile)[0].status == .match)
    #expect(throws: NodeError.self) {
      try NodeSession.export(kubo, NodeFixture.other, consent: .none)
    }
    #expect(
      try NodeSession.recoveryTargets(kubo) == [.peerID(NodeFixture.profile.ipfs.peerID)])
  }

  @Test func radiclesKeyPairIsOneConflict() throws {
    let fixture = try NodeFixture()
    let radicle = Radicle(home: fixture.path("rad"))
    let other = Radicle.ExportInputs(identity: NodeFixture.other.radicle, alias: nil, comment: "x")
    _ = try NodeSession.export(radicle, other, consent: .none)
    let mine = Radicle.ExportInputs(
      identity: NodeFixture.profile.radicle, alias: "alice", comment: "alice")
    let conflicts = try refusal { () throws(NodeError) in
      _ = try NodeSession.export(radicle, mine, consent: .none)
    }
    #expect(
      conflicts == [
        NodeConflict(
          path: radicle.privateKeyPath, found: .radicleKey(NodeFixture.other.radicle.radicle.did),
          expected: NodeFixture.profile.radicle.radicle.did)
      ])
    #expect(fixture.read("rad/config.json") == nil)
    let forced = try NodeSession.export(
      radicle, mine, consent: ExportConsent(replacesOtherIdentities: true))
    #expect(forced.plan.config == .create)
    #expect(try NodeSession.verify(radicle, against: NodeFixture.profile)[0].status == .match)
    #expect(
      try NodeSession.recoveryTargets(radicle)
        == [.radicle(NodeFixture.profile.radicle.radicle)])
    // Half a key pair is a mismatch that names both files.
    try fixture.file(
      "rad/keys/radicle.pub",
      OpenSSH.authorizedKeyLine(NodeFixture.other.radicle.publicKey, comment: "x") + "\n")
    let half = try NodeSession.verify(radicle, against: NodeFixture.profile)[0]
    #expect(half.status == .mismatch)
    #expect(
      half.reason
        == .radicleKeyPairDisagrees(
          key: NodeFixture.profile.radicle.radicle.did,
          publicKey: NodeFixture.other.radicle.radicle.did))
  }

  @Test func antRewritesWhatAntWouldRefuseAndAsksBeforeChangingTheOverlay() throws {
    let fixture = try NodeFixture()
    let ant = Ant(directory: fixture.path("ant"))
    let key = Hex.encode(
      NodeFixture.profile.swarm.privateKey.rawRepresentation.withUnsafeBytes { Array($0) })
    try fixture.file(
      "ant/identity.json",
      "{\"signing_key\": \"0x\(key)\", \"overlay_nonce\": \"\(String(repeating: "0", count: 64))\"}"
    )
    let repaired = try NodeSession.export(ant, NodeFixture.profile, consent: .none)
    #expect(!repaired.plan.repairs.isEmpty)
    #expect(try NodeSession.verify(ant, against: NodeFixture.profile)[0].status == .match)
    try fixture.file(
      "ant/identity.json",
      "{\"signing_key\": \"\(key)\", \"overlay_nonce\": \"\(String(repeating: "1", count: 64))\"}")
    let conflicts = try refusal { () throws(NodeError) in
      _ = try NodeSession.export(ant, NodeFixture.profile, consent: .none)
    }
    #expect(conflicts?.count == 1)
    if case .sameKeyRunDifferently(let problems)? = conflicts?.first?.found {
      #expect(problems.count == 1)
    } else {
      Issue.record("the conflicts are \(String(describing: conflicts))")
    }
    #expect(
      try NodeSession.recoveryTargets(ant)
        == [.address(NodeFixture.profile.swarm.address, of: .swarm)])
  }
}

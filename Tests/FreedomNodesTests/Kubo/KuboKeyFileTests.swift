import FreedomNodes
import Testing
import VaultKeys

/// The key file for `ipfs key import`: written once, kept when it holds the key, its result
/// worded and as JSON by FreedomNodes.
@Suite struct KuboKeyFileTests {
  func member(_ object: JSONObject, _ key: String) -> JSONValue? {
    object.members.first { $0.key == key }?.value
  }

  @Test func writesOnceThenKeepsTheKey() throws {
    let fixture = try NodeFixture()
    let path = fixture.path("ipfs.key")
    let identity = NodeFixture.profile.ipfs
    let peerID = identity.peerID.base58

    let planned = try Kubo.dryRunKeyFile(path, identity: identity, consent: .none)
    #expect(planned.changes && planned.actions.map(\.kind) == [.create])
    let first = try Kubo.exportKeyFile(path, identity: identity, consent: .none)
    let kept = try Kubo.dryRunKeyFile(path, identity: identity, consent: .none)
    #expect(!kept.changes && kept.actions.map(\.kind) == [.keep])
    #expect(first.wrote)
    #expect(first.action.kind == .create)
    #expect(
      first.report.hasPrefix("Wrote \(path): the libp2p private key of \(peerID) (mode 0600)\n"))
    let json = first.json(command: "export kubo")
    #expect(member(json, "changed") == .bool(true))
    #expect(member(json, "written") == .array([.string(path)]))
    #expect(member(json, "keptAside") == .array([]))

    let again = try Kubo.exportKeyFile(path, identity: identity, consent: .none)
    #expect(!again.wrote)
    #expect(again.action.kind == .keep)
    #expect(!again.report.hasPrefix("Wrote"))
    #expect(again.report.contains(peerID))
    #expect(member(again.json(command: "export kubo"), "changed") == .bool(false))
    #expect(member(again.json(command: "export kubo"), "written") == .array([]))
  }
}

import CryptoPrimitives
import FreedomNodes
import Testing
import VaultKeys

/// Ant's two nonce rules: zero, as iOS writes it, and the nonce Ant's library derives when it
/// restores an identity from the key (`ant_identity_from_key`, freedom-hq/ant
/// `crates/ant-ffi/src/lib.rs`). Nonce and overlay of abandon…about's Swarm key computed with
/// pycryptodome's Keccak-256 (as in AntIdentityRestoreTests).
@Suite struct AntTests {
  static let derivedNonce = "e604b3878302ee7ceead2e7c4d54dab1d22e660d5da47f34b3c11d759fadab32"
  static let derivedOverlay = "e9eecc7aa897d49525afbce496b29df4a1d0f52e7edc071d26faf68ae4903b3a"
  static let zeroOverlay = "ffc594c6c113aedba5445e3b7405ea7845b605d562288a4491c7777ccd2b0279"
  static let zeros = String(repeating: "0", count: 64)
  static let key = Hex.encode(
    NodeFixture.profile.swarm.privateKey.rawRepresentation.withUnsafeBytes { Array($0) })

  static func document(_ nonce: String, prefix: String = "") -> String {
    "{\"signing_key\": \"\(prefix)\(key)\", \"overlay_nonce\": \"\(nonce)\"}"
  }

  @Test func verifyNamesTheNonceTheOverlayAndTheReaders() throws {
    let fixture = try NodeFixture()
    let ant = Ant(directory: fixture.path("ant"))
    try fixture.file("ant/identity.json", Self.document(Self.derivedNonce))
    let restored = try NodeSession.verify(ant, against: NodeFixture.profile)
    #expect(restored.count == 1)
    #expect(restored.first?.status == .match)
    #expect(
      restored.first?.reason
        == .antIdentity(
          nonce: .derivedFromKey, overlay: Self.derivedOverlay, acceptedBy: [.antd, .antLibrary]))

    try fixture.file("ant/identity.json", Self.document(Self.zeros, prefix: "0x"))
    let prefixed = try NodeSession.verify(ant, against: NodeFixture.profile)
    #expect(prefixed.first?.status == .mismatch)
    #expect(
      prefixed.first?.reason
        == .antIdentity(nonce: .zero, overlay: Self.zeroOverlay, acceptedBy: [.antLibrary]))

    try fixture.file("ant/identity.json", Self.document(Self.zeros, prefix: "0X"))
    #expect(
      try NodeSession.verify(ant, against: NodeFixture.profile).first?.reason
        == .antIdentity(nonce: .zero, overlay: Self.zeroOverlay, acceptedBy: []))
  }

  @Test func theDerivedRuleWritesTheLibrarysNonce() throws {
    let fixture = try NodeFixture()
    let ant = Ant(directory: fixture.path("ant"), nonce: .derivedFromKey)
    let written = try NodeSession.export(ant, NodeFixture.profile, consent: .none)
    #expect(written.plan.nonce == .derivedFromKey)
    #expect(written.plan.overlay.hex == Self.derivedOverlay)
    let file = try AntIdentityFile(
      json: Array(try #require(fixture.read("ant/identity.json")).utf8))
    #expect(Hex.encode(file.identity.overlayNonce) == Self.derivedNonce)
    #expect(file.isRestoredFromKeyAsAntLibraryDoes)

    let again = try NodeSession.export(ant, NodeFixture.profile, consent: .none)
    #expect(again.plan.change == nil)
    #expect(again.plan.actions.map(\.kind) == [.keep])
  }

  @Test(arguments: [
    (AntIdentity.NonceRule.derivedFromKey, zeros, derivedNonce),
    (AntIdentity.NonceRule.zero, derivedNonce, zeros),
  ])
  func theOtherRulesFileNeedsConsent(rule: AntIdentity.NonceRule, found: String, written: String)
    throws
  {
    let fixture = try NodeFixture()
    let ant = Ant(directory: fixture.path("ant"), nonce: rule)
    try fixture.file("ant/identity.json", Self.document(found))
    let conflicts = try refusal { () throws(NodeError) in
      _ = try NodeSession.export(ant, NodeFixture.profile, consent: .none)
    }
    #expect(conflicts?.count == 1)
    guard case .sameKeyRunDifferently(let changes)? = conflicts?.first?.found else {
      Issue.record("the conflicts are \(String(describing: conflicts))")
      return
    }
    #expect(changes.count == 1)
    #expect(changes.first?.contains(Self.zeroOverlay) == true)
    #expect(changes.first?.contains(Self.derivedOverlay) == true)
    #expect(fixture.read("ant/identity.json") == Self.document(found))

    let forced = try NodeSession.export(
      ant, NodeFixture.profile, consent: ExportConsent(replacesOtherIdentities: true))
    #expect(forced.plan.repairs == [])
    let file = try AntIdentityFile(
      json: Array(try #require(fixture.read("ant/identity.json")).utf8))
    #expect(Hex.encode(file.identity.overlayNonce) == written)
  }

  @Test func theRuleChangeIsOneOfTheFilesChanges() throws {
    let fixture = try NodeFixture()
    let ant = Ant(directory: fixture.path("ant"), nonce: .derivedFromKey)
    try fixture.file(
      "ant/identity.json",
      "{\"signing_key\": \"\(Self.key)\", \"overlay_nonce\": \"\(Self.zeros)\", "
        + "\"libp2p_keypair\": \"08021220\(String(repeating: "11", count: 32))\"}")
    let conflicts = try refusal { () throws(NodeError) in
      _ = try NodeSession.export(ant, NodeFixture.profile, consent: .none)
    }
    guard case .sameKeyRunDifferently(let changes)? = conflicts?.first?.found else {
      Issue.record("the conflicts are \(String(describing: conflicts))")
      return
    }
    #expect(conflicts?.count == 1)
    #expect(changes.count == 2)
  }
}

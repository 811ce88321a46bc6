import FreedomNodes
import Testing
import VaultKeys

/// Several node directories verified as one report: findings in the order given, directories
/// with nothing of their node named first in the failure.
@Suite struct NodeVerificationTests {
  @Test func aMatchingDirectoryPassesAndAnEmptyOneIsNamedFirst() throws {
    let fixture = try NodeFixture()
    _ = try NodeSession.export(
      Ant(directory: fixture.path("ant")), NodeFixture.profile, consent: .none)
    let matching = try NodeVerification(
      [(Ant.kind, fixture.path("ant"))], password: nil, against: NodeFixture.profile)
    #expect(matching.failure == nil)
    #expect(matching.nothingFound.isEmpty)
    #expect(matching.findings.map(\.status) == [.match])
    #expect(
      matching.json(passphraseMayExplain: false).members.first { $0.key == "ok" }?.value
        == .bool(true))

    try fixture.file("empty/.keep", "")
    let both = try NodeVerification(
      [(Ant.kind, fixture.path("ant")), (Radicle.kind, fixture.path("empty"))], password: nil,
      against: NodeFixture.profile)
    #expect(both.nothingFound.map(\.directory) == [fixture.path("empty")])
    let failure = try #require(both.failure)
    #expect(failure.hasPrefix("nothing of "))
    #expect(failure.hasSuffix(" found here: \(fixture.path("empty"))"))
    #expect(
      both.json(passphraseMayExplain: false).members.first { $0.key == "ok" }?.value == .bool(false)
    )
  }

  @Test func anotherIdentitysKeyMayBeExplainedByAPassphrase() throws {
    let fixture = try NodeFixture()
    _ = try NodeSession.export(
      Ant(directory: fixture.path("ant")), NodeFixture.other, consent: .none)
    let verification = try NodeVerification(
      [(Ant.kind, fixture.path("ant"))], password: nil, against: NodeFixture.profile)
    #expect(verification.findings.map(\.status) == [.mismatch])
    #expect(verification.nothingFound.isEmpty)
    #expect(verification.failure != nil)
    #expect(verification.passphraseMayExplain(passphraseGiven: false))
    #expect(!verification.passphraseMayExplain(passphraseGiven: true))
  }
}

import CryptoPrimitives
import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// Issue 17 items 1 and 5, in process: the lock hierarchy of a profile's Radicle home, and what
/// verify says about the desktop files that hold no identity of their own (quick-unlock.dat, a
/// Quick Setup vault, the migration's leftovers, freedom-ipfs, swarm-feeds.json).
@Suite("FreedomNodes: desktop files and profiles")
struct DesktopFilesTests {
  static let vaultPassword = DesktopInstallationTests.vaultPassword
  /// abandon…about's publisher keys 0 and 7 (freedom-android.json,
  /// PublisherIdentitiesTest.kt) and user wallet 0 (m/44'/60'/0'/0/0).
  static let publisher0 = "0xA274614c1D3425568Fd100B30322287c86085220"
  static let publisher7 = "0x568A46D10b845596702CC9a73F596Beb93dDd6cA"
  static let wallet0 = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"

  func export(_ installation: DesktopInstallation, consent: ExportConsent = .none)
    throws(NodeError) -> ExportOutcome<DesktopInstallation.Plan>
  {
    try NodeSession.export(
      installation,
      .init(
        mnemonic: NodeFixture.abandon, profile: NodeFixture.profile,
        vaultPassword: Self.vaultPassword),
      consent: consent)
  }

  func finding(_ findings: [NodeFinding], _ check: String) -> NodeFinding? {
    findings.first { $0.check == check }
  }

  /// A packaged app root with the default profile (slot 0) and "work" (slot 2).
  func appRoot(_ fixture: NodeFixture) throws -> String {
    try fixture.file(
      "Freedom/profile-registry.json",
      #"{"version": 1, "profiles": [{"id": "default", "slot": 0}, {"id": "work", "slot": 2}]}"#)
    try fixture.file("Freedom/profile.json", #"{"slot": 0}"#)
    try fixture.file("Freedom/Profiles/work/profile.json", #"{"slot": 2}"#)
    return fixture.path("Freedom")
  }

  @Test func aProfilesRadicleHomeIsLockedAfterItsUserData() throws {
    let fixture = try NodeFixture()
    let root = try appRoot(fixture)
    let work = try DesktopInstallation(userData: root + "/Profiles/work")
    #expect(work.radicleHome == root + "/R/2")
    #expect(work.radicleInside == nil)
    #expect(work.nestedDirectories.map(\.path).contains(root + "/R/2"))
    // Issue 26, item 4: the profile's one transaction is rooted in the app root, whose lock
    // comes first. export radicle of R/2 takes the app root's and the work profile's locks
    // first, as export freedom of it does; R/0 belongs to the default profile, whose userData
    // is the app root.
    #expect(work.transactionRoot == root)
    #expect(work.enclosingDirectories.map(\.path) == [root])
    #expect(
      Radicle(home: root + "/R/2").enclosingDirectories.map(\.path) == [root, work.directory])
    #expect(Radicle(home: root + "/R/0").enclosingDirectories.map(\.path) == [root])
    #expect(
      Antd(directory: root + "/Profiles/work/ant-data").enclosingDirectories.map(\.path) == [
        root, work.directory,
      ])
  }

  @Test func aRewrittenVaultMovesQuickUnlockAsideAndVerifyCallsItStale() throws {
    let fixture = try NodeFixture()
    let userData = fixture.path("Freedom")
    // A vault of another mnemonic with its Touch ID credential bound to it.
    let oldVault = try DesktopVault.encrypt(
      mnemonic: NodeFixture.junk.phrase(), password: Self.vaultPassword)
    try fixture.bytes("Freedom/identity/identity-vault.json", oldVault)
    let fingerprint = Hex.encode(SHA256.hash(oldVault))
    let credential =
      #"{"version": 2, "profileId": "default", "userDataDirHash": "00", "vaultFingerprint": ""#
      + fingerprint + #"", "encrypted": "c2VhbGVk", "createdAt": "2026-01-01T00:00:00.000Z"}"#
    try fixture.file("Freedom/identity/quick-unlock.dat", credential)
    let installation = try DesktopInstallation(userData: userData)
    let before = try NodeSession.verify(installation, against: NodeFixture.other)
    #expect(finding(before, "quick-unlock")?.reason == .desktop(.quickUnlock(.fitsVault)))

    let outcome = try export(installation, consent: ExportConsent(replacesVault: true))
    #expect(outcome.plan.quickUnlockMovedAside)
    #expect(!FileManager.default.fileExists(atPath: installation.quickUnlockPath))
    let kept = outcome.keptAside.first { $0.original == installation.quickUnlockPath }
    #expect(
      kept.map { fixture.read(String($0.backup.dropFirst(fixture.root.count + 1))) } == credential)
    // A credential bound to the old vault, put back, is stale.
    try fixture.file("Freedom/identity/quick-unlock.dat", credential)
    let after = try NodeSession.verify(installation, against: NodeFixture.profile)
    #expect(finding(after, "quick-unlock")?.reason == .desktop(.quickUnlock(.staleVault)))
    try fixture.file("Freedom/identity/quick-unlock.dat", "raw sealed bytes")
    let legacy = try NodeSession.verify(installation, against: NodeFixture.profile)
    #expect(finding(legacy, "quick-unlock")?.reason == .desktop(.quickUnlock(.legacy)))
  }

  @Test func aQuickSetupVaultNeedsItsOwnConsentAndIsNamed() throws {
    let fixture = try NodeFixture()
    let userData = fixture.path("Freedom")
    let keyringPassword = SecureBytes(utf8: "a random password only the keyring knows")
    try fixture.bytes(
      "Freedom/identity/identity-vault.json",
      try DesktopVault.encrypt(mnemonic: NodeFixture.abandon.phrase(), password: keyringPassword))
    try fixture.bytes(
      "Freedom/identity/vault-meta.json",
      DesktopVaultMeta.importedJSON(
        userWallet: NodeFixture.profile.wallet.address,
        beeWallet: NodeFixture.profile.swarm.address, userKnowsPassword: false))
    let installation = try DesktopInstallation(userData: userData)
    let conflicts = try refusal { () throws(NodeError) in
      _ = try export(installation, consent: ExportConsent(replacesOtherIdentities: true))
    }
    #expect(conflicts?.map(\.found) == [.vaultNotOpened(quickSetup: true)])
    let findings = try NodeSession.verify(installation, against: NodeFixture.profile)
    #expect(finding(findings, "vault password")?.reason == .desktop(.quickSetupVault))
  }

  @Test func migrationLeftoversAndTheIPFSCacheAreReportedForWhatTheyAre() throws {
    let fixture = try NodeFixture()
    let userData = fixture.path("Freedom")
    _ = try export(try DesktopInstallation(userData: userData, createsInstallation: true))
    try fixture.file("Freedom/.bee-only-data-pending-delete/statestore/000001.log", "x")
    try fixture.file("Freedom/ant-data/stamperstore/000001.log", "x")
    try fixture.file("Freedom/ipfs-data/freedom-ipfs/blocks/x", "x")
    let findings = try NodeSession.verify(
      try DesktopInstallation(userData: userData), against: NodeFixture.profile)
    #expect(
      finding(findings, ".bee-only-data-pending-delete")?.reason
        == .desktop(.beeOnlyDataPendingDelete))
    #expect(finding(findings, "ant-data stamperstore")?.reason == .desktop(.keptStamperstore))
    #expect(finding(findings, "ipfs-data freedom-ipfs")?.reason == .desktop(.freedomIPFSCache))
    // Never verified as a kubo repository.
    #expect(finding(findings, "ipfs-data")?.status == .absent)
    #expect(!findings.contains { $0.status == .mismatch })
  }

  @Test func thePublisherMapsSignersAreTheMnemonicsKeys() throws {
    let fixture = try NodeFixture()
    let userData = fixture.path("Freedom")
    _ = try export(try DesktopInstallation(userData: userData, createsInstallation: true))
    try fixture.file(
      "Freedom/swarm-feeds.json",
      """
      {"version": 2, "nextPublisherKeyIndex": 8, "origins": {
        "https://a.example": {"activeIdentityId": "app-scoped:7", "identities": {
            "app-scoped:0": {"id": "app-scoped:0", "mode": "app-scoped", "publisherKeyIndex": 0},
            "app-scoped:7": {"id": "app-scoped:7", "mode": "app-scoped", "publisherKeyIndex": 7}},
          "feeds": {
            "blog": {"topic": "00", "owner": "\(Self.publisher7)", "identityId": "app-scoped:7"},
            "old": {"topic": "01", "owner": "\(Self.publisher0)", "identityId": "app-scoped:0"},
            "forged": {"topic": "02", "owner": "\(Self.wallet0)", "identityId": "app-scoped:0"}}},
        "https://b.example": {"activeIdentityId": "bee-wallet", "identities": {
            "bee-wallet": {"id": "bee-wallet", "mode": "bee-wallet"},
            "ethereum-wallet:0": {"id": "ethereum-wallet:0", "mode": "ethereum-wallet", "walletIndex": 0}},
          "feeds": {
            "site": {"owner": "\(NodeFixture.profile.swarm.address.checksummed)", "identityId": "bee-wallet"},
            "wallet": {"owner": "\(Self.wallet0)", "identityId": "ethereum-wallet:0"},
            "lost": {"owner": "\(Self.wallet0)", "identityId": "app-scoped:9"}}}}}
      """)
    let findings = try NodeSession.verify(
      try DesktopInstallation(userData: userData), against: NodeFixture.profile)
    #expect(
      finding(findings, "swarm-feeds")?.reason
        == .desktop(.publisherMap(.current(origins: 2, feeds: 6))))
    let statuses = Dictionary(
      findings.filter { $0.check.hasPrefix("swarm feed ") }.map { ($0.check, $0.status) },
      uniquingKeysWith: { first, _ in first })
    #expect(
      statuses == [
        "swarm feed https://a.example blog": .match, "swarm feed https://a.example old": .match,
        "swarm feed https://a.example forged": .mismatch,
        "swarm feed https://b.example site": .match, "swarm feed https://b.example wallet": .match,
        "swarm feed https://b.example lost": .note,
      ])
    #expect(finding(findings, "swarm feed https://a.example blog")?.expected == Self.publisher7)
    #expect(
      finding(findings, "swarm feed https://a.example forged")?.reason
        == .desktop(.feedSigner(origin: "https://a.example", feed: "forged", signer: .publisher(0)))
    )
  }
}

/// antd's own identity.json in `verify --freedom-dir`: its overlay nonce named as Ant's rows name
/// it (issue 17 item 5); on 96c9884 a nonce of neither rule said "the overlay nonce is not zero"
/// and the nonce Ant's library derives was not named at all.
@Suite("FreedomNodes: antd's own identity.json nonce")
struct AntdOwnIdentityNonceTests {
  func row(_ identity: AntIdentity) throws -> NodeFinding? {
    let fixture = try NodeFixture()
    try fixture.bytes("ant-data/identity.json", identity.json.withUnsafeBytes { Array($0) })
    let findings = try NodeSession.verify(
      Antd(directory: fixture.path("ant-data")), against: NodeFixture.profile)
    return findings.first { $0.check == "antd identity.json" }
  }

  @Test func theDerivedNonceIsNamedAsAntsLibrarys() throws {
    let found = try #require(
      try row(AntIdentity(signingKey: NodeFixture.profile.swarm.privateKey, nonce: .derivedFromKey))
    )
    #expect(found.status == .match)
    #expect(
      found.problems.contains {
        $0.hasPrefix("its overlay nonce is the nonce Ant's library derives")
      })
  }

  @Test func anotherNonceIsNeitherRule() throws {
    let found = try #require(
      try row(
        AntIdentity(
          signingKey: NodeFixture.profile.swarm.privateKey,
          overlayNonce: [UInt8](repeating: 7, count: 32))))
    #expect(found.status == .mismatch)
    #expect(
      found.problems.contains {
        $0.hasPrefix("its overlay nonce is neither the zero nonce iOS writes nor the nonce")
      })
    #expect(!found.problems.contains { $0.contains("is not zero") })
  }

  @Test func theZeroNonceAddsNothing() throws {
    let found = try #require(
      try row(AntIdentity(signingKey: NodeFixture.profile.swarm.privateKey, nonce: .zero)))
    #expect(found.status == .match)
    #expect(found.problems.isEmpty)
  }
}

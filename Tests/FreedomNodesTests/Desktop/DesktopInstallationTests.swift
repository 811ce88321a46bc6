import CryptoPrimitives
import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// A desktop installation, in process: composed of Antd and Radicle plus the vault; its vault and
/// vault-meta.json believed only for what they say; every conflict in one refusal.
@Suite("FreedomNodes: DesktopInstallation")
struct DesktopInstallationTests {
  static let vaultPassword = SecureBytes(utf8: "correct horse battery staple")

  func export(
    _ installation: DesktopInstallation, _ mnemonic: Mnemonic = NodeFixture.abandon,
    vaultPassword: SecureBytes? = vaultPassword, consent: ExportConsent = .none
  ) throws(NodeError) -> ExportOutcome<DesktopInstallation.Plan> {
    try NodeSession.export(
      installation,
      .init(
        mnemonic: mnemonic, profile: try! FreedomProfile(mnemonic: mnemonic),
        vaultPassword: vaultPassword),
      consent: consent)
  }

  func statuses(_ findings: [NodeFinding]) -> [String: NodeFinding.Status] {
    Dictionary(findings.map { ($0.check, $0.status) }, uniquingKeysWith: { first, _ in first })
  }

  @Test func aRestoredInstallationVerifies() throws {
    let fixture = try NodeFixture()
    let installation = try DesktopInstallation(
      userData: fixture.path("Freedom"), createsInstallation: true)
    let outcome = try export(installation)
    #expect(outcome.plan.vault == .create)
    #expect(outcome.plan.radicleOutside == nil)
    #expect(outcome.plan.antd.keystore == .write)
    let opened = try DesktopInstallation(
      userData: fixture.path("Freedom"),
      vault: .password(Self.vaultPassword, mnemonic: NodeFixture.abandon))
    let findings = try NodeSession.verify(opened, against: NodeFixture.profile)
    #expect(
      statuses(findings) == [
        "vault": .match, "vault-meta userWallet": .match, "vault-meta beeWallet": .match,
        "vault-meta wallet 0": .match, "ant-data": .match, "bee-data": .absent,
        "radicle": .match, "radicle alias": .note, "ipfs-data": .absent,
      ])
    // Again: nothing to do.
    let again = try export(installation)
    #expect(again.plan.change == nil)
    #expect(again.plan.vault == .keep)
  }

  @Test func aGarbageVaultIsAMismatchAndAnEmptyVaultMetaIsReportedAsSuch() throws {
    let fixture = try NodeFixture()
    try fixture.file("Freedom/identity/identity-vault.json", "garbage")
    try fixture.file("Freedom/identity/vault-meta.json", "{}")
    let installation = try DesktopInstallation(userData: fixture.path("Freedom"))
    let findings = try NodeSession.verify(installation, against: NodeFixture.profile)
    let vault = try #require(findings.first { $0.check == "vault" })
    #expect(vault.status == .mismatch)
    guard case .vaultUnreadable? = vault.reason else {
      Issue.record("the vault's reason is \(String(describing: vault.reason))")
      return
    }
    let meta = try #require(findings.first { $0.check == "vault-meta" })
    #expect(meta.status == .mismatch)
    #expect(
      meta.reason
        == .vaultMetaLacks([
          "userKnowsPassword", "createdAt", "addresses.userWallet", "addresses.beeWallet",
        ]))
    // Nothing the files do not say: no implicit "Main Wallet".
    #expect(!findings.contains { $0.check.hasPrefix("vault-meta wallet") })
  }

  @Test func everyConflictIsInOneRefusal() throws {
    let fixture = try NodeFixture()
    let userData = fixture.path("Freedom")
    // antd's own identity of another key, and a vault of another mnemonic.
    let other = try AntIdentity(signingKey: NodeFixture.other.swarm.privateKey)
    try fixture.bytes("Freedom/ant-data/identity.json", other.json.withUnsafeBytes { Array($0) })
    try fixture.bytes(
      "Freedom/identity/identity-vault.json",
      try DesktopVault.encrypt(mnemonic: NodeFixture.junk.phrase(), password: Self.vaultPassword))
    let installation = try DesktopInstallation(userData: userData)
    let conflicts = try refusal { () throws(NodeError) in _ = try export(installation) } ?? []
    let paths = conflicts.map { $0.path }
    let found = conflicts.map { $0.found }
    #expect(paths == [userData + "/ant-data/identity.json", installation.vaultPath])
    let expected: [NodeConflict.Found] = [
      .antdOwnIdentity(NodeFixture.other.swarm.address.checksummed), .otherVault,
    ]
    #expect(found == expected)
    #expect(!FileManager.default.fileExists(atPath: userData + "/ant-data/keys"))
    // --force's consent alone does not cover the vault (issue 16 item 4).
    let forcedOnly = try refusal { () throws(NodeError) in
      _ = try export(installation, consent: ExportConsent(replacesOtherIdentities: true))
    }
    #expect(forcedOnly?.map(\.consent) == [.otherIdentities, .vault])
    let forced = try export(
      installation, consent: ExportConsent(replacesOtherIdentities: true, replacesVault: true))
    #expect(forced.plan.vault == .replace(before: nil))
  }

  @Test func antdAndRadicleKnowTheyLieInsideTheInstallation() throws {
    let fixture = try NodeFixture()
    let installation = try DesktopInstallation(userData: fixture.path("Freedom"))
    #expect(installation.antd.enclosingDirectories.map(\.path) == [fixture.path("Freedom")])
    #expect(installation.radicle.enclosingDirectories.map(\.path) == [fixture.path("Freedom")])
    let outside = try DesktopInstallation(
      userData: fixture.path("Freedom"), radicleHome: fixture.path("rad"),
      createsInstallation: true)
    #expect(outside.radicle.enclosingDirectories.isEmpty)
    let outcome = try export(outside, vaultPassword: nil)
    #expect(outcome.plan.radicleOutside != nil)
    #expect(
      try NodeSession.verify(Radicle(home: fixture.path("rad")), against: NodeFixture.profile)[0]
        .status == .match)
  }

  @Test func recoveryTargetsComeFromVaultMeta() throws {
    let fixture = try NodeFixture()
    let installation = try DesktopInstallation(
      userData: fixture.path("Freedom"), createsInstallation: true)
    _ = try export(installation)
    let targets = try NodeSession.recoveryTargets(installation)
    #expect(!targets.isEmpty)
    #expect(throws: NodeError.self) {
      try NodeSession.recoveryTargets(
        try DesktopInstallation(userData: fixture.path("Freedom/ant-data")))
    }
  }

  @Test func desktopRefusesWhatItCannotRead() {
    #expect(throws: NodeError.self) {
      try DesktopInstallation.check(vaultPassword: SecureBytes(utf8: "short"))
    }
    do {
      try DesktopInstallation.check(vaultPassword: SecureBytes([0xFF, 0xFE, 0x41]), file: "/p")
      Issue.record("a password that is not UTF-8 was accepted")
    } catch {
      #expect(
        error.message(.export).rendered { _ in "" } == "the vault password in /p is not UTF-8 text")
    }
    #expect(throws: NodeError.self) {
      try DesktopInstallation.check(
        mnemonic: try! Mnemonic(
          phrase: SecureBytes(
            utf8: "あいこくしん あいこくしん あいこくしん あいこくしん あいこくしん あいこくしん "
              + "あいこくしん あいこくしん あいこくしん あいこくしん あいこくしん あおぞら")))
    }
  }
}

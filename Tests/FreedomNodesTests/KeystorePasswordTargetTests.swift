import FreedomNodes
import Recovery
import Testing

/// A bee or antd directory's keystore as a password search opens it: public data only.
@Suite struct KeystorePasswordTargetTests {
  @Test func theKeystoreIsTheTargetAndItsAbsenceIsNamed() throws {
    let fixture = try NodeFixture()
    try fixture.file("bee/keys/.keep", "")
    #expect(throws: PasswordTargetError.noKeystore(file: fixture.path("bee/keys/swarm.key"))) {
      try NodeSession.passwordTarget(swarmKeystoreIn: fixture.path("bee"), antd: false)
    }
    try fixture.bytes(
      "bee/keys/swarm.key", try NodeFixture.keystore(NodeFixture.profile, password: "p"))
    let (file, target) = try NodeSession.passwordTarget(
      swarmKeystoreIn: fixture.path("bee"), antd: false)
    #expect(file == fixture.path("bee/keys/swarm.key"))
    guard case .keystore = target else {
      Issue.record("not a keystore target")
      return
    }
  }
}

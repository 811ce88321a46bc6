import Foundation
import Testing

@Suite("export ant")
struct ExportAntTests {
  /// What iOS writes: sorted members, " : ", no final newline (176 bytes).
  static func identity(_ signingKey: String) -> String {
    "{\n  \"overlay_nonce\" : \"\(String(repeating: "0", count: 64))\",\n"
      + "  \"signing_key\" : \"\(signingKey)\"\n}"
  }

  @Test func identityFile() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    let run = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Wrote \(dir)/identity.json: Swarm key \(Golden.swarmAddress), overlay nonce 0 (mode 0600)
        Overlay on mainnet: \(Golden.swarmOverlay)

        """)
    #expect(text(dir + "/identity.json") == Self.identity(Golden.swarmPrivateKey))
    #expect(fileMode(dir) == 0o700)
    #expect(fileMode(dir + "/identity.json") == 0o600)
    #expect(tree(dir) == ["identity.json"])

    let again = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(again.status == 0)
    #expect(
      again.stdout
        == "\(dir)/identity.json already holds the Swarm key \(Golden.swarmAddress); nothing to do\n"
    )
    #expect(text(dir + "/identity.json") == Self.identity(Golden.swarmPrivateKey))
  }

  @Test func anotherIdentityIsReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    #expect(try fixture.run(["export", "ant", "--data-dir", dir], other: true).status == 0)
    let before = contents(dir + "/identity.json")
    let refused = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr
        == "freedom-keys: error: \(dir)/identity.json holds the key of \(Golden.otherSwarmAddress), "
        + "not the mnemonic's \(Golden.swarmAddress); nothing was written (--force replaces it)\n")
    #expect(contents(dir + "/identity.json") == before)

    let forced = try fixture.run(["export", "ant", "--data-dir", dir, "--force"])
    #expect(forced.status == 0)
    #expect(text(dir + "/identity.json") == Self.identity(Golden.swarmPrivateKey))
    #expect(fileMode(dir + "/identity.json") == 0o600)
  }

  @Test func readOnlyDirectoryFailsCleanly() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let restore = try makeReadOnlyDirectory(dir)
    defer { restore() }
    let run = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "freedom-keys: error: permission denied: could not create the lock file "
          + "\(dir)/.freedom-keys.lock; "))
    #expect(tree(dir) == [])
  }
}

@Suite("Ant's own rules")
struct AntRulesTests {
  static let zeros = String(repeating: "0", count: 64)

  @Test func aFileAntWouldRefuseIsRepairedWithoutForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    _ = try fixture.file(
      "ant/identity.json",
      "{\"signing_key\": \"0x\(Golden.swarmPrivateKey)\", \"overlay_nonce\": \"\(Self.zeros)\"}")
    let verify = try fixture.run(["verify", "--ant-dir", dir])
    #expect(verify.status == 3)
    #expect(
      verify.stdout
        == "ant  MISMATCH  expected \(Golden.swarmAddress), found \(Golden.swarmAddress) — "
        + "'signing_key' starts with 0x, which Ant refuses: the node will not start\n")

    let run = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(run.status == 0)
    #expect(run.stdout.contains("Repaired: 'signing_key' starts with 0x"))
    #expect(text(dir + "/identity.json") == ExportAntTests.identity(Golden.swarmPrivateKey))
    #expect(try fixture.run(["verify", "--ant-dir", dir]).status == 0)
  }

  @Test func aNonZeroNonceIsReportedWithItsOverlayAndReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let nonce = "ff" + String(repeating: "0", count: 62)
    let original =
      "{\"signing_key\":\"\(Golden.swarmPrivateKey)\",\"overlay_nonce\":\"\(nonce)\"}"
    _ = try fixture.file("ant/identity.json", original)
    let verify = try fixture.run(["verify", "--json", "--ant-dir", dir])
    #expect(verify.status == 3)
    #expect(verify.stdout.contains("\"status\": \"mismatch\""))
    #expect(verify.stdout.contains("the overlay nonce is not zero, so Ant's overlay is "))
    #expect(!verify.stdout.contains(Golden.swarmOverlay))

    let refused = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(refused.stderr.contains("the overlay nonce is not zero"))
    #expect(text(dir + "/identity.json") == original)

    let forced = try fixture.run(["export", "ant", "--data-dir", dir, "--force"])
    #expect(forced.status == 0)
    #expect(text(dir + "/identity.json") == ExportAntTests.identity(Golden.swarmPrivateKey))
  }

  @Test func aForeignLibp2pKeypairIsReported() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let other = String(repeating: "11", count: 32)
    _ = try fixture.file(
      "ant/identity.json",
      "{\"signing_key\":\"\(Golden.swarmPrivateKey)\",\"overlay_nonce\":\"\(Self.zeros)\","
        + "\"libp2p_keypair\":\"08021220\(other)\"}")
    let verify = try fixture.run(["verify", "--ant-dir", dir])
    #expect(verify.status == 3)
    #expect(verify.stdout.contains("libp2p_keypair holds the key of 16Uiu2HA"))
    #expect(verify.stdout.contains("Ant derives from the signing key"))
    // Ant's own layout with the derived key is fine.
    _ = try fixture.file(
      "ant/identity.json",
      "{\n  \"signing_key\": \"\(Golden.swarmPrivateKey)\",\n  \"overlay_nonce\": \"\(Self.zeros)\",\n"
        + "  \"libp2p_keypair\": \"08021220\(Golden.swarmPrivateKey)\"\n}")
    #expect(try fixture.run(["verify", "--ant-dir", dir]).status == 0)
  }
}

import Foundation
import Testing

@Suite("export ant")
struct ExportAntTests {
  static func identity(_ signingKey: String) -> String {
    """
    {
      "signing_key": "\(signingKey)",
      "overlay_nonce": "\(String(repeating: "0", count: 64))"
    }

    """
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
      run.stderr
        == "freedom-keys: error: permission denied for \(dir)/identity.json; check the owner and "
        + "permissions of its directory\n")
    #expect(tree(dir) == [])
  }
}

import Foundation
import Testing

@Suite("verify")
struct VerifyTests {
  /// bee, kubo, Radicle and Ant directories exported from one mnemonic.
  struct Nodes {
    let bee: String
    let kubo: String
    let radicle: String
    let ant: String

    var arguments: [String] {
      ["--bee-dir", bee, "--kubo-repo", kubo, "--radicle-home", radicle, "--ant-dir", ant]
    }
  }

  func export(_ fixture: ExportFixture, other: Bool = false) throws -> Nodes {
    let nodes = Nodes(
      bee: fixture.path("bee"), kubo: fixture.path("ipfs"), radicle: fixture.path("radicle"),
      ant: fixture.path("ant"))
    try makeDirectory(nodes.kubo)
    _ = try fixture.file("ipfs/config", "{\"Identity\": {}, \"Bootstrap\": []}\n")
    for arguments in [
      ["export", "bee", "--data-dir", nodes.bee, "--scrypt-n", "1024"],
      ["export", "kubo", "--repo", nodes.kubo], ["export", "radicle", "--home", nodes.radicle],
      ["export", "ant", "--data-dir", nodes.ant],
    ] {
      #expect(try fixture.run(arguments, other: other).status == 0)
    }
    return nodes
  }

  @Test func everythingMatches() throws {
    let fixture = try ExportFixture()
    let nodes = try export(fixture)
    let run = try fixture.run(
      ["verify", "--password-file", nodes.bee + "/password"] + nodes.arguments)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        bee      match     \(Golden.swarmAddress) (decrypted with the password)
        kubo     match     \(Golden.peerID)
        radicle  match     \(Golden.radicleDID)
        ant      match     \(Golden.swarmAddress)

        """)
  }

  @Test func everythingMatchesAsJSON() throws {
    let fixture = try ExportFixture()
    let nodes = try export(fixture)
    let run = try fixture.run(
      ["verify", "--json", "--password-file", nodes.bee + "/password"] + nodes.arguments)
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        {
          "bee": {
            "status": "match",
            "expected": "\(Golden.swarmAddress)",
            "found": "\(Golden.swarmAddress)",
            "path": "\(nodes.bee)/keys/swarm.key",
            "authenticated": true
          },
          "kubo": {
            "status": "match",
            "expected": "\(Golden.peerID)",
            "found": "\(Golden.peerID)",
            "path": "\(nodes.kubo)/config"
          },
          "radicle": {
            "status": "match",
            "expected": "\(Golden.radicleDID)",
            "found": "\(Golden.radicleDID)",
            "path": "\(nodes.radicle)/keys/radicle"
          },
          "ant": {
            "status": "match",
            "expected": "\(Golden.swarmAddress)",
            "found": "\(Golden.swarmAddress)",
            "path": "\(nodes.ant)/identity.json",
            "nonce": "zero",
            "overlay": "\(Golden.swarmOverlay)",
            "acceptedBy": [
              "antd",
              "antLibrary"
            ]
          },
          "ok": true
        }

        """)
  }

  @Test func anotherMnemonicsNodesMismatch() throws {
    let fixture = try ExportFixture()
    let nodes = try export(fixture, other: true)
    let run = try fixture.run(
      ["verify", "--password-file", nodes.bee + "/password"] + nodes.arguments)
    #expect(run.status == 3)
    #expect(
      run.stdout == """
        bee      MISMATCH  expected \(Golden.swarmAddress), found \(Golden.otherSwarmAddress)
        kubo     MISMATCH  expected \(Golden.peerID), found \(Golden.otherPeerID)
        radicle  MISMATCH  expected \(Golden.radicleDID), found \(Golden.otherRadicleDID)
        ant      MISMATCH  expected \(Golden.swarmAddress), found \(Golden.otherSwarmAddress)

        """)
    #expect(
      run.stderr
        == "freedom-keys: hint: the keys found are of another identity; if this mnemonic was used "
        + "with a BIP-39 passphrase, give it with --passphrase-file PATH (- to type it)\n"
        + "freedom-keys: error: bee, kubo, radicle, ant do not hold the mnemonic's identity\n")
  }

  @Test func addressOnlyCheckIsUnauthenticated() throws {
    let fixture = try ExportFixture()
    let nodes = try export(fixture)
    let run = try fixture.run(["verify", "--bee-dir", nodes.bee])
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "bee  match     \(Golden.swarmAddress) (address field only, unauthenticated; "
        + "--password-file decrypts the key)\n")
    let json = try fixture.run(["verify", "--bee-dir", nodes.bee, "--json"])
    #expect(json.stdout.contains("\"authenticated\": false\n"))

    let otherFixture = try ExportFixture()
    let other = try export(otherFixture, other: true)
    let mismatch = try fixture.run(["verify", "--bee-dir", other.bee])
    #expect(mismatch.status == 3)
    #expect(
      mismatch.stdout
        == "bee  MISMATCH  expected \(Golden.swarmAddress), found \(Golden.otherSwarmAddress) "
        + "(address field only, unauthenticated)\n")
    withExtendedLifetime(otherFixture) {}
  }

  @Test func nothingExportedIsNotPresent() throws {
    let fixture = try ExportFixture()
    for name in ["bee", "ipfs", "radicle", "ant"] { try makeDirectory(fixture.path(name)) }
    let nodes = Nodes(
      bee: fixture.path("bee"), kubo: fixture.path("ipfs"), radicle: fixture.path("radicle"),
      ant: fixture.path("ant"))
    let run = try fixture.run(["verify"] + nodes.arguments)
    #expect(run.status == 3)
    #expect(
      run.stdout == """
        bee      not present (\(nodes.bee)/keys/swarm.key)
        kubo     not present (\(nodes.kubo)/config)
        radicle  not present (\(nodes.radicle)/keys/radicle)
        ant      not present (\(nodes.ant)/identity.json)

        """)
    let json = try fixture.run(["verify", "--json", "--ant-dir", nodes.ant])
    #expect(json.status == 3)
    #expect(
      json.stdout == """
        {
          "ant": {
            "status": "absent",
            "expected": "\(Golden.swarmAddress)",
            "path": "\(nodes.ant)/identity.json"
          },
          "ok": false
        }

        """)
  }

  @Test func halfARadicleKeyIsAMismatch() throws {
    let fixture = try ExportFixture()
    let nodes = try export(fixture)
    try FileManager.default.removeItem(atPath: nodes.radicle + "/keys/radicle.pub")
    let run = try fixture.run(["verify", "--radicle-home", nodes.radicle])
    #expect(run.status == 3)
    #expect(
      run.stdout
        == "radicle  MISMATCH  expected \(Golden.radicleDID), found \(Golden.radicleDID) in "
        + "keys/radicle, no key in keys/radicle.pub\n")
  }

  @Test func wrongPasswordIsAnError() throws {
    let fixture = try ExportFixture()
    let nodes = try export(fixture)
    let wrong = try fixture.file("wrong", "not the password\n")
    let run = try fixture.run(
      ["verify", "--password-file", wrong] + nodes.arguments)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: wrong password for \(nodes.bee)/keys/swarm.key: its MAC does not match\n"
    )
  }

  @Test func unreadableFilesAreErrors() throws {
    let fixture = try ExportFixture()
    let nodes = try export(fixture)
    _ = try fixture.file("ant/identity.json", "{\"signing_key\": \"zz\"}")
    let run = try fixture.run(["verify"] + nodes.arguments)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix("freedom-keys: error: \(nodes.ant)/identity.json cannot be read: "))

    let padded = try ExportRadicleTests.desktopPaddedKey(fixture)
    let desktop = try fixture.run(["verify", "--radicle-home", padded])
    #expect(desktop.status == 1)
    #expect(desktop.stderr.contains("whole 8-byte block of padding"))

    let missing = try fixture.run(["verify", "--ant-dir", fixture.path("nowhere")])
    #expect(missing.status == 1)
    #expect(
      missing.stderr
        == "freedom-keys: error: \(fixture.path("nowhere")) does not exist; check the directory\n")
  }

  @Test(arguments: [
    (
      [] as [String],
      "give at least one of --bee-dir, --kubo-repo, --radicle-home, --ant-dir, --antd-dir, "
        + "--freedom-dir"
    ),
    (
      ["--ant-dir", "a", "--password-file", "p"],
      "--password-file <path> only applies with --bee-dir <dir>"
    ),
    (
      ["--bee-dir", "b", "--password-file", "-"],
      "--password-file and --mnemonic-file cannot both read standard input"
    ),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = try CLI.run(["verify", "--mnemonic-file", "-"] + arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "freedom-keys: error: \(message) (see 'freedom-keys verify --help')\n")
  }
}

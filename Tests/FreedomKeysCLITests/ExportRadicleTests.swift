import Foundation
import Testing

@Suite("export radicle")
struct ExportRadicleTests {
  @Test func keysThatSshKeygenReads() throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    let run = try fixture.run(["export", "radicle", "--home", home])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Wrote \(home)/keys/radicle: the Radicle key \(Golden.radicleDID) (mode 0600)
        Wrote \(home)/keys/radicle.pub: its public key (mode 0644)
        SSH fingerprint: \(Golden.radicleFingerprint)
        Check it with: RAD_HOME=\(home) rad self

        """)
    #expect(tree(home) == ["keys", "keys/radicle", "keys/radicle.pub"])
    #expect(fileMode(home) == 0o700)
    #expect(fileMode(home + "/keys") == 0o700)
    #expect(fileMode(home + "/keys/radicle") == 0o600)
    #expect(fileMode(home + "/keys/radicle.pub") == 0o644)
    #expect(text(home + "/keys/radicle.pub") == Golden.radiclePublicKey + " freedom-keys\n")

    let sshKeygen = try #require(executable("ssh-keygen"), "ssh-keygen checks the key file")
    let publicKey = try runTool(sshKeygen, ["-y", "-f", home + "/keys/radicle"])
    #expect(publicKey.status == 0)
    #expect(
      publicKey.stdout.split(separator: " ").prefix(2).joined(separator: " ")
        == Golden.radiclePublicKey)
    let fingerprint = try runTool(sshKeygen, ["-l", "-f", home + "/keys/radicle"])
    #expect(fingerprint.status == 0)
    #expect(fingerprint.stdout == "256 \(Golden.radicleFingerprint) freedom-keys (ED25519)\n")
  }

  @Test func sameBytesOnEveryExport() throws {
    let fixture = try ExportFixture()
    for home in ["a", "b"] {
      #expect(try fixture.run(["export", "radicle", "--home", fixture.path(home)]).status == 0)
    }
    let first = try #require(contents(fixture.path("a/keys/radicle")))
    #expect(first.count == 399)
    #expect(contents(fixture.path("b/keys/radicle")) == first)
    #expect(
      contents(fixture.path("b/keys/radicle.pub")) == contents(fixture.path("a/keys/radicle.pub")))
  }

  @Test func repeatedExportChangesNothing() throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    #expect(try fixture.run(["export", "radicle", "--home", home, "--alias", "alice"]).status == 0)
    let before = tree(home).map { contents(home + "/" + $0) }
    let again = try fixture.run(["export", "radicle", "--home", home, "--alias", "alice"])
    #expect(again.status == 0)
    #expect(
      again.stdout == """
        \(home)/keys/radicle already holds the Radicle key \(Golden.radicleDID); nothing to do
        \(home)/keys/radicle.pub already holds its public key; nothing to do
        \(home)/config.json already holds the alias; nothing to do
        SSH fingerprint: \(Golden.radicleFingerprint)

        """)
    #expect(tree(home).map { contents(home + "/" + $0) } == before)
  }

  @Test func aliasIsTheCommentAndANewConfig() throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    let run = try fixture.run(["export", "radicle", "--home", home, "--alias", "alice"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("Set node.alias to \"alice\" in \(home)/config.json\n"))
    #expect(text(home + "/config.json") == "{\n  \"node\": {\n    \"alias\": \"alice\"\n  }\n}\n")
    #expect(fileMode(home + "/config.json") == 0o644)
    #expect(text(home + "/keys/radicle.pub") == Golden.radiclePublicKey + " alice\n")
    let sshKeygen = try #require(executable("ssh-keygen"))
    #expect(
      try runTool(sshKeygen, ["-l", "-f", home + "/keys/radicle"]).stdout
        == "256 \(Golden.radicleFingerprint) alice (ED25519)\n")
  }

  static let radConfig = """
    {
      "publicExplorer": "https://app.radicle.xyz/nodes/$host/$rid$path",
      "preferredSeeds": [
        "z6MkrLMMsiPWUcNPHcRajuMi9mDfYckSoJyPwwnknocNYPm7@seed.radicle.garden:8776"
      ],
      "web": {
        "pinned": {
          "repositories": []
        }
      },
      "cli": {
        "hints": false
      },
      "node": {
        "alias": "old",
        "listen": [],
        "peers": {
          "type": "dynamic",
          "target": 8
        },
        "network": "main",
        "relay": "auto",
        "limits": {"routingMaxSize": 1000, "gossipMaxAge": 1209600}
      }
    }

    """

  @Test(arguments: [
    (radConfig, radConfig.replacingOccurrences(of: "\"old\"", with: "\"alice\"")),
    (
      "{\n  \"publicExplorer\": \"x\",\n  \"cli\": {\"hints\": true}\n}\n",
      "{\n  \"node\": {\"alias\": \"alice\"},\n  \"publicExplorer\": \"x\",\n  \"cli\": {\"hints\": true}\n}\n"
    ),
    (
      "{\n  \"node\": {\n    \"listen\": []\n  }\n}\n",
      "{\n  \"node\": {\n    \"alias\": \"alice\",\n    \"listen\": []\n  }\n}\n"
    ),
    ("{\n  \"node\": {}\n}\n", "{\n  \"node\": {\n    \"alias\": \"alice\"\n  }\n}\n"),
    ("{\"node\":{\"alias\":\"a\\u006c\"}}", "{\"node\":{\"alias\":\"alice\"}}"),
    ("{}", "{ \"node\": {\"alias\": \"alice\"} }"),
  ])
  func aliasChangesOnlyTheAlias(before: String, after: String) throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    try makeDirectory(home)
    _ = try fixture.file("radicle/config.json", before)
    #expect(chmod(home + "/config.json", 0o640) == 0)
    let run = try fixture.run(["export", "radicle", "--home", home, "--alias", "alice"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(text(home + "/config.json") == after)
    #expect(fileMode(home + "/config.json") == 0o640)
  }

  @Test(arguments: [
    "{\"node\": \"alice\"}", "{\"node\": {\"alias\": 5}}", "[1]", "{\"node\": {}", "not json",
    "{\"node\": {}, \"node\": {}}",
  ])
  func configThatCannotBeEditedStopsEverything(config: String) throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    try makeDirectory(home)
    _ = try fixture.file("radicle/config.json", config)
    let run = try fixture.run(["export", "radicle", "--home", home, "--alias", "alice", "--force"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix("freedom-keys: error: cannot set the alias in \(home)/config.json: "))
    #expect(tree(home) == ["config.json"])
    #expect(text(home + "/config.json") == config)
  }

  @Test(arguments: [
    ("john doe", "the alias cannot contain whitespace or control characters"),
    ("", "the alias cannot be empty"),
    (String(repeating: "a", count: 33), "the alias cannot be longer than 32 bytes"),
    (String(repeating: "é", count: 17), "the alias cannot be longer than 32 bytes"),
    ("tab\there", "the alias cannot contain whitespace or control characters"),
  ])
  func aliasRadicleWouldRefuse(alias: String, problem: String) throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    let run = try fixture.run(["export", "radicle", "--home", home, "--alias=\(alias)"])
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "freedom-keys: error: invalid --alias: \(problem) (see 'freedom-keys export radicle --help')\n"
    )
    #expect(fileMode(home) == nil)
  }

  @Test func longestAliasIsAccepted() throws {
    let fixture = try ExportFixture()
    let alias = String(repeating: "é", count: 16)
    let run = try fixture.run(["export", "radicle", "--home", fixture.path("r"), "--alias", alias])
    #expect(run.status == 0)
  }

  @Test func anotherIdentityIsReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    #expect(try fixture.run(["export", "radicle", "--home", home], other: true).status == 0)
    let before = tree(home).map { contents(home + "/" + $0) }
    let refused = try fixture.run(["export", "radicle", "--home", home, "--alias", "alice"])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr
        == "freedom-keys: error: \(home)/keys/radicle holds the key \(Golden.otherRadicleDID), "
        + "not the mnemonic's \(Golden.radicleDID); nothing was written (--force replaces it)\n")
    #expect(tree(home) == ["keys", "keys/radicle", "keys/radicle.pub"])
    #expect(tree(home).map { contents(home + "/" + $0) } == before)

    let forced = try fixture.run(["export", "radicle", "--home", home, "--force"])
    #expect(forced.status == 0)
    #expect(text(home + "/keys/radicle.pub") == Golden.radiclePublicKey + " freedom-keys\n")
    let fresh = try ExportFixture()
    #expect(try fresh.run(["export", "radicle", "--home", fresh.path("r")]).status == 0)
    #expect(contents(home + "/keys/radicle") == contents(fresh.path("r/keys/radicle")))
  }

  /// The key with comment `abcde` as older desktop Freedom wrote it: a whole block of padding
  /// (01…08) when the comment length is 5 mod 8.
  static func desktopPaddedKey(_ fixture: ExportFixture) throws -> String {
    let home = fixture.path("desktop")
    #expect(try fixture.run(["export", "radicle", "--home", home, "--alias", "abcde"]).status == 0)
    let pem = try #require(text(home + "/keys/radicle"))
    let body = pem.split(separator: "\n").dropFirst().dropLast().joined()
    var binary = [UInt8](try #require(Data(base64Encoded: body)))
    // magic (15) ‖ "none" (8) ‖ "none" (8) ‖ "" (4) ‖ 1 (4) ‖ public key blob (4 + 51).
    let lengthOffset = 94
    let length = binary[lengthOffset..<lengthOffset + 4].reduce(0) { $0 << 8 | Int($1) }
    #expect(length == 136)
    #expect(binary.count == lengthOffset + 4 + length)
    binary += [1, 2, 3, 4, 5, 6, 7, 8]
    binary[lengthOffset + 3] = UInt8(length + 8)
    let encoded = Data(binary).base64EncodedString()
    let lines = stride(from: 0, to: encoded.count, by: 70).map {
      let start = encoded.index(encoded.startIndex, offsetBy: $0)
      return String(encoded[start..<encoded.index(start, offsetBy: min(70, encoded.count - $0))])
    }
    let padded =
      "-----BEGIN OPENSSH PRIVATE KEY-----\n" + lines.joined(separator: "\n")
      + "\n-----END OPENSSH PRIVATE KEY-----\n"
    try Data(padded.utf8).write(to: URL(fileURLWithPath: home + "/keys/radicle"))
    return home
  }

  @Test func desktopFreedomPaddingIsReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let home = try Self.desktopPaddedKey(fixture)
    // OpenSSH itself tolerates the extra block; Radicle's parser does not.
    let sshKeygen = try #require(executable("ssh-keygen"))
    #expect(try runTool(sshKeygen, ["-l", "-f", home + "/keys/radicle"]).status == 0)
    let before = contents(home + "/keys/radicle")
    let refused = try fixture.run(["export", "radicle", "--home", home, "--alias", "abcde"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("whole 8-byte block of padding"))
    #expect(contents(home + "/keys/radicle") == before)

    let forced = try fixture.run([
      "export", "radicle", "--home", home, "--alias", "abcde", "--force",
    ])
    #expect(forced.status == 0)
    #expect(
      forced.stdout.contains("Wrote \(home)/keys/radicle: the Radicle key \(Golden.radicleDID)"))
    #expect(contents(home + "/keys/radicle")?.count == 387)
    #expect(try runTool(sshKeygen, ["-l", "-f", home + "/keys/radicle"]).status == 0)
  }
}

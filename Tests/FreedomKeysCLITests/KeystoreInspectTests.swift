import Foundation
import Testing

/// `keystore inspect` on the published keystores of Tests/GoldenVectors/Vectors/
/// web3-secret-storage.json (the spec's scrypt and PBKDF2 vectors and swarm-cli's bee-format
/// TestIdentity), read from the source tree.
@Suite("keystore inspect")
struct KeystoreInspectTests {
  struct Vector: Decodable {
    let id: String
    let password: String
    let privateKey: String
  }

  struct VectorFile: Decodable {
    let vectors: [Vector]
  }

  static let vectorsURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("GoldenVectors/Vectors/web3-secret-storage.json")

  /// Writes the vector's `keystore` object to a file, exactly as published.
  func keystoreFile(_ id: String, in fixture: ExportFixture) throws -> String {
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: Self.vectorsURL)) as? [String: Any])
    let vectors = try #require(root["vectors"] as? [[String: Any]])
    let vector = try #require(vectors.first { $0["id"] as? String == id })
    let keystore = try JSONSerialization.data(withJSONObject: try #require(vector["keystore"]))
    return try fixture.directory.file(id + ".json", keystore)
  }

  func password(_ id: String) throws -> String {
    let file = try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: Self.vectorsURL))
    return try #require(file.vectors.first { $0.id == id }).password
  }

  static let specAddress = "0x008AeEda4D805471dF9b2A5B0f38A0C3bCBA786b"
  static let swarmCLIAddress = "0x839b825c908ffF5E4B51d97893F2Fe64422f8978"

  @Test func swarmCLIIdentityWithoutPassword() throws {
    let fixture = try ExportFixture()
    let path = try keystoreFile("swarm-cli-TestIdentity", in: fixture)
    let run = try CLI.run(["keystore", "inspect", path])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Address         \(Self.swarmCLIAddress)
        ID              7d594abd-494f-4fc0-b9cb-9740af4c4ab0
        Cipher          aes-128-ctr
        KDF             scrypt
        KDF parameters  n=262144 (2^18), r=8, p=1
        Salt            42015f76768a12e3a4cfa66ca7e00ed1942f90554a13a8d94e7086d5b8568e94
        Password        not checked (--password-file checks it)

        """)
  }

  @Test func swarmCLIIdentityWithPassword() throws {
    let fixture = try ExportFixture()
    let path = try keystoreFile("swarm-cli-TestIdentity", in: fixture)
    let passwordFile = try fixture.file("password", try password("swarm-cli-TestIdentity") + "\n")
    let run = try CLI.run(["keystore", "inspect", path, "--password-file", passwordFile, "--json"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        {
          "address": "\(Self.swarmCLIAddress)",
          "id": "7d594abd-494f-4fc0-b9cb-9740af4c4ab0",
          "cipher": "aes-128-ctr",
          "kdf": "scrypt",
          "kdfparams": {
            "n": 262144,
            "r": 8,
            "p": 1,
            "dklen": 32,
            "salt": "42015f76768a12e3a4cfa66ca7e00ed1942f90554a13a8d94e7086d5b8568e94"
          },
          "passwordChecked": true,
          "keyAddress": "\(Self.swarmCLIAddress)",
          "addressMatches": true
        }

        """)
  }

  @Test(arguments: ["web3-secret-storage-scrypt", "web3-secret-storage-pbkdf2"])
  func specVectorsWithPassword(id: String) throws {
    let fixture = try ExportFixture()
    let path = try keystoreFile(id, in: fixture)
    let passwordFile = try fixture.file("password", try password(id))
    let run = try CLI.run(["keystore", "inspect", path, "--password-file", passwordFile])
    #expect(run.status == 0)
    let parameters =
      id.hasSuffix("scrypt") ? "n=262144 (2^18), r=1, p=8" : "prf=hmac-sha256, c=262144"
    let salt =
      id.hasSuffix("scrypt")
      ? "ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19"
      : "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd"
    #expect(
      run.stdout == """
        Address         (none stated)
        ID              3198bc9c-6672-5ab3-d995-4942343ae5b6
        Cipher          aes-128-ctr
        KDF             \(id.hasSuffix("scrypt") ? "scrypt" : "pbkdf2")
        KDF parameters  \(parameters)
        Salt            \(salt)
        Password        correct (the MAC matches)
        Key address     \(Self.specAddress)

        """)
    // The private key is never printed.
    let secret = "7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d"
    #expect(!run.stdout.lowercased().contains(secret))
  }

  @Test func wrongPassword() throws {
    let fixture = try ExportFixture()
    let path = try keystoreFile("web3-secret-storage-pbkdf2", in: fixture)
    let passwordFile = try fixture.file("password", "wrongpassword")
    let run = try CLI.run(["keystore", "inspect", path, "--password-file", passwordFile])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr == "freedom-keys: error: wrong password for \(path): its MAC does not match\n")
  }

  @Test func exportedSwarmKey() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", dir]).status == 0)
    let run = try CLI.run([
      "keystore", "inspect", dir + "/keys/swarm.key", "--password-file", dir + "/password",
    ])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("Address         \(Golden.swarmAddress)\n"))
    #expect(run.stdout.contains("KDF parameters  n=32768 (2^15), r=8, p=1\n"))
    #expect(
      run.stdout.hasSuffix(
        "Key address     \(Golden.swarmAddress)\n                the same as the file's address\n"))
  }

  @Test func fileThatIsNotAKeystore() throws {
    let fixture = try ExportFixture()
    let path = try fixture.file("notes.json", "{\"version\": 3}")
    let run = try CLI.run(["keystore", "inspect", path])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: \(path): the key file has no 'crypto' field; it is not a v3 keystore\n"
    )
    let missing = try CLI.run(["keystore", "inspect", fixture.path("none.json")])
    #expect(missing.status == 1)
    #expect(missing.stderr == "freedom-keys: error: \(fixture.path("none.json")) does not exist\n")
  }

  @Test(arguments: [
    ([] as [String], "missing <file>"), (["a", "b"], "unexpected argument 'b'"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = try CLI.run(["keystore", "inspect"] + arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr == "freedom-keys: error: \(message) (see 'freedom-keys keystore inspect --help')\n"
    )
  }

  @Test func help() throws {
    let run = try CLI.run(["keystore", "inspect", "--help"])
    #expect(run.status == 0)
    #expect(
      run.stdout.hasPrefix(
        """
        OVERVIEW: Print a keystore's address and KDF; with a password, check it.

        USAGE: freedom-keys keystore inspect [<options>] <file>

        ARGUMENTS:
          <file>                  The key file (JSON).

        OPTIONS:
          --password-file <path>  Check the MAC with the password in <path>.
          --json                  Print JSON instead of a summary.
          -h, --help              Show help information.

        """))
  }
}

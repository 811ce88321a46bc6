import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

@Suite("export bee")
struct ExportBeeTests {
  /// What bee keeps for an identity besides swarm.key.
  static let state = [
    "keys/libp2p_v2.key", "keys/pss.key", "statestore", "localstore", "kademlia-metrics",
    "stamperstore",
  ]

  /// The private key in `path`, decrypted with the library.
  func decrypt(_ path: String, password: String) throws -> String {
    let keystore = try Web3Keystore(json: try #require(contents(path)))
    return try keystore.decrypt(password: SecureBytes(utf8: password)).rawRepresentation.revealHex()
  }

  /// The keystore's JSON as a dictionary.
  func fields(_ path: String) throws -> [String: Any] {
    let data = Data(try #require(contents(path)))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func newKeyWithGeneratedPassword() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    let run = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Wrote \(dir)/keys/swarm.key: Swarm key \(Golden.swarmAddress) (scrypt n=32768, mode 0600)
        Wrote \(dir)/password: a new random password (mode 0600)
        Start bee with: bee start --data-dir \(dir) --password-file \(dir)/password
        Overlay with nonce 0 on mainnet: \(Golden.swarmOverlay)
        On mainnet bee may mine another overlay nonce (its neighbourhood suggester);
        the overlay then differs from the one above.

        """)
    #expect(tree(dir) == ["keys", "keys/swarm.key", "password"])
    #expect(fileMode(dir) == 0o700)
    #expect(fileMode(dir + "/keys") == 0o700)
    #expect(fileMode(dir + "/keys/swarm.key") == 0o600)
    #expect(fileMode(dir + "/password") == 0o600)

    let passwordFile = try #require(text(dir + "/password"))
    #expect(passwordFile.count == 65)
    #expect(passwordFile.hasSuffix("\n"))
    let password = String(passwordFile.dropLast())
    #expect(password.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(try decrypt(dir + "/keys/swarm.key", password: password) == Golden.swarmPrivateKey)

    // bee's layout, not desktop Freedom's: lowercase "crypto", numeric version, n = 2^15.
    let json = try fields(dir + "/keys/swarm.key")
    #expect(Set(json.keys) == ["address", "crypto", "version", "id"])
    #expect(json["address"] as? String == Golden.swarmAddress.dropFirst(2).lowercased())
    #expect(json["version"] as? Int == 3)
    let crypto = try #require(json["crypto"] as? [String: Any])
    #expect(crypto["kdf"] as? String == "scrypt")
    let parameters = try #require(crypto["kdfparams"] as? [String: Any])
    #expect(parameters["n"] as? Int == 32768)
    #expect(parameters["r"] as? Int == 8)
    #expect(parameters["p"] as? Int == 1)
    #expect(parameters["dklen"] as? Int == 32)
  }

  @Test func passwordFileIsReadAsBeeReadsIt() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    // bee trims every leading and trailing "\n" and nothing else.
    let passwordPath = try fixture.file("password.txt", "\n\n  s3cret \r\n\n")
    let run = try fixture.run([
      "export", "bee", "--data-dir", dir, "--password-file", passwordPath, "--scrypt-n", "1024",
    ])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout.contains("(scrypt n=1024, mode 0600)\n"))
    #expect(
      run.stdout.contains(
        "Start bee with: bee start --data-dir \(dir) --password-file \(passwordPath)\n"))
    #expect(!run.stdout.contains("random password"))
    #expect(tree(dir) == ["keys", "keys/swarm.key"])
    #expect(try decrypt(dir + "/keys/swarm.key", password: "  s3cret \r") == Golden.swarmPrivateKey)
    let parameters = try fields(dir + "/keys/swarm.key")["crypto"].flatMap {
      ($0 as? [String: Any])?["kdfparams"] as? [String: Any]
    }
    #expect(parameters?["n"] as? Int == 1024)
  }

  @Test func gethCost() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    let password = try fixture.file("pw", "pw\n")
    let run = try fixture.run([
      "export", "bee", "--data-dir", dir, "--password-file", password, "--scrypt-n", "262144",
    ])
    #expect(run.status == 0)
    #expect(run.stdout.contains("(scrypt n=262144, mode 0600)\n"))
    #expect(try decrypt(dir + "/keys/swarm.key", password: "pw") == Golden.swarmPrivateKey)
  }

  @Test(arguments: ["1000", "100000", "512", "8388608", "4194304", "2097152", "0x8000", "-1"])
  func scryptCostMustBeAPowerOfTwoInRange(cost: String) throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    let run = try fixture.run(["export", "bee", "--data-dir", dir, "--scrypt-n=\(cost)"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("--scrypt-n <n> must be"))
    #expect(fileMode(dir) == nil)
  }

  @Test func emptyOrMissingPasswordFileWritesNothing() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    let empty = try fixture.file("empty", "\n\n")
    for (path, message) in [
      (empty, "password file '\(empty)' is empty"),
      (fixture.path("missing"), "cannot read password file '\(fixture.path("missing"))'"),
    ] {
      let run = try fixture.run(["export", "bee", "--data-dir", dir, "--password-file", path])
      #expect(run.status == 1)
      #expect(run.stdout == "")
      #expect(run.stderr.hasPrefix("freedom-keys: error: \(message)"))
      #expect(fileMode(dir) == nil)
    }
  }

  @Test func byteOrderMarkInPasswordFileIsRefused() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    let path = try fixture.directory.file("bom", Data([0xEF, 0xBB, 0xBF] + Array("pw".utf8)))
    let run = try fixture.run(["export", "bee", "--data-dir", dir, "--password-file", path])
    #expect(run.status == 1)
    #expect(run.stderr.contains("byte order mark"))
    #expect(fileMode(dir) == nil)
  }

  @Test func repeatedExportChangesNothing() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", dir]).status == 0)
    let key = contents(dir + "/keys/swarm.key")
    let password = contents(dir + "/password")
    let again = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(again.status == 0)
    #expect(again.stderr == "")
    #expect(
      again.stdout
        == "\(dir)/keys/swarm.key already holds the Swarm key \(Golden.swarmAddress); nothing to do\n"
    )
    #expect(contents(dir + "/keys/swarm.key") == key)
    #expect(contents(dir + "/password") == password)

    // Nothing to do means DIR/password is not touched either, not even recreated.
    try FileManager.default.removeItem(atPath: dir + "/password")
    #expect(try fixture.run(["export", "bee", "--data-dir", dir]).status == 0)
    #expect(tree(dir) == ["keys", "keys/swarm.key"])
  }

  @Test func desktopFreedomKeyOfTheSameIdentityIsKeptWithAWarning() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", dir]).status == 0)
    // Desktop Freedom (ethers) writes "Crypto" and leaves the file readable by others.
    let path = dir + "/keys/swarm.key"
    let desktop = try #require(text(path)).replacingOccurrences(
      of: "\"crypto\"", with: "\"Crypto\"")
    try Data(desktop.utf8).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o644) == 0)
    let run = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(run.status == 0)
    #expect(
      run.stderr
        == "freedom-keys: warning: \(path) is accessible by other users (mode 0644); run chmod 600 \(path)\n"
    )
    #expect(run.stdout.hasSuffix("nothing to do\n"))
    #expect(text(path) == desktop)
    let verify = try fixture.run([
      "verify", "--bee-dir", dir, "--password-file", dir + "/password",
    ])
    #expect(verify.status == 0)
    #expect(
      verify.stdout.contains("match     \(Golden.swarmAddress) (decrypted with the password)"))
  }

  @Test func existingPasswordFileIsReused() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    try makeDirectory(dir)
    _ = try fixture.file("bee/password", "kept password\n")
    let run = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(run.status == 0)
    #expect(!run.stdout.contains("random password"))
    #expect(text(dir + "/password") == "kept password\n")
    #expect(
      try decrypt(dir + "/keys/swarm.key", password: "kept password") == Golden.swarmPrivateKey)
  }

  /// A bee directory holding the legal winner… identity and some of its state.
  func otherIdentity(_ fixture: ExportFixture) throws -> String {
    let dir = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", dir], other: true).status == 0)
    for name in ["statestore", "localstore", "kademlia-metrics", "stamperstore"] {
      try makeDirectory(dir + "/" + name)
      _ = try fixture.file("bee/\(name)/000001.log", "data")
    }
    _ = try fixture.file("bee/keys/libp2p_v2.key", "{}")
    _ = try fixture.file("bee/keys/pss.key", "{}")
    _ = try fixture.file("bee/keep.txt", "unrelated")
    return dir
  }

  @Test func anotherIdentityIsLeftAsItWas() throws {
    let fixture = try ExportFixture()
    let dir = try otherIdentity(fixture)
    let before = tree(dir).map { ($0, contents(dir + "/" + $0)) }
    let run = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: \(dir)/keys/swarm.key holds the key of \(Golden.otherSwarmAddress), "
        + "not the mnemonic's \(Golden.swarmAddress); nothing was written (--force replaces it)\n")
    let after = tree(dir).map { ($0, contents(dir + "/" + $0)) }
    #expect(after.map(\.0) == before.map(\.0))
    #expect(after.map(\.1) == before.map(\.1))
  }

  @Test func forceReplacesTheKeyAndRemovesTheOldState() throws {
    let fixture = try ExportFixture()
    let dir = try otherIdentity(fixture)
    let password = try #require(text(dir + "/password"))
    let run = try fixture.run(["export", "bee", "--data-dir", dir, "--force"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    // The old identity's key and state are kept aside, not deleted (issue 16).
    let backupPath = try #require(backup(in: dir).path)
    #expect(backupPath.hasSuffix("Z-" + Golden.otherSwarmAddress))
    let moved = (Self.state.filter { !$0.hasPrefix("keys/") } + ["keys"]).joined(separator: ", ")
    #expect(
      run.stdout.hasPrefix(
        """
        Wrote \(dir)/keys/swarm.key: Swarm key \(Golden.swarmAddress) (scrypt n=32768, mode 0600)
        Replaced the key of \(Golden.otherSwarmAddress)
        Kept what it replaced in \(backupPath): \(moved); delete that directory once you no longer need it: rm -r \(backupPath)
        Start bee with: bee start --data-dir \(dir) --password-file \(dir)/password

        """), "\(run.stdout)")
    for name in Self.state {
      #expect(FileManager.default.fileExists(atPath: backupPath + "/" + name))
    }
    #expect(backup(in: dir).rest == ["keep.txt", "keys", "keys/swarm.key", "password"])
    #expect(text(dir + "/password") == password)
    let kept = String(password.dropLast())
    #expect(try decrypt(dir + "/keys/swarm.key", password: kept) == Golden.swarmPrivateKey)
  }

  @Test func readOnlyDirectoryFailsCleanly() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    try makeDirectory(dir)
    let restore = try makeReadOnlyDirectory(dir)
    defer { restore() }
    let run = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "freedom-keys: error: permission denied: could not create the lock file "
          + "\(dir)/.freedom-keys.lock; "))
    #expect(tree(dir) == [])
  }

  @Test func readOnlyKeysDirectoryLeavesNoPasswordBehind() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    try makeDirectory(dir + "/keys")
    let restore = try makeReadOnlyDirectory(dir + "/keys")
    defer { restore() }
    let run = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("freedom-keys: error: permission denied: could not swap "))
    #expect(run.stderr.hasSuffix("; nothing in \(dir) was changed\n"))
    // The password file was put in place first; it is removed again with the failed export.
    #expect(tree(dir) == ["keys"])
  }

  @Test func pathThroughARegularFileFails() throws {
    let fixture = try ExportFixture()
    let file = try fixture.file("plain", "not a directory")
    let run = try fixture.run(["export", "bee", "--data-dir", file + "/bee"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(text(file) == "not a directory")
    let direct = try fixture.run(["export", "bee", "--data-dir", file])
    #expect(direct.status == 1)
    #expect(direct.stderr == "freedom-keys: error: \(file) is not a directory\n")
  }

  @Test func unreadableKeyIsReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    try makeDirectory(dir + "/keys")
    _ = try fixture.file("bee/keys/swarm.key", "not json")
    let run = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("freedom-keys: error: \(dir)/keys/swarm.key cannot be read: "))
    #expect(run.stderr.hasSuffix("; nothing was written (--force replaces it)\n"))
    #expect(text(dir + "/keys/swarm.key") == "not json")
    let forced = try fixture.run(["export", "bee", "--data-dir", dir, "--force"])
    #expect(forced.status == 0)
    let password = String(try #require(text(dir + "/password")).dropLast())
    #expect(try decrypt(dir + "/keys/swarm.key", password: password) == Golden.swarmPrivateKey)
  }
}

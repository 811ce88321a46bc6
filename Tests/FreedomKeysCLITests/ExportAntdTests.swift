import Foundation
import Testing

/// `export antd`: desktop Freedom's ant-data, opened by config.yaml's password.
@Suite("export antd")
struct ExportAntdTests {
  static let desktopPassword = "3f1c2a9b8d7e6f5041322314a5b6c7d8e9f00112233445566778899aabbccdd"
  /// What desktop's ant-manager writes (buildAntConfigContent), with its password.
  static func desktopConfig(_ dir: String) -> String {
    """
    # Ant node configuration (bee-compatible keys)
    api-addr: 127.0.0.1:11633
    p2p-addr: :12633
    swap-enable: false
    mainnet: true
    full-node: false
    blockchain-rpc-endpoint: ""
    skip-postage-snapshot: true
    resolver-options: "https://ethereum.publicnode.com"
    storage-incentives-enable: false
    data-dir: \(dir)
    password: \(desktopPassword)

    """
  }

  /// `verify --bee-dir` with `password`: 0 when the keystore opens to the mnemonic's key.
  func opens(_ fixture: ExportFixture, _ dir: String, password: String) throws -> Bool {
    let file = try fixture.file("check-\(UUID().uuidString)", password)
    let run = try fixture.run(["verify", "--bee-dir", dir, "--password-file", file])
    return run.status == 0 && run.stdout.contains("decrypted with the password")
  }

  @Test func desktopsAntDataKeepsItsConfigAndLosesAntdsOwnIdentity() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant-data")
    try makeDirectory(dir)
    let config = try fixture.file("ant-data/config.yaml", Self.desktopConfig(dir))
    let before = contents(config)
    // antd's self-made identity of the same key (as if Freedom had started it once).
    #expect(try fixture.run(["export", "ant", "--data-dir", dir]).status == 0)
    _ = try fixture.file("ant-data/signing.key", Golden.swarmPrivateKey)

    let run = try fixture.run(["export", "antd", "--data-dir", dir])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Password: the one in \(dir)/config.yaml (kept)"))
    // antd's own identity is kept aside, not deleted (issue 16).
    let kept = try #require(backup(in: dir).path)
    #expect(
      run.stdout.contains(
        "Kept what it replaced in \(kept): identity.json, signing.key; delete that directory "
          + "once you no longer need it: rm -r \(kept)\n"))
    #expect(tree(kept) == ["identity.json", "signing.key"])
    #expect(text(kept + "/signing.key") == Golden.swarmPrivateKey)
    #expect(contents(config) == before)
    #expect(backup(in: dir).rest == ["config.yaml", "keys", "keys/swarm.key"])
    #expect(fileMode(dir + "/keys/swarm.key") == 0o600)
    #expect(try opens(fixture, dir, password: Self.desktopPassword))

    let again = try fixture.run(["export", "antd", "--data-dir", dir])
    #expect(again.status == 0)
    #expect(again.stdout.hasSuffix("opened by config.yaml's password; nothing to do\n"))
  }

  @Test func theBrokenNodeOfExportBeeIsRepaired() throws {
    // issue 10: `export bee --force` into ant-data wrote a new DIR/password, so the keystore
    // no longer opened with config.yaml's password and desktop's node failed the MAC.
    let fixture = try ExportFixture()
    let dir = fixture.path("ant-data")
    try makeDirectory(dir)
    let config = try fixture.file("ant-data/config.yaml", Self.desktopConfig(dir))
    #expect(
      try fixture.run(["export", "bee", "--data-dir", dir, "--scrypt-n", "1024"]).status == 0)
    #expect(try !opens(fixture, dir, password: Self.desktopPassword))

    let run = try fixture.run(["export", "antd", "--data-dir", dir])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("did not open with it"))
    #expect(try opens(fixture, dir, password: Self.desktopPassword))
    #expect(text(config) == Self.desktopConfig(dir))
  }

  @Test func withoutAConfigANewPasswordIsWrittenIntoANewConfig() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("antd")
    let run = try fixture.run(["export", "antd", "--data-dir", dir])
    #expect(run.status == 0, "\(run.stderr)")
    let config = try #require(text(dir + "/config.yaml"))
    #expect(config.hasPrefix("password: "))
    #expect(config.hasSuffix("\n"))
    let password = String(config.dropFirst("password: ".count).dropLast())
    #expect(password.count == 64)
    #expect(password.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(fileMode(dir + "/config.yaml") == 0o600)
    #expect(try opens(fixture, dir, password: password))
  }

  @Test func aGivenPasswordGoesIntoTheConfigKeepingEveryOtherLine() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("antd")
    try makeDirectory(dir)
    let original = "# mine\r\napi-addr: 127.0.0.1:1633   # keep me\r\nmainnet: true"
    _ = try fixture.file("antd/config.yaml", original)
    let passwordFile = try fixture.file("pw", "hunter2hunter2\r\n")
    let run = try fixture.run([
      "export", "antd", "--data-dir", dir, "--password-file", passwordFile,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(text(dir + "/config.yaml") == original + "\npassword: hunter2hunter2\n")
    #expect(try opens(fixture, dir, password: "hunter2hunter2"))

    // config.yaml's password now wins; another one given is refused, nothing changes.
    let other = try fixture.file("pw2", "something-else")
    let refused = try fixture.run(["export", "antd", "--data-dir", dir, "--password-file", other])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(refused.stderr.contains("holds another password than --password-file gives"))
  }

  @Test func anotherIdentityIsReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant-data")
    try makeDirectory(dir)
    _ = try fixture.file("ant-data/config.yaml", Self.desktopConfig(dir))
    #expect(try fixture.run(["export", "antd", "--data-dir", dir], other: true).status == 0)
    try makeDirectory(dir + "/statestore")
    let before = contents(dir + "/keys/swarm.key")
    let refused = try fixture.run(["export", "antd", "--data-dir", dir])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(refused.stderr.contains("holds the key of \(Golden.otherSwarmAddress)"))
    #expect(contents(dir + "/keys/swarm.key") == before)

    let forced = try fixture.run(["export", "antd", "--data-dir", dir, "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.stdout.contains("Replaced the key of \(Golden.otherSwarmAddress)"))
    // The old key and its state are kept aside, named by the time and the old address.
    let kept = try #require(backup(in: dir).path)
    #expect(kept.hasSuffix("Z-" + Golden.otherSwarmAddress))
    #expect(forced.stdout.contains("Kept what it replaced in \(kept): statestore, keys"))
    #expect(contents(kept + "/keys/swarm.key") == before)
    #expect(backup(in: dir).rest == ["config.yaml", "keys", "keys/swarm.key"])
    #expect(try opens(fixture, dir, password: Self.desktopPassword))
  }

  /// Issue 19: a FIFO named antd.lock hung `export antd` forever (an open for reading waits for
  /// a writer). Run under timeout(1), so the old behaviour fails instead of hanging the suite.
  @Test func aFIFONamedAntdLockIsRefusedWithoutWaiting() throws {
    guard let timeout = executable("timeout") else {
      print("skipped: no timeout(1)")
      return
    }
    let fixture = try ExportFixture()
    let dir = fixture.path("ant-data")
    try makeDirectory(dir)
    #expect(mkfifo(dir + "/antd.lock", 0o600) == 0)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: timeout)
    process.arguments = [
      "20", CLI.executable.path, "export", "antd", "--data-dir", dir, "--mnemonic-file",
      fixture.mnemonic,
    ]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1, "\(stderr)")
    #expect(stdout.isEmpty)
    #expect(stderr.contains("\(dir)/antd.lock is a FIFO, not antd's lock file"), "\(stderr)")
    #expect(tree(dir) == ["antd.lock"])
  }

  @Test func aRunningAntdIsNotTouched() throws {
    guard let flock = executable("flock") else {
      print("skipped: no flock(1) to hold antd.lock")
      return
    }
    let fixture = try ExportFixture()
    let dir = fixture.path("ant-data")
    try makeDirectory(dir)
    _ = try fixture.file("ant-data/antd.lock", "")
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: flock)
    holder.arguments = [dir + "/antd.lock", "sleep", "3"]
    try holder.run()
    defer {
      holder.terminate()
      holder.waitUntilExit()
    }
    Thread.sleep(forTimeInterval: 0.3)
    let run = try fixture.run(["export", "antd", "--data-dir", dir])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("antd is running on \(dir)"))
    #expect(tree(dir) == ["antd.lock"])
  }
}

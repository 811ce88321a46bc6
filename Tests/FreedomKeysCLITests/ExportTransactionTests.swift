import Dispatch
import Foundation
import Glibc
import Testing

/// Issue 8's reproducers 2–5: a failed, killed or concurrent export never leaves a node directory
/// half-changed, and what killed runs left is cleaned up by the next run.
@Suite("export: lock and transaction")
struct ExportTransactionTests {
  /// A bee data directory of abandon…about with the state bee keeps for it.
  static func beeWithState(_ fixture: ExportFixture) throws -> String {
    let dir = fixture.path("bee")
    let first = try fixture.run(["export", "bee", "--data-dir", dir, "--scrypt-n", "1024"])
    try #require(first.status == 0, "\(first.stderr)")
    _ = try fixture.file("bee/keys/libp2p_v2.key", "libp2p key of the old identity")
    _ = try fixture.file("bee/keys/pss.key", "pss key of the old identity")
    try makeDirectory(dir + "/statestore")
    _ = try fixture.file("bee/statestore/000001.log", "statestore of the old identity")
    try makeDirectory(dir + "/localstore")
    _ = try fixture.file("bee/localstore/sharky", "chunks of the old identity")
    return dir
  }

  /// Whether everything of the old bee identity is where bee looks for it.
  static func oldBeeIdentityIsWhole(_ dir: String) throws -> Bool {
    let verify = try CLI.run(
      [
        "verify", "--bee-dir", dir, "--password-file", dir + "/password", "--mnemonic-file", "-",
      ], stdin: Golden.mnemonic + "\n")
    return verify.status == 0
      && text(dir + "/keys/libp2p_v2.key") == "libp2p key of the old identity"
      && text(dir + "/keys/pss.key") == "pss key of the old identity"
      && text(dir + "/statestore/000001.log") == "statestore of the old identity"
      && text(dir + "/localstore/sharky") == "chunks of the old identity"
  }

  /// `chattr -R -i`: what a user does after noticing an immutable file.
  func clearImmutable(_ path: String) {
    if let chattr = executable("chattr") { _ = try? runTool(chattr, ["-R", "-i", path]) }
  }

  // MARK: - Reproducer 2: a failed bee --force keeps the old identity's state

  @Test func failedBeeReplacementKeepsTheOldState() throws {
    let fixture = try ExportFixture()
    let dir = try Self.beeWithState(fixture)
    // Today's main removed keys/libp2p_v2.key and keys/pss.key, then failed on statestore.
    guard let undo = makeUnwritable(dir) else {
      try Test.cancel(Comment(rawValue: unwritableUnavailable))
    }
    let run = try fixture.run(
      ["export", "bee", "--data-dir", dir, "--force", "--scrypt-n", "1024"], other: true)
    undo()
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(try Self.oldBeeIdentityIsWhole(dir))
    #expect(!tree(dir).contains { $0.contains(".freedom-keys") || $0.contains(".tmp-") })
  }

  @Test func unchangeableKeysDirectoryKeepsTheOldIdentity() throws {
    let fixture = try ExportFixture()
    let dir = try Self.beeWithState(fixture)
    guard let undo = makeUnwritable(dir + "/keys") else {
      try Test.cancel(Comment(rawValue: unwritableUnavailable))
    }
    let run = try fixture.run(
      ["export", "bee", "--data-dir", dir, "--force", "--scrypt-n", "1024"], other: true)
    undo()
    #expect(run.status == 1)
    #expect(run.stderr.hasSuffix("; nothing in \(dir) was changed\n"))
    #expect(try Self.oldBeeIdentityIsWhole(dir))
  }

  @Test func immutableOldKeyDoesNotStopTheReplacement() throws {
    let fixture = try ExportFixture()
    let dir = try Self.beeWithState(fixture)
    // The reproducer as filed: chattr +i keys/swarm.key. Main failed with the state gone.
    guard getuid() == 0, setImmutable(dir + "/keys/swarm.key", true) else {
      try Test.cancel("chattr +i needs root and a file system with attributes")
    }
    let run = try fixture.run(
      ["export", "bee", "--data-dir", dir, "--force", "--scrypt-n", "1024"], other: true)
    // The swap moved the whole old keys/ aside, and the backup keeps it, immutable key and all.
    #expect(run.status == 0, "\(run.stderr)")
    let kept = try #require(backup(in: dir).path)
    #expect(FileManager.default.fileExists(atPath: kept + "/keys/swarm.key"))
    clearImmutable(dir)
    let verify = try CLI.run(
      ["verify", "--bee-dir", dir, "--password-file", dir + "/password", "--mnemonic-file", "-"],
      stdin: Golden.otherMnemonic + "\n")
    #expect(verify.status == 0, "\(verify.stderr)")
    #expect(backup(in: dir).rest == ["keys", "keys/swarm.key", "password"])
  }

  @Test func aGivenPasswordThatDiffersFromThePasswordFileIsRefused() throws {
    let fixture = try ExportFixture()
    let dir = try Self.beeWithState(fixture)
    let given = try fixture.file("given", "another password\n")
    let key = contents(dir + "/keys/swarm.key")
    // Main re-encrypted the key with the given password: DIR/password no longer opened it.
    let run = try fixture.run(
      [
        "export", "bee", "--data-dir", dir, "--password-file", given, "--force", "--scrypt-n",
        "1024",
      ],
      other: true)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "freedom-keys: error: \(dir)/password holds another password than the one given, and "
        + "would not open the new key; nothing was written (remove \(dir)/password, or give "
        + "--password-file \(dir)/password)\n")
    #expect(contents(dir + "/keys/swarm.key") == key)
    #expect(try Self.oldBeeIdentityIsWhole(dir))
  }

  @Test func rootExportingForAUserLeavesTheFilesTheUsers() throws {
    guard getuid() == 0 else {
      try Test.cancel("only root can export into another user's directory")
    }
    let fixture = try ExportFixture()
    let dir = try Self.beeWithState(fixture)
    for path in [dir] + tree(dir).map({ dir + "/" + $0 }) {
      #expect(lchown(path, 65534, 65534) == 0)
    }
    let run = try fixture.run(
      ["export", "bee", "--data-dir", dir, "--force", "--scrypt-n", "1024"], other: true)
    #expect(run.status == 0)
    for path in [dir + "/keys", dir + "/keys/swarm.key", dir + "/password"] {
      var info = stat()
      #expect(lstat(path, &info) == 0)
      #expect(info.st_uid == 65534 && info.st_gid == 65534, "\(path)")
    }
  }

  // MARK: - Reproducer 3: a failed radicle --force never leaves a key pair of two identities

  @Test func failedRadicleReplacementKeepsThePair() throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    let first = try fixture.run(["export", "radicle", "--home", home, "--alias", "alice"])
    try #require(first.status == 0)
    let key = contents(home + "/keys/radicle")
    let line = text(home + "/keys/radicle.pub")
    let config = text(home + "/config.json")
    // Today's main wrote both keys, then failed on config.json: exit 1 with the keys replaced.
    guard let undo = makeUnwritable(home) else {
      try Test.cancel(Comment(rawValue: unwritableUnavailable))
    }
    let run = try fixture.run(
      ["export", "radicle", "--home", home, "--alias", "bob", "--force"], other: true)
    undo()
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(contents(home + "/keys/radicle") == key)
    #expect(text(home + "/keys/radicle.pub") == line)
    #expect(text(home + "/config.json") == config)
  }

  @Test func immutablePublicKeyLeavesOneIdentity() throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    try #require(try fixture.run(["export", "radicle", "--home", home]).status == 0)
    guard getuid() == 0, setImmutable(home + "/keys/radicle.pub", true) else {
      try Test.cancel("chattr +i needs root and a file system with attributes")
    }
    let run = try fixture.run(["export", "radicle", "--home", home, "--force"], other: true)
    clearImmutable(home)
    let expected = run.status == 0 ? Golden.otherMnemonic : Golden.mnemonic
    let verify = try CLI.run(
      ["verify", "--radicle-home", home, "--mnemonic-file", "-"], stdin: expected + "\n")
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(backup(in: home).rest == ["keys", "keys/radicle", "keys/radicle.pub"])
    if run.status == 0 {
      let kept = try #require(backup(in: home).path)
      #expect(tree(kept + "/keys") == ["radicle", "radicle.pub"])
    }
  }

  // MARK: - Reproducer 4: concurrent exports

  /// Runs two exports at the same instant.
  static func together(_ first: [String], _ second: [String]) -> [CLIRun?] {
    let runs = [first, second]
    let results = Results(count: 2)
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      results.set(index, try? CLI.run(runs[index]))
    }
    return results.values
  }

  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [CLIRun?]
    init(count: Int) { storage = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: CLIRun?) { lock.withLock { storage[index] = value } }
    var values: [CLIRun?] { lock.withLock { storage } }
  }

  @Test func concurrentKuboExportsNeverBothReplace() throws {
    let fixture = try ExportFixture()
    for round in 0..<8 {
      let repo = fixture.path("ipfs\(round)")
      try makeDirectory(repo)
      _ = try fixture.file("ipfs\(round)/config", ExportKuboTests.config(peerID: "", privKey: ""))
      _ = try fixture.file("ipfs\(round)/repo.lock", "")
      let runs = Self.together(
        ["export", "kubo", "--repo", repo, "--mnemonic-file", fixture.mnemonic],
        ["export", "kubo", "--repo", repo, "--mnemonic-file", fixture.otherMnemonic])
      let statuses = runs.map { $0?.status }
      #expect(statuses.sorted { ($0 ?? 9) < ($1 ?? 9) } == [0, 1], "round \(round)")
      for run in runs.compactMap({ $0 }) {
        #expect(!run.stderr.contains("kubo daemon"), "round \(round): \(run.stderr)")
      }
      let winner = runs[0]?.status == 0 ? Golden.peerID : Golden.otherPeerID
      #expect(text(repo + "/config")?.contains("\"PeerID\": \"\(winner)\"") == true)
      #expect(tree(repo) == ["config", "repo.lock"])
    }
  }

  @Test func concurrentBeeExportsIntoAnEmptyDirectory() throws {
    let fixture = try ExportFixture()
    for round in 0..<6 {
      let dir = fixture.path("bee\(round)")
      let arguments = ["export", "bee", "--data-dir", dir, "--scrypt-n", "1024"]
      let runs = Self.together(
        arguments + ["--mnemonic-file", fixture.mnemonic],
        arguments + ["--mnemonic-file", round % 2 == 0 ? fixture.mnemonic : fixture.otherMnemonic])
      let statuses = runs.map { $0?.status ?? -1 }
      if round % 2 == 0 {
        #expect(statuses == [0, 0], "round \(round): \(runs.map { $0?.stderr ?? "" })")
      } else {
        #expect(statuses.sorted() == [0, 1], "round \(round)")
      }
      #expect(tree(dir) == ["keys", "keys/swarm.key", "password"], "round \(round)")
      let winner = statuses[0] == 0 ? Golden.mnemonic : Golden.otherMnemonic
      let verify = try CLI.run(
        ["verify", "--bee-dir", dir, "--password-file", dir + "/password", "--mnemonic-file", "-"],
        stdin: winner + "\n")
      #expect(verify.status == 0, "round \(round): \(verify.stdout)")
    }
  }

  @Test func concurrentRadicleExportsOfOneMnemonic() throws {
    let fixture = try ExportFixture()
    for round in 0..<6 {
      let home = fixture.path("radicle\(round)")
      let arguments = ["export", "radicle", "--home", home, "--mnemonic-file", fixture.mnemonic]
      let runs = Self.together(arguments, arguments)
      #expect(runs.map { $0?.status } == [0, 0], "round \(round)")
      #expect(tree(home) == ["keys", "keys/radicle", "keys/radicle.pub"])
    }
  }

  @Test func aSecondRunWaitsThenSaysWhy() throws {
    guard let flock = executable("flock"), let sleep = executable("sleep") else {
      try Test.cancel("flock(1) from util-linux is not installed")
    }
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: flock)
    holder.arguments = [dir + "/.freedom-keys.lock", sleep, "15"]
    try holder.run()
    defer {
      holder.terminate()
      holder.waitUntilExit()
    }
    usleep(300_000)
    let run = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: another process is changing \(dir) — wait for it to finish "
        + "and try again\n")
    #expect(fileMode(dir + "/identity.json") == nil)
  }

  // MARK: - Reproducer 5: what killed runs left is removed

  @Test func staleTemporaryFilesAreRemovedByTheNextRun() throws {
    let fixture = try ExportFixture()
    let home = fixture.path("radicle")
    try #require(try fixture.run(["export", "radicle", "--home", home]).status == 0)
    _ = try fixture.file("radicle/keys/.radicle.tmp-0123456789ab", "unencrypted private key")
    _ = try fixture.file("radicle/.config.json.tmp-a1b2c3d4e5f6", "{}")
    _ = try fixture.file("radicle/keys/notes.txt", "the user's own file")
    let verify = try CLI.run(
      ["verify", "--radicle-home", home, "--mnemonic-file", "-"], stdin: Golden.mnemonic + "\n")
    #expect(verify.status == 0)
    #expect(tree(home) == ["keys", "keys/notes.txt", "keys/radicle", "keys/radicle.pub"])

    let repo = fixture.path("ipfs")
    try makeDirectory(repo)
    _ = try fixture.file("ipfs/config", ExportKuboTests.config(peerID: "", privKey: ""))
    _ = try fixture.file("ipfs/.config.tmp-00aa11bb22cc", "{\"Identity\": {\"PrivKey\": \"…\"}}")
    #expect(chmod(repo + "/.config.tmp-00aa11bb22cc", 0o644) == 0)
    let export = try fixture.run(["export", "kubo", "--repo", repo])
    #expect(export.status == 0)
    #expect(tree(repo) == ["config"])
  }

  @Test func anInterruptedChangeIsUndoneByVerify() throws {
    let fixture = try ExportFixture()
    let dir = try Self.beeWithState(fixture)
    // What a kill -9 between moving the state aside and the swap leaves.
    try makeDirectory(dir + "/.freedom-keys.old")
    try makeDirectory(dir + "/.freedom-keys.new/2")
    #expect(rename(dir + "/statestore", dir + "/.freedom-keys.old/0") == 0)
    #expect(rename(dir + "/localstore", dir + "/.freedom-keys.old/1") == 0)
    var info = stat()
    #expect(stat(dir + "/.freedom-keys.new/2", &info) == 0)
    _ = try fixture.file(
      "bee/.freedom-keys.intent",
      "freedom-keys intent 1\naside 0 statestore\naside 1 localstore\n"
        + "dir 2 keys \(info.st_ino) old\nend\n")
    #expect(try Self.oldBeeIdentityIsWhole(dir))
    #expect(!tree(dir).contains { $0.contains(".freedom-keys") })
  }

  /// What a kill -9 right after moving ant-data's statestore aside leaves, in the transaction
  /// of `transaction` (the userData for `export freedom`, ant-data for `export antd`); then
  /// verify --freedom-dir of the userData must undo it.
  static func expectVerifyUndoesAnInterruptedChange(
    _ fixture: ExportFixture, transaction: String, statestore: String
  ) throws {
    let dir = fixture.path("userData")
    try makeDirectory(dir + "/ant-data/statestore")
    _ = try fixture.file("userData/ant-data/statestore/000001.log", "statestore of the identity")
    let root = dir + transaction
    try makeDirectory(root + "/.freedom-keys.old")
    try makeDirectory(root + "/.freedom-keys.new")
    #expect(rename(dir + "/ant-data/statestore", root + "/.freedom-keys.old/0") == 0)
    _ = try fixture.file(
      "userData\(transaction)/.freedom-keys.intent",
      "freedom-keys intent 1\naside 0 \(statestore)\nend\n")
    let verify = try CLI.run(
      ["verify", "--freedom-dir", dir, "--mnemonic-file", "-"], stdin: Golden.mnemonic + "\n")
    #expect(verify.status == 0, "\(verify.stderr)")
    #expect(verify.stderr.contains("undid an interrupted change"))
    #expect(text(dir + "/ant-data/statestore/000001.log") == "statestore of the identity")
    #expect(!tree(dir).contains { $0.contains(".freedom-keys") }, "\(tree(dir))")
  }

  /// verify --freedom-dir finishes or undoes an interrupted `export freedom` too, as every other
  /// verify does (the kill -9 harness found it leaving the change, and the lock file, behind).
  @Test func anInterruptedFreedomExportIsUndoneByVerify() throws {
    let fixture = try ExportFixture()
    let first = try fixture.run([
      "export", "freedom", "--user-data", fixture.path("userData"), "--create",
    ])
    try #require(first.status == 0, "\(first.stderr)")
    try Self.expectVerifyUndoesAnInterruptedChange(
      fixture, transaction: "", statestore: "ant-data/statestore")
  }

  /// And an interrupted `export antd` in the installation's ant-data.
  @Test func anInterruptedAntdExportIsUndoneByVerifyOfTheInstallation() throws {
    let fixture = try ExportFixture()
    let first = try fixture.run(
      ["export", "antd", "--data-dir", fixture.path("userData") + "/ant-data"])
    try #require(first.status == 0, "\(first.stderr)")
    try Self.expectVerifyUndoesAnInterruptedChange(
      fixture, transaction: "/ant-data", statestore: "statestore")
  }
}

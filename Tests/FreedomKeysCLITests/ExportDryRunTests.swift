import Foundation
import Glibc
import Testing

/// One export, as `--dry-run` is tried on each: the arguments that name its target (`TARGET` is
/// replaced by the fixture's path) and how a node of another identity is made there.
struct DryRunTarget: CustomTestStringConvertible, Sendable {
  let name: String
  /// The export's words and target option, `TARGET` standing for the path.
  let arguments: [String]
  /// Whether the export creates a missing target directory (kubo's repository it does not).
  var createsTarget = true
  /// The mnemonic's identity the export writes.
  let expected: String
  /// The identity the other mnemonic's export leaves there.
  let other: String

  var testDescription: String { name }

  func arguments(_ target: String) -> [String] { arguments.map { $0 == "TARGET" ? target : $0 } }

  /// Makes `target` hold the other mnemonic's identity, as its own export writes it.
  func prepareOtherIdentity(_ fixture: ExportFixture, at target: String) throws {
    if name == "kubo" {
      try makeDirectory(target)
      _ = try fixture.file(
        NodePathForTests.relative(target, fixture) + "/config",
        ExportKuboTests.config(peerID: "", privKey: ""))
    }
    let run = try fixture.run(arguments(target), other: true)
    #expect(run.status == 0, "\(run.stderr)")
  }

  static let all: [DryRunTarget] = [
    DryRunTarget(
      name: "bee", arguments: ["export", "bee", "--data-dir", "TARGET"],
      expected: Golden.swarmAddress, other: Golden.otherSwarmAddress),
    DryRunTarget(
      name: "kubo", arguments: ["export", "kubo", "--repo", "TARGET"], createsTarget: false,
      expected: Golden.peerID, other: Golden.otherPeerID),
    DryRunTarget(
      name: "kubo key file", arguments: ["export", "kubo", "--key-file", "TARGET"],
      expected: Golden.peerID, other: Golden.otherPeerID),
    DryRunTarget(
      name: "ant", arguments: ["export", "ant", "--data-dir", "TARGET"],
      expected: Golden.swarmAddress, other: Golden.otherSwarmAddress),
    DryRunTarget(
      name: "antd", arguments: ["export", "antd", "--data-dir", "TARGET"],
      expected: Golden.swarmAddress, other: Golden.otherSwarmAddress),
    DryRunTarget(
      name: "radicle", arguments: ["export", "radicle", "--home", "TARGET"],
      expected: Golden.radicleDID, other: Golden.otherRadicleDID),
    DryRunTarget(
      name: "freedom", arguments: ["export", "freedom", "--freedom-dir", "TARGET", "--create"],
      expected: Golden.swarmAddress, other: Golden.otherSwarmAddress),
  ]
}

enum NodePathForTests {
  /// `path` relative to the fixture's directory.
  static func relative(_ path: String, _ fixture: ExportFixture) -> String {
    String(path.dropFirst(fixture.directory.path.count + 1))
  }
}

/// Everything below `root`: each entry's type and mode, a file's bytes, a link's target.
func treeSnapshot(_ root: String) throws -> [String: String] {
  var snapshot: [String: String] = [:]
  guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
  for case let relative as String in walker {
    let full = root + "/" + relative
    var info = stat()
    guard lstat(full, &info) == 0 else { continue }
    var entry = String(info.st_mode, radix: 8) + " \(info.st_uid):\(info.st_gid)"
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      entry += " " + (try Data(contentsOf: URL(fileURLWithPath: full))).base64EncodedString()
    case S_IFLNK:
      entry += " -> " + (try FileManager.default.destinationOfSymbolicLink(atPath: full))
    default: break
    }
    snapshot[relative] = entry
  }
  return snapshot
}

@Suite("export --dry-run")
struct ExportDryRunTests {
  @Test(arguments: DryRunTarget.all)
  func refusalIsExitThreeWithTheExportsOwnMessage(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let path = fixture.path("node")
    try target.prepareOtherIdentity(fixture, at: path)
    let before = try treeSnapshot(fixture.directory.path)

    let dryRun = try fixture.run(target.arguments(path) + ["--dry-run"])
    #expect(dryRun.status == 3)
    #expect(dryRun.stdout == "")
    #expect(try treeSnapshot(fixture.directory.path) == before)

    // The export itself refuses with the same one line (exit 1: it was asked to write).
    let export = try fixture.run(target.arguments(path))
    #expect(export.status == 1)
    #expect(dryRun.stderr == export.stderr)
    #expect(dryRun.stderr.contains(target.other))
    #expect(dryRun.stderr.split(separator: "\n").count == 1)
  }

  @Test(arguments: DryRunTarget.all)
  func forcedPlanNamesBothIdentitiesAndChangesNothing(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let path = fixture.path("node")
    try target.prepareOtherIdentity(fixture, at: path)
    let before = try treeSnapshot(fixture.directory.path)

    let run = try fixture.run(target.arguments(path) + ["--dry-run", "--force"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try treeSnapshot(fixture.directory.path) == before)
    #expect(run.stdout.hasPrefix("Dry run, nothing was written; the export would:\n"))
    #expect(run.stdout.contains("  \(target.other) → \(target.expected)\n"))
    let identities = run.stdout.split(separator: "\n").first { $0.hasPrefix("Identities before: ") }
    #expect(identities?.contains("before: \(target.other)") == true, "\(run.stdout)")
    #expect(identities?.contains("after: \(target.expected)") == true, "\(run.stdout)")
    if target.name != "kubo key file" {
      // A replacement keeps the old identity aside, in the directory the report names.
      #expect(run.stdout.contains("/node/.freedom-keys.replaced/"), "\(run.stdout)")
    }
  }

  @Test(arguments: DryRunTarget.all)
  func missingTargetIsPlannedAsEmptyAndNotCreated(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let path = fixture.path("new/node")
    let run = try fixture.run(target.arguments(path) + ["--dry-run"])
    #expect(FileManager.default.fileExists(atPath: fixture.path("new")) == false)
    guard target.createsTarget else {
      // As the export says it: kubo's repository must exist.
      #expect(run.status == 1)
      #expect(run.stdout == "")
      #expect(run.stderr == (try fixture.run(target.arguments(path))).stderr)
      return
    }
    if target.name == "kubo key file" {
      // A key file's directory is the user's: the export does not create it, and the dry run
      // fails as the export does.
      #expect(run.status == 1)
      #expect(run.stdout == "")
      let export = try fixture.run(target.arguments(path))
      #expect(export.status == 1)
      #expect(run.stderr == export.stderr)
      #expect(run.stderr.contains("the directory for \(path) does not exist"), "\(run.stderr)")
      // Once it exists, the plan is the same file created.
      try makeDirectory(fixture.path("new"))
      let inside = try fixture.run(target.arguments(path) + ["--dry-run"])
      #expect(inside.status == 0, "\(inside.stderr)")
      #expect(inside.stdout.contains("  create  \(path)  \(target.expected)\n"), "\(inside.stdout)")
      #expect(FileManager.default.fileExists(atPath: path) == false)
      return
    }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Identities before: none; after: \(target.expected)"))
    #expect(run.stdout.hasSuffix("\(path) does not exist: the export would create it\n"))
  }

  @Test(arguments: DryRunTarget.all)
  func currentIdentityIsAPlanThatChangesNothing(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let path = fixture.path("node")
    if target.name == "kubo" {
      try makeDirectory(path)
      _ = try fixture.file("node/config", ExportKuboTests.config(peerID: "", privKey: ""))
    }
    #expect(try fixture.run(target.arguments(path)).status == 0)
    let before = try treeSnapshot(fixture.directory.path)
    let run = try fixture.run(target.arguments(path) + ["--dry-run"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.hasPrefix("Dry run, nothing was written; the export would change nothing:\n"))
    #expect(!run.stdout.contains("  create  ") && !run.stdout.contains("  replace  "))
    #expect(run.stdout.contains("before: \(target.expected)"))
    #expect(try treeSnapshot(fixture.directory.path) == before)
  }

  @Test func stateOfTheOldIdentityThatIsThereIsMovedAside() throws {
    let fixture = try ExportFixture()
    let bee = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", bee], other: true).status == 0)
    try makeDirectory(bee + "/statestore")
    _ = try fixture.file("bee/statestore/000001.log", "state")
    let before = try treeSnapshot(fixture.directory.path)
    let run = try fixture.run(["export", "bee", "--data-dir", bee, "--dry-run", "--force"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("  move aside  \(bee)/statestore\n"))
    // What is not there is not listed as moved.
    #expect(!run.stdout.contains("localstore"))
    #expect(try treeSnapshot(fixture.directory.path) == before)
    let json = try ExportJSON(
      try fixture.run(["export", "bee", "--data-dir", bee, "--dry-run", "--force", "--json"]))
    #expect(json.actions?.filter { $0.action == "moveAside" }.map(\.path) == [bee + "/statestore"])
  }

  @Test func desktopRestoreIntoAnEmptyUserData() throws {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    let vaultPassword = try fixture.file("vault-password", "correct horse\n")
    let run = try fixture.run([
      "export", "freedom", "--freedom-dir", userData, "--vault-password-file", vaultPassword,
      "--create", "--dry-run",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        Dry run, nothing was written; the export would:
          create  \(userData)/ant-data/config.yaml
          create  \(userData)/ant-data/keys/swarm.key  \(Golden.swarmAddress)
          create  \(userData)/identity/identity-vault.json
          create  \(userData)/identity/vault-meta.json
          create  \(userData)/radicle-data/config.json
          create  \(userData)/radicle-data/keys/radicle  \(Golden.radicleDID)
          create  \(userData)/radicle-data/keys/radicle.pub  \(Golden.radicleDID)
        Identities before: none; after: \(Golden.swarmAddress), \(Golden.radicleDID)
        \(userData) does not exist: the export would create it

        """)
    #expect(FileManager.default.fileExists(atPath: userData) == false)
  }

  @Test func aNewPasswordIsAskedOnceSinceNothingIsEncryptedWithIt() throws {
    let fixture = try ExportFixture()
    let terminal = try PromptTests.PseudoTerminal()
    let session = try PromptTests.Session(
      [
        "export", "freedom", "--freedom-dir", fixture.path("Freedom"), "--mnemonic-file",
        fixture.mnemonic, "--vault-password-file", "-", "--create", "--dry-run",
      ], terminal: terminal)
    let seen = session.waitForStandardError(containing: NewPasswordTests.prompt)
    #expect(seen.hasSuffix(NewPasswordTests.prompt))
    #expect(!terminal.echoes)
    terminal.type(VaultTests.password + "\n")
    let (stdout, stderr) = session.finish()
    #expect(session.process.terminationStatus == 0, "\(stderr)")
    #expect(!stderr.contains(NewPasswordTests.again))
    #expect(stdout.hasPrefix("Dry run, nothing was written; the export would:\n"))
    #expect(stdout.contains("  create  \(fixture.path("Freedom"))/identity/identity-vault.json\n"))
    #expect(!FileManager.default.fileExists(atPath: fixture.path("Freedom")))
  }

  /// Node directories, not the kubo key file (a file the user names; its directory is no node
  /// directory to lock).
  static let directories = DryRunTarget.all.filter { $0.name != "kubo key file" }

  @Test(arguments: directories)
  func readOnlyDirectoryFailsAsTheExportWould(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let path = fixture.path("node")
    try makeDirectory(path)
    if target.name == "kubo" {
      _ = try fixture.file("node/config", ExportKuboTests.config(peerID: "", privKey: ""))
    }
    let restore = try makeReadOnlyDirectory(path)
    defer { restore() }
    let before = try treeSnapshot(fixture.directory.path)

    let dryRun = try fixture.run(target.arguments(path) + ["--dry-run"])
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "")
    #expect(
      dryRun.stderr.hasPrefix(
        "freedom-keys: error: permission denied: could not create the lock file "
          + "\(path)/.freedom-keys.lock; "), "\(dryRun.stderr)")
    #expect(try treeSnapshot(fixture.directory.path) == before)
    // The export fails on the same line.
    let export = try fixture.run(target.arguments(path))
    #expect(export.status == 1)
    #expect(dryRun.stderr == export.stderr)
    #expect(try treeSnapshot(fixture.directory.path) == before)
  }

  @Test func currentIdentityInAReadOnlyDirectoryFailsAsTheExportWould() throws {
    // The export locks the directory even when nothing is to change, so it fails there.
    let fixture = try ExportFixture()
    let path = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", path]).status == 0)
    let restore = try makeReadOnlyDirectory(path)
    defer { restore() }
    let dryRun = try fixture.run(["export", "bee", "--data-dir", path, "--dry-run"])
    let export = try fixture.run(["export", "bee", "--data-dir", path])
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "")
    #expect(export.status == 1)
    #expect(dryRun.stderr == export.stderr)
    #expect(dryRun.stderr.contains("could not create the lock file \(path)/.freedom-keys.lock"))
  }

  @Test(arguments: directories.filter(\.createsTarget))
  func missingDirectoryInAReadOnlyParentFailsAsTheExportWould(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let parent = fixture.path("shared")
    try makeDirectory(parent)
    let restore = try makeReadOnlyDirectory(parent)
    defer { restore() }
    let path = parent + "/new/node"
    let dryRun = try fixture.run(target.arguments(path) + ["--dry-run"])
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "")
    #expect(
      dryRun.stderr.hasPrefix(
        "freedom-keys: error: permission denied: could not create the directory \(parent)/new; "),
      "\(dryRun.stderr)")
    let export = try fixture.run(target.arguments(path))
    #expect(export.status == 1)
    #expect(dryRun.stderr == export.stderr)
    #expect(tree(parent) == [])
  }

  @Test func readOnlyKeysDirectoryIsNamed() throws {
    // The lock can be taken, but keys/ cannot be swapped: the export would fail part way (and
    // undo itself); the dry run names the directory.
    let fixture = try ExportFixture()
    let path = fixture.path("bee")
    try makeDirectory(path + "/keys")
    let restore = try makeReadOnlyDirectory(path + "/keys")
    defer { restore() }
    let before = try treeSnapshot(fixture.directory.path)
    let dryRun = try fixture.run(["export", "bee", "--data-dir", path, "--dry-run"])
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "")
    #expect(
      dryRun.stderr.hasPrefix(
        "freedom-keys: error: permission denied: could not write in \(path)/keys; check the "
          + "owner, permissions and attributes (lsattr)"), "\(dryRun.stderr)")
    #expect(dryRun.stderr.split(separator: "\n").count == 1)
    #expect(try treeSnapshot(fixture.directory.path) == before)
    #expect(try fixture.run(["export", "bee", "--data-dir", path]).status == 1)
  }

  @Test func readOnlyStateDirectoryToMoveAsideIsNamed() throws {
    // A directory moved to another parent has its `..` rewritten: it must be writable too.
    let fixture = try ExportFixture()
    let bee = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", bee], other: true).status == 0)
    try makeDirectory(bee + "/statestore")
    _ = try fixture.file("bee/statestore/000001.log", "state")
    let restore = try makeReadOnlyDirectory(bee + "/statestore")
    defer { restore() }
    let dryRun = try fixture.run(["export", "bee", "--data-dir", bee, "--dry-run", "--force"])
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "")
    #expect(
      dryRun.stderr.hasPrefix(
        "freedom-keys: error: permission denied: could not write in \(bee)/statestore; "),
      "\(dryRun.stderr)")
    let export = try fixture.run(["export", "bee", "--data-dir", bee, "--force"])
    #expect(export.status == 1)
    #expect(export.stderr.contains("permission denied"), "\(export.stderr)")
  }

  @Test func runningKuboDaemonIsRefusedAsTheExportWould() throws {
    let fixture = try ExportFixture()
    let repo = fixture.path("ipfs")
    try makeDirectory(repo)
    _ = try fixture.file("ipfs/config", ExportKuboTests.config(peerID: "", privKey: ""))
    _ = try fixture.file("ipfs/repo.lock", "")
    let release = try ExportKuboTests().holdLock(on: repo + "/repo.lock")
    defer { release() }
    let dryRun = try fixture.run(["export", "kubo", "--repo", repo, "--dry-run"])
    let export = try fixture.run(["export", "kubo", "--repo", repo])
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "")
    #expect(dryRun.stderr.hasPrefix("freedom-keys: error: a kubo daemon (process "))
    #expect(dryRun.stderr == export.stderr)
  }

  @Test func keyFileInAReadOnlyDirectoryFailsAsTheExportWould() throws {
    let fixture = try ExportFixture()
    let directory = fixture.path("keys")
    try makeDirectory(directory)
    let restore = try makeReadOnlyDirectory(directory)
    defer { restore() }
    let arguments = ["export", "kubo", "--key-file", directory + "/ipfs.key"]
    let dryRun = try fixture.run(arguments + ["--dry-run"])
    let export = try fixture.run(arguments)
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "")
    #expect(export.status == 1)
    #expect(dryRun.stderr == export.stderr)
    #expect(dryRun.stderr.contains("permission denied for \(directory)/ipfs.key"))
    #expect(tree(directory) == [])
  }

  @Test func leavesNoLockFileAndNoBackup() throws {
    let fixture = try ExportFixture()
    let path = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", path]).status == 0)
    let run = try fixture.run(["export", "bee", "--data-dir", path, "--dry-run"])
    #expect(run.status == 0)
    #expect(FileManager.default.fileExists(atPath: path + "/.freedom-keys.lock") == false)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: path).sorted() == ["keys", "password"])
  }

  /// Issue 26, item 2: `--dry-run` on a bee directory a kill -9 left mid-change (the state moved
  /// aside, the record and the lock file left) printed "nothing was written" and undid the
  /// change. Now it says the export would first undo it, and every byte stays; the export does.
  @Test func anInterruptedChangeIsToldNotFinished() throws {
    let fixture = try ExportFixture()
    let dir = try ExportTransactionTests.beeWithState(fixture)
    try makeDirectory(dir + "/.freedom-keys.old")
    #expect(rename(dir + "/statestore", dir + "/.freedom-keys.old/0") == 0)
    let record = try fixture.file(
      "bee/.freedom-keys.intent", "freedom-keys intent 2\naside 0 statestore\nend\n")
    _ = try fixture.file("bee/.freedom-keys.lock", "")
    let before = try treeSnapshot(dir)

    let dryRun = try fixture.run(["export", "bee", "--data-dir", dir, "--dry-run"])
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(dryRun.stdout.hasPrefix("Dry run, nothing was written; the export would:\n"))
    #expect(
      dryRun.stdout.contains(
        "\nThe export would first undo an interrupted change from \(record) (the old identity "
          + "back in place); the plan above is for the directory as it is now\n"))
    #expect(try treeSnapshot(dir) == before)
    let json = try fixture.run(["export", "bee", "--data-dir", dir, "--dry-run", "--json"])
    #expect(json.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["changed"] as? Bool == true)
    let interrupted = object["interruptedChanges"] as? [[String: Any]]
    #expect(interrupted?.count == 1)
    #expect(interrupted?.first?["directory"] as? String == dir)
    #expect(interrupted?.first?["record"] as? String == record)
    #expect(interrupted?.first?["finishes"] as? Bool == false)
    #expect(try treeSnapshot(dir) == before)

    let export = try fixture.run(["export", "bee", "--data-dir", dir])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stderr.contains("undid an interrupted change in \(dir)"))
    #expect(text(dir + "/statestore/000001.log") == "statestore of the old identity")
    #expect(!tree(dir).contains { $0.contains(".freedom-keys") })
  }
}

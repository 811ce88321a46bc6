import CryptoPrimitives
import Foundation
import Glibc
import TestSupport
import Testing

@testable import NodeFiles

/// A node that was A and is now B, A kept in `.freedom-keys.replaced/a`.
private func nodeChangedToB(_ root: TemporaryDirectory) throws -> String {
  let dir = try nodeOfA(root)
  let node = try NodeDirectory.open(dir, layout: testNode, create: false)
  try node.apply(changeToB(backup: RestoreTests.keptA))
  node.close()
  try #require(identity(dir) == "B")
  return dir
}

/// Whether the backup `name` of `dir` holds the whole identity A (as `changeToB` kept it).
private func holdsA(_ dir: String, _ name: String) -> Bool {
  let backup = dir + "/" + name
  return text(backup + "/keys/swarm.key") == "key of A"
    && text(backup + "/keys/pss.key") == "pss of A"
    && text(backup + "/config.yaml") == "password: A"
    && text(backup + "/statestore/log") == "state of A"
}

/// Issue 26, item 8: undo puts back what a change kept aside, as one transaction that keeps
/// what is in place aside in turn.
@Suite("NodeFiles: putting a backup back")
struct RestoreTests {
  static let keptA = ".freedom-keys.replaced/a"
  static let keptB = ".freedom-keys.replaced/b"

  @Test func aBackupGoesBackAndWhatWasInPlaceIsKeptInTurn() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeChangedToB(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    let plan = try node.planRestore("a")
    #expect(plan.backup == dir + "/" + Self.keptA)
    #expect(plan.restored == ["keys", "config.yaml", "statestore"].map { dir + "/" + $0 })
    #expect(plan.keptAside == ["keys", "config.yaml"].map { dir + "/" + $0 })
    let result = try node.restore("a", keepingCurrentIn: Self.keptB)
    node.close()
    #expect(identity(dir) == "A")
    #expect(text(dir + "/" + Self.keptB + "/keys/swarm.key") == "key of B")
    #expect(text(dir + "/" + Self.keptB + "/config.yaml") == "password: B")
    #expect(Set(result.keptAside.map(\.original)) == Set(plan.keptAside))
    // Emptied: everything it held is in place again.
    #expect(try root.contents("node/.freedom-keys.replaced") == ["b"])
    #expect(!tree(dir).contains { $0.hasPrefix(".freedom-keys.") && !$0.contains("replaced") })

    // And back again: an undo is undone the same way.
    let again = try NodeDirectory.open(dir, layout: testNode, create: false)
    try again.restore("b", keepingCurrentIn: Self.keptA)
    again.close()
    #expect(identity(dir) == "B")
    #expect(holdsA(dir, Self.keptA))
    #expect(try root.contents("node/.freedom-keys.replaced") == ["a"])
  }

  /// State of the identity in place that the backup does not replace (B's node made a
  /// statestore; A had none when it was replaced) goes aside with B's keys: it is B's, and
  /// never stays beside A's key.
  @Test func theCurrentIdentitysOwnStateGoesAsideToo() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    try FileManager.default.removeItem(atPath: dir + "/statestore")
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    try node.apply(changeToB(backup: Self.keptA))
    try makeDirectory(dir + "/statestore")
    try put(dir + "/statestore/log", "state of B")
    let plan = try node.planRestore("a")
    #expect(plan.restored == ["keys", "config.yaml"].map { dir + "/" + $0 })
    #expect(plan.keptAside == ["keys", "config.yaml", "statestore"].map { dir + "/" + $0 })
    try node.restore("a", keepingCurrentIn: Self.keptB)
    node.close()
    #expect(text(dir + "/keys/swarm.key") == "key of A")
    #expect(!FileManager.default.fileExists(atPath: dir + "/statestore"))
    #expect(text(dir + "/" + Self.keptB + "/statestore/log") == "state of B")
  }

  /// State in a folder nothing goes back to stays (a desktop installation's
  /// quick-unlock.dat beside a vault the change did not replace); state beside what goes back
  /// goes aside.
  @Test func stateBesideNothingPutBackStays() throws {
    let layout = NodeLayout(
      name: "installation", files: ["node/keys/key", "vault/vault.json"],
      identityDirectory: nil, identityState: ["node/statestore", "vault/unlock.dat"])
    let root = try TemporaryDirectory()
    let dir = root.file("installation")
    try makeDirectory(dir + "/node/keys")
    try makeDirectory(dir + "/vault")
    try put(dir + "/node/keys/key", "key of A")
    try put(dir + "/vault/vault.json", "vault")
    let node = try NodeDirectory.open(dir, layout: layout, create: false)
    try node.apply(
      NodeChange(files: [.init("node/keys/key", SecureBytes(utf8: "key of B"))], backup: Self.keptA)
    )
    try makeDirectory(dir + "/node/statestore")
    try put(dir + "/node/statestore/log", "state of B")
    try put(dir + "/vault/unlock.dat", "unlock of the vault")
    try node.restore("a", keepingCurrentIn: Self.keptB)
    node.close()
    #expect(text(dir + "/node/keys/key") == "key of A")
    #expect(text(dir + "/vault/unlock.dat") == "unlock of the vault")
    #expect(!FileManager.default.fileExists(atPath: dir + "/node/statestore"))
    #expect(text(dir + "/" + Self.keptB + "/node/statestore/log") == "state of B")
  }

  /// Killed at any point: the next open finishes the undo (A in place, B kept whole) or undoes
  /// it (B in place, A still whole in its backup); nothing of either is lost.
  @Test(arguments: [
    "step 0", "step 1", "step 2", "commit", "clean-up", "backup 1", "backup 2",
    "discarded aside",
  ])
  func aKillAnywhereLeavesOneWholeIdentityAndTheOtherKept(point: String) throws {
    let root = try TemporaryDirectory()
    let dir = try nodeChangedToB(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.killPoint = point
    #expect(throws: NodeFileError.self) { try node.restore("a", keepingCurrentIn: Self.keptB) }
    node.close()
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    next.close()
    if ["step 0", "step 1", "step 2"].contains(point) {
      #expect(identity(dir) == "B", "killed at \(point)")
      #expect(holdsA(dir, Self.keptA), "killed at \(point)")
      #expect(try root.contents("node/.freedom-keys.replaced") == ["a"], "killed at \(point)")
    } else {
      #expect(identity(dir) == "A", "killed at \(point)")
      #expect(text(dir + "/" + Self.keptB + "/keys/swarm.key") == "key of B", "killed at \(point)")
      #expect(text(dir + "/" + Self.keptB + "/config.yaml") == "password: B", "killed at \(point)")
      #expect(try root.contents("node/.freedom-keys.replaced") == ["b"], "killed at \(point)")
    }
    #expect(!tree(dir).contains { $0.hasPrefix(".freedom-keys.") && !$0.contains("replaced") })
  }

  /// A backup of state only (no key replaced): its last step renames out of the backup, and
  /// a kill right after it (before the commit mark) is finished, judged by that entry alone.
  @Test func aKillAfterTheLastRestoreIsFinished() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    try node.apply(NodeChange(removing: ["statestore"], backup: Self.keptA))
    try #require(!FileManager.default.fileExists(atPath: dir + "/statestore"))
    node.killPoint = "commit"
    #expect(throws: NodeFileError.self) { try node.restore("a", keepingCurrentIn: Self.keptB) }
    node.close()
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    next.close()
    #expect(identity(dir) == "A")
    #expect(try root.contents("node/.freedom-keys.replaced") == [])
    #expect(!tree(dir).contains { $0.hasPrefix(".freedom-keys.") && !$0.contains("replaced") })
  }

  /// A failure before the commit puts everything back as it was, the backup whole.
  @Test func aFailureBeforeTheCommitChangesNothing() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeChangedToB(root)
    let before = tree(dir)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.faultInjection = { point throws(NodeFileError) in
      if point == "commit" { throw NodeFileError(.io, "disk gone") }
    }
    #expect(throws: NodeFileError(.io, "disk gone")) {
      try node.restore("a", keepingCurrentIn: Self.keptB)
    }
    node.close()
    #expect(identity(dir) == "B")
    #expect(holdsA(dir, Self.keptA))
    #expect(tree(dir) == before.filter { $0 != ".freedom-keys.lock" })
  }

  /// What a backup may not hold: something the layout does not keep, a link, a file where
  /// the identity directory belongs. Refused before anything is written.
  @Test(arguments: ["stray", "link", "keysAsFile", "empty"])
  func aBackupThatDoesNotMatchTheLayoutIsRefused(planted: String) throws {
    let root = try TemporaryDirectory()
    let dir = try nodeChangedToB(root)
    let backup = dir + "/" + Self.keptA
    switch planted {
    case "stray": try put(backup + "/notes.txt", "mine")
    case "link":
      unlink(backup + "/config.yaml")
      #expect(symlink(root.file("elsewhere"), backup + "/config.yaml") == 0)
    case "keysAsFile":
      try FileManager.default.removeItem(atPath: backup + "/keys")
      try put(backup + "/keys", "not a directory")
    default:
      try FileManager.default.removeItem(atPath: backup)
      try makeDirectory(backup)
    }
    let before = tree(dir)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    #expect(throws: NodeFileError.self) { try node.planRestore("a") }
    do {
      try node.restore("a", keepingCurrentIn: Self.keptB)
      Issue.record("a backup holding \(planted) was put back")
    } catch {
      #expect(error.code == .unexpectedFile)
      #expect(error.message.contains(dir + "/" + Self.keptA), "\(error.message)")
      #expect(!error.message.contains("\n"))
    }
    node.close()
    #expect(tree(dir) == before.filter { $0 != ".freedom-keys.lock" })
    #expect(identity(dir) == "B")
  }

  /// A name that is not one backup below `.freedom-keys.replaced` is refused.
  @Test func onlyABackupsNameIsTaken() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeChangedToB(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    defer { node.close() }
    for name in ["", "..", "a/keys", ".freedom-keys.new", "missing"] {
      #expect(throws: NodeFileError.self, "\(name)") { try node.planRestore(name) }
    }
    #expect(identity(dir) == "B")
  }

  @Test func restoreRecordsRoundTrip() {
    let record = IntentRecord(
      steps: [
        .init(kind: .aside, index: 0, path: "statestore"),
        .init(kind: .restore, index: 1, path: "localstore", inode: 9),
        .init(kind: .dir, index: 2, path: "keys", inode: 8, existed: true),
      ], backup: ".freedom-keys.replaced/b", source: ".freedom-keys.replaced/a")
    #expect(
      record.text
        == "freedom-keys intent 2\naside 0 statestore\nrestore 1 localstore 9\n"
        + "dir 2 keys 8 old\nbackup .freedom-keys.replaced/b\nsource .freedom-keys.replaced/a\n"
        + "end\n")
    #expect(IntentRecord(text: record.text) == record)
    for bad in [
      "freedom-keys intent 2\nrestore 0 a 9\nend\n",
      "freedom-keys intent 2\nrestore 0 a\nsource .freedom-keys.replaced/a\nend\n",
      "freedom-keys intent 2\nsource ../a\nend\n",
      "freedom-keys intent 1\nrestore 0 a 9\nsource .freedom-keys.replaced/a\nend\n",
    ] {
      #expect(IntentRecord(text: bad) == nil, "\(bad)")
    }
  }
}

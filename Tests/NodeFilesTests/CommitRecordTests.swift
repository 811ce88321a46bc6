import CryptoPrimitives
import Foundation
import Glibc
import TestSupport
import Testing

@testable import NodeFiles

/// A node like antd's: a key directory swapped whole, a config replaced by itself, state that
/// goes with the identity.
let testNode = NodeLayout(
  name: "test node", files: ["keys/swarm.key", "config.yaml"], identityDirectory: "keys",
  identityState: ["statestore", "keys/pss.key"])

/// Writes `text` to `path` with mode 0600 (a new inode each time).
func put(_ path: String, _ text: String, mode: mode_t = 0o600) throws {
  unlink(path)
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  #expect(chmod(path, mode) == 0)
}

func text(_ path: String) -> String? {
  (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
}

func makeDirectory(_ path: String) throws {
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

func inode(_ path: String) -> UInt64 {
  var info = stat()
  return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
}

/// Every path below `path`, relative, sorted (links not followed).
func tree(_ path: String) -> [String] {
  guard let walker = FileManager.default.enumerator(atPath: path) else { return [] }
  return (walker.allObjects as? [String] ?? []).sorted()
}

/// A node of identity A: keys/swarm.key, keys/pss.key, config.yaml and a statestore.
func nodeOfA(_ root: TemporaryDirectory, _ name: String = "node") throws -> String {
  let dir = root.file(name)
  try makeDirectory(dir + "/keys")
  try makeDirectory(dir + "/statestore")
  try put(dir + "/keys/swarm.key", "key of A")
  try put(dir + "/keys/pss.key", "pss of A")
  try put(dir + "/config.yaml", "password: A")
  try put(dir + "/statestore/log", "state of A")
  return dir
}

/// The change that makes the node B's.
func changeToB(backup: String? = nil) -> NodeChange {
  NodeChange(
    files: [
      .init("config.yaml", SecureBytes(utf8: "password: B")),
      .init("keys/swarm.key", SecureBytes(utf8: "key of B")),
    ],
    removing: testNode.identityState, backup: backup)
}

/// Which whole identity the node holds: "A", "B", or a description of the mix.
func identity(_ dir: String) -> String {
  let key = text(dir + "/keys/swarm.key")
  let config = text(dir + "/config.yaml")
  if key == "key of A", config == "password: A", text(dir + "/keys/pss.key") == "pss of A",
    text(dir + "/statestore/log") == "state of A"
  {
    return "A"
  }
  if key == "key of B", config == "password: B", text(dir + "/keys/pss.key") == nil,
    text(dir + "/statestore/log") == nil
  {
    return "B"
  }
  return "mixed: key \(key ?? "-"), config \(config ?? "-"), \(tree(dir))"
}

@Suite("NodeFiles: the commit record")
struct CommitRecordTests {
  /// Issue 15: a kill during clean-up, then an editor rewrites config.yaml with the same bytes
  /// (a new inode). The record says committed: recovery must finish the change, not bring the
  /// half-deleted old keys/ back under the new password.
  @Test func aCommittedChangeIsFinishedWhateverTheInodesSay() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    // What a kill -9 halfway through clean-up leaves: the new files in place, the old keys/
    // (swapped into .freedom-keys.new/2) half deleted, the aside directory already gone.
    try makeDirectory(dir + "/.freedom-keys.new/2")
    #expect(rename(dir + "/keys", dir + "/.freedom-keys.new/2") == 0)
    unlink(dir + "/.freedom-keys.new/2/swarm.key")
    try makeDirectory(dir + "/keys")
    try put(dir + "/keys/swarm.key", "key of B")
    try FileManager.default.removeItem(atPath: dir + "/statestore")
    try put(dir + "/config.yaml", "password: B")
    let stagedConfigInode = inode(dir + "/config.yaml")
    // The editor: same bytes, written to a new file renamed over the old one (a new inode).
    try put(dir + "/config.yaml~", "password: B")
    #expect(rename(dir + "/config.yaml~", dir + "/config.yaml") == 0)
    #expect(inode(dir + "/config.yaml") != stagedConfigInode)
    try put(
      dir + "/.freedom-keys.intent",
      "freedom-keys intent 2\naside 0 statestore\nfile 1 config.yaml \(stagedConfigInode) old\n"
        + "dir 2 keys \(inode(dir + "/keys")) old\nend\ncommitted\n")

    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.close()
    #expect(node.recoveryNote?.hasPrefix("finished an interrupted change") == true)
    #expect(identity(dir) == "B")
    #expect(tree(dir) == ["config.yaml", "keys", "keys/swarm.key"])
  }

  /// Without the mark the same state is undone (the record is the only judge).
  @Test func anUncommittedChangeIsUndone() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    try makeDirectory(dir + "/.freedom-keys.old")
    #expect(rename(dir + "/statestore", dir + "/.freedom-keys.old/0") == 0)
    try put(dir + "/.freedom-keys.intent", "freedom-keys intent 2\naside 0 statestore\nend\n")
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.close()
    #expect(node.recoveryNote?.hasPrefix("undid an interrupted change") == true)
    #expect(identity(dir) == "A")
  }

  /// Issue 19: a record names paths relative to its directory, so any later command recovers
  /// it whatever layout it opens the directory with (v1 records included).
  @Test func aRecordIsRecoveredWhateverLayoutOpensTheDirectory() throws {
    let root = try TemporaryDirectory()
    let dir = root.file("installation")
    try makeDirectory(dir + "/home/R/keys")
    try makeDirectory(dir + "/.freedom-keys.old")
    try put(dir + "/.freedom-keys.old/0", "state of A")
    try put(
      dir + "/.freedom-keys.intent", "freedom-keys intent 1\naside 0 home/R/keys/state\nend\n")
    let other = NodeLayout(
      name: "other", files: ["config"], identityDirectory: nil, identityState: [])
    let node = try NodeDirectory.open(dir, layout: other, create: false)
    node.close()
    #expect(text(dir + "/home/R/keys/state") == "state of A")
    #expect(tree(dir) == ["home", "home/R", "home/R/keys", "home/R/keys/state"])
  }

  /// A kill at every point of a change, then a later open: the directory holds one whole
  /// identity, the open succeeds (never "restore it by hand") and nothing is left behind.
  @Test(arguments: [
    "step 0", "step 1", "step 2", "commit", "clean-up", "discarded aside",
  ])
  func aKillAnywhereIsFinishedOrUndoneByTheNextOpen(point: String) throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.killPoint = point
    #expect(throws: NodeFileError.self) { try node.apply(changeToB()) }
    node.close()
    // Killed after the last replacement took its place, before the mark ("commit"): a node
    // may already run on the new identity, so it is finished, not taken back.
    let committed = ["commit", "clean-up", "discarded aside"].contains(point)
    if committed {
      // An editor rewrites config.yaml with the same bytes before the next run.
      try put(dir + "/config.yaml~", "password: B")
      #expect(rename(dir + "/config.yaml~", dir + "/config.yaml") == 0)
    }
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    next.close()
    #expect(identity(dir) == (committed ? "B" : "A"), "killed at \(point)")
    #expect(!tree(dir).contains { $0.contains(".freedom-keys") }, "killed at \(point)")
  }

  /// A failure before the commit mark undoes everything, the directories it created included.
  @Test func aFailedFreshChangeLeavesNoDirectoryItCreated() throws {
    let root = try TemporaryDirectory()
    let dir = root.file("fresh/node")
    let node = try NodeDirectory.open(dir, layout: testNode, create: true)
    node.faultInjection = { point throws(NodeFileError) in
      if point == "commit" { throw NodeFileError(.io, "disk gone") }
    }
    let change = NodeChange(files: [
      .init("keys/swarm.key", SecureBytes(utf8: "key")),
      .init("deep/er/config.yaml", SecureBytes(utf8: "config")),
    ])
    #expect(throws: NodeFileError(.io, "disk gone")) { try node.apply(change) }
    #expect(tree(dir) == [".freedom-keys.lock"])
    node.close(keep: false)
    #expect(try root.contents() == [])
  }

  /// Missing parents are created inside the transaction, 0700 whatever the umask, and files
  /// get exactly their mode.
  @Test func parentsAreCreatedWithExactModesWhateverTheUmask() throws {
    let root = try TemporaryDirectory()
    let old = umask(0o277)
    defer { umask(old) }
    let node = try NodeDirectory.open(root.path, layout: testNode, create: false)
    let result = try node.apply(
      NodeChange(files: [
        .init("ant-data/keys/swarm.key", SecureBytes(utf8: "key")),
        .init("ant-data/config.yaml", SecureBytes(utf8: "config"), mode: 0o644),
        .init("keys/swarm.key", SecureBytes(utf8: "key")),
      ]))
    node.close()
    #expect(result.written.count == 3)
    for directory in ["ant-data", "ant-data/keys", "keys"] {
      #expect(permissions(root.file(directory)) == 0o700, "\(directory)")
    }
    #expect(permissions(root.file("ant-data/keys/swarm.key")) == 0o600)
    #expect(permissions(root.file("ant-data/config.yaml")) == 0o644)
    #expect(
      try root.contents() == ["ant-data", "keys"]
        && tree(root.file("ant-data")) == [
          "config.yaml", "keys", "keys/swarm.key",
        ])
  }

  /// Kept aside, never deleted: with a backup directory the old files end up there (also when
  /// the clean-up is killed halfway), and the result says where each went.
  @Test func aBackupKeepsEveryOldFile() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    let backup = ".freedom-keys.replaced/2026-12-01T10-00-00Z-0xa"
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    let result = try node.apply(changeToB(backup: backup))
    node.close()
    #expect(identity(dir) == "B")
    let kept = dir + "/" + backup
    #expect(text(kept + "/statestore/log") == "state of A")
    #expect(text(kept + "/config.yaml") == "password: A")
    #expect(text(kept + "/keys/swarm.key") == "key of A")
    #expect(text(kept + "/keys/pss.key") == "pss of A")
    #expect(permissions(dir + "/.freedom-keys.replaced") == 0o700)
    #expect(permissions(kept) == 0o700)
    #expect(
      result.keptAside == [
        .init(original: dir + "/statestore", backup: kept + "/statestore"),
        .init(original: dir + "/config.yaml", backup: kept + "/config.yaml"),
        .init(original: dir + "/keys", backup: kept + "/keys"),
      ])

    let again = try nodeOfA(root, "again")
    let killed = try NodeDirectory.open(again, layout: testNode, create: false)
    killed.killPoint = "backup 1"
    #expect(throws: NodeFileError.self) { try killed.apply(changeToB(backup: backup)) }
    killed.close()
    let next = try NodeDirectory.open(again, layout: testNode, create: false)
    next.close()
    #expect(identity(again) == "B")
    #expect(text(again + "/" + backup + "/statestore/log") == "state of A")
    #expect(text(again + "/" + backup + "/config.yaml") == "password: A")
    #expect(text(again + "/" + backup + "/keys/pss.key") == "pss of A")
    #expect(!tree(again).contains { $0.hasPrefix(".freedom-keys.") && !$0.contains("replaced") })
  }

  @Test func recordsRoundTripAndStrangeOnesAreRefused() {
    let record = IntentRecord(
      steps: [
        .init(kind: .mkdir, index: 0, path: "ant-data"),
        .init(kind: .aside, index: 1, path: "ant-data/statestore"),
        .init(kind: .file, index: 2, path: "ant-data/config.yaml", inode: 7, existed: true),
        .init(kind: .dir, index: 3, path: "radicle-data/keys", inode: 8, existed: false),
      ], backup: ".freedom-keys.replaced/x", committed: true)
    #expect(
      record.text
        == "freedom-keys intent 2\nmkdir 0 ant-data\naside 1 ant-data/statestore\n"
        + "file 2 ant-data/config.yaml 7 old\ndir 3 radicle-data/keys 8 new\n"
        + "backup .freedom-keys.replaced/x\nend\ncommitted\n")
    #expect(IntentRecord(text: record.text) == record)
    for bad in [
      "freedom-keys intent 2\naside 0 /etc\nend\n",
      "freedom-keys intent 2\naside 0 a/../../etc\nend\n",
      "freedom-keys intent 2\naside 0 a//b\nend\n",
      "freedom-keys intent 2\naside 0 ./a\nend\n",
      "freedom-keys intent 2\naside 0 .freedom-keys.new\nend\n",
      "freedom-keys intent 2\naside 0 a\naside 1 a\nend\n",
      "freedom-keys intent 2\naside 0 a\nend\ncommitted",
      "freedom-keys intent 2\naside 0 a\nend\ncommit\n",
      "freedom-keys intent 2\nbackup ../x\nend\n",
      "freedom-keys intent 1\nmkdir 0 a\nend\n",
      "freedom-keys intent 1\naside 0 a\nend\ncommitted\n",
      "freedom-keys intent 2\nfile 0 a 01 old\nend\n",
      "freedom-keys intent 3\nend\n",
    ] {
      #expect(IntentRecord(text: bad) == nil, "\(bad)")
    }
  }
}

import Foundation
import Glibc
import TestSupport
import Testing

@testable import NodeFiles

/// Issue 35, item 2: an undo of a directory whose state is both in place and in the backup
/// wrote a record naming that path twice (`aside`, then `restore`), which the record reader
/// refused: killed in between, every later run refused the directory, and moving the record
/// away (as the refusal advised) made the next run delete `.freedom-keys.old`, the only copy
/// of the state that was in place.
@Suite("NodeFiles: an undo over state in place")
struct UndoRecordTests {
  static let keptA = ".freedom-keys.replaced/a"
  static let keptB = ".freedom-keys.replaced/b"

  /// A node that was A and is now B, A (with its statestore) kept in `keptA`, and B's own
  /// statestore in place: an undo moves B's aside and puts A's back at the same path.
  static func nodeOfBWithState(_ root: TemporaryDirectory) throws -> String {
    let dir = try nodeOfA(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    try node.apply(changeToB(backup: keptA))
    node.close()
    try makeDirectory(dir + "/statestore")
    try put(dir + "/statestore/log", "state of B")
    try #require(Self.owner(dir) == "B")
    return dir
  }

  /// Which whole identity the node holds, its own state included (B's node made a statestore
  /// of its own): "A", "B", or a description of the mix.
  static func owner(_ dir: String) -> String {
    let key = text(dir + "/keys/swarm.key")
    let config = text(dir + "/config.yaml")
    let state = text(dir + "/statestore/log")
    if key == "key of A", config == "password: A", text(dir + "/keys/pss.key") == "pss of A",
      state == "state of A"
    {
      return "A"
    }
    if key == "key of B", config == "password: B", text(dir + "/keys/pss.key") == nil,
      state == "state of B"
    {
      return "B"
    }
    return "mixed: key \(key ?? "-"), config \(config ?? "-"), state \(state ?? "-")"
  }

  /// The paths of the engine's own transaction entries below `dir`.
  static func transactionEntries(_ dir: String) -> [String] {
    tree(dir).filter { $0.hasPrefix(".freedom-keys.") && !$0.hasPrefix(".freedom-keys.replaced") }
      .filter { $0 != ".freedom-keys.lock" }
  }

  /// What opening `dir` throws (nil when it opens): to change it (way 0), to read it (1), for
  /// a dry run (2).
  static func refusal(_ dir: String, _ way: Int) -> NodeFileError? {
    do {
      let node: NodeDirectory
      switch way {
      case 0: node = try NodeDirectory.open(dir, layout: testNode, create: false)
      case 1: node = try NodeDirectory.openForReading(dir, layout: testNode)
      default: node = try NodeDirectory.openForReading(dir, layout: testNode, recovering: false)
      }
      node.close()
      return nil
    } catch {
      return error
    }
  }

  /// The record such an undo writes, read back as it was written; the reader still refuses
  /// every other repetition of a path.
  @Test func theUndosRecordIsReadBack() throws {
    let record = IntentRecord(
      steps: [
        .init(kind: .aside, index: 0, path: "statestore"),
        .init(kind: .restore, index: 1, path: "statestore", inode: 7),
        .init(kind: .file, index: 2, path: "config.yaml", inode: 8, existed: true),
        .init(kind: .dir, index: 3, path: "keys", inode: 9, existed: true),
      ], backup: Self.keptB, source: Self.keptA)
    #expect(
      record.text
        == "freedom-keys intent 2\naside 0 statestore\nrestore 1 statestore 7\n"
        + "file 2 config.yaml 8 old\ndir 3 keys 9 old\nbackup .freedom-keys.replaced/b\n"
        + "source .freedom-keys.replaced/a\nend\n")
    #expect(IntentRecord(text: record.text) == record)
    let source = "source .freedom-keys.replaced/a\nend\n"
    for bad in [
      "restore 0 s 7\naside 1 s\n", "aside 0 s\naside 1 s\n",
      "aside 0 s\nrestore 1 s 7\nrestore 2 s 7\n",
      "restore 0 s 7\nrestore 1 s 7\n", "file 0 s 7 old\nrestore 1 s 7\n",
      "aside 0 s\nfile 1 s 7 old\n", "mkdir 0 s\nrestore 1 s 7\n", "aside 0 s\ndir 1 s 7 old\n",
    ] {
      #expect(IntentRecord(text: "freedom-keys intent 2\n" + bad + source) == nil, "\(bad)")
    }
  }

  /// Killed at any point of the undo, the record is one the next open reads: it undoes the
  /// undo (B with B's state) or finishes it (A with A's state, B's kept whole), never a key
  /// beside the other identity's state, and neither state is lost.
  @Test(arguments: [
    "step 0", "step 1", "step 2", "step 3", "commit", "clean-up", "backup 0", "backup 2",
    "backup 3", "discarded aside",
  ])
  func aKillAnywhereIsRecovered(point: String) throws {
    let root = try TemporaryDirectory()
    let dir = try Self.nodeOfBWithState(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.killPoint = point
    #expect(throws: NodeFileError.self) { try node.restore("a", keepingCurrentIn: Self.keptB) }
    node.close()
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    next.close()
    if point.hasPrefix("step ") {
      #expect(Self.owner(dir) == "B", "killed at \(point)")
      #expect(text(dir + "/" + Self.keptA + "/statestore/log") == "state of A")
      #expect(text(dir + "/" + Self.keptA + "/keys/swarm.key") == "key of A")
    } else {
      #expect(Self.owner(dir) == "A", "killed at \(point)")
      #expect(text(dir + "/" + Self.keptB + "/statestore/log") == "state of B")
      #expect(text(dir + "/" + Self.keptB + "/keys/swarm.key") == "key of B")
    }
    #expect(Self.transactionEntries(dir) == [], "killed at \(point)")
  }

  /// A record the engine cannot read is left as it is, and so is everything else; once it is
  /// moved away, what the change moved aside is still never deleted: every open refuses,
  /// naming the aside directory, until the user puts the record back (which then recovers).
  @Test func anUnreadableOrMissingRecordNeverLeadsToADeletion() throws {
    let root = try TemporaryDirectory()
    let dir = try Self.nodeOfBWithState(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.killPoint = "step 2"  // B's state aside, A's in place, B's keys
    #expect(throws: NodeFileError.self) { try node.restore("a", keepingCurrentIn: Self.keptB) }
    node.close()
    let record = dir + "/.freedom-keys.intent"
    let written = try #require(text(record))
    try put(record, "freedom-keys intent 9\n")
    let before = tree(dir)
    for way in 0..<3 {
      #expect(Self.refusal(dir, way) != nil, "open \(way)")
      #expect(tree(dir) == before)
    }
    // The advice followed: the record moved away.
    #expect(rename(record, root.file("moved-away")) == 0)
    let moved = tree(dir)
    #expect(moved.contains(".freedom-keys.old/0/log"))
    for way in 0..<3 {
      let error = try #require(Self.refusal(dir, way), "open \(way)")
      #expect(error.code == .recovery)
      #expect(error.message.contains(dir + "/.freedom-keys.old"), "\(error.message)")
      #expect(!error.message.contains("\n"))
      #expect(tree(dir) == moved)
    }
    #expect(text(dir + "/.freedom-keys.old/0/log") == "state of B")
    // The record put back: the undo is undone, B whole with its state.
    try put(record, written)
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    next.close()
    #expect(Self.owner(dir) == "B")
    #expect(text(dir + "/" + Self.keptA + "/statestore/log") == "state of A")
    #expect(Self.transactionEntries(dir) == [])
  }

  /// Killed before its record was written, an undo leaves no backup behind: the backup it
  /// would keep B in was made only after the record (an empty one, numbered last, would be
  /// what the next undo takes), and the next open discards what it staged.
  @Test func aKillBeforeTheRecordLeavesNoEmptyBackup() throws {
    let root = try TemporaryDirectory()
    let dir = try Self.nodeOfBWithState(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.killPoint = "record"
    #expect(throws: NodeFileError.self) { try node.restore("a", keepingCurrentIn: Self.keptB) }
    node.close()
    #expect(try root.contents("node/.freedom-keys.replaced") == ["a"])
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    #expect(Self.transactionEntries(dir) == [])
    try next.restore("a", keepingCurrentIn: Self.keptB)
    next.close()
    #expect(Self.owner(dir) == "A")
    #expect(text(dir + "/" + Self.keptB + "/statestore/log") == "state of B")
  }

  /// An empty aside directory without a record is a leftover like the staging directory.
  @Test func anEmptyAsideDirectoryWithoutARecordIsALeftover() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    try makeDirectory(dir + "/.freedom-keys.old")
    try makeDirectory(dir + "/.freedom-keys.new/0")
    try put(dir + "/.freedom-keys.new/0/swarm.key", "key of B")
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.close()
    #expect(Self.transactionEntries(dir) == [])
    #expect(identity(dir) == "A")
  }
}

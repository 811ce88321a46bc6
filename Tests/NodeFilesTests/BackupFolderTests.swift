import CryptoPrimitives
import Foundation
import Glibc
import TestSupport
import Testing

@testable import NodeFiles

/// The change that makes a node of B A's again.
func changeToA(backup: String? = nil) -> NodeChange {
  NodeChange(
    files: [
      .init("config.yaml", SecureBytes(utf8: "password: A")),
      .init("keys/swarm.key", SecureBytes(utf8: "key of A")),
    ],
    removing: testNode.identityState, backup: backup)
}

/// Issue 26, item 1: what is done after the commit (moving the old files into the backup
/// directory) can neither collide with an earlier backup nor, when it fails, block the
/// directory for later runs.
@Suite("NodeFiles: backups after the commit")
struct BackupFolderTests {
  /// Two changes that name the same backup directory (an export that replaces the same
  /// identity twice in one second): the second gets a name of its own, both are kept whole,
  /// and no record is left behind.
  @Test func aBackupNameIsNeverReused() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    let backup = ".freedom-keys.replaced/2026-12-01T10-00-00Z-0xa"
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    _ = try node.apply(changeToB(backup: backup))
    let back = try node.apply(changeToA(backup: backup))
    #expect(back.warnings == [])
    node.close()
    #expect(text(dir + "/keys/swarm.key") == "key of A")
    #expect(text(dir + "/config.yaml") == "password: A")
    let second = dir + "/" + backup + "-2"
    #expect(back.keptAside.map(\.backup) == [second + "/config.yaml", second + "/keys"])
    #expect(text(dir + "/" + backup + "/keys/swarm.key") == "key of A")
    #expect(text(second + "/keys/swarm.key") == "key of B")
    #expect(text(second + "/config.yaml") == "password: B")
    #expect(!tree(dir).contains { $0.hasPrefix(".freedom-keys.") && !$0.contains("replaced") })
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    next.close()
  }

  /// A clean-up that fails after the commit, and keeps failing at the next open (something in
  /// the way in the backup directory): the directory stays readable with a warning, a new
  /// change is refused with a reason (never "File exists"), and once the obstacle is gone the
  /// next open finishes the clean-up.
  @Test func aFailingCleanUpNeverBlocksTheDirectory() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    let backup = ".freedom-keys.replaced/2026-12-01T10-00-00Z-0xa"
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.faultInjection = { point throws(NodeFileError) in
      if point == "backup 0" { throw NodeFileError(.io, "disk gone") }
    }
    let result = try node.apply(changeToB(backup: backup))
    #expect(
      result.warnings == [
        "the new identity is in place, but disk gone; the next run on \(dir) retries"
      ])
    #expect(throws: NodeFileError.self) { try node.apply(changeToA()) }
    node.close()
    #expect(identity(dir) == "B")

    // Something now sits where the old statestore goes.
    try put(dir + "/" + backup + "/statestore", "in the way")
    let reading = try NodeDirectory.openForReading(dir, layout: testNode)
    let warnings = reading.takeWarnings()
    reading.close()
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix("the new identity is in place, but could not rename ") == true)
    let before = tree(dir)
    let writing = try NodeDirectory.open(dir, layout: testNode, create: false)
    #expect {
      try writing.apply(changeToA())
    } throws: { error in
      (error as? NodeFileError)?.code == .recovery
        && (error as? NodeFileError)?.message.hasPrefix(
          "\(dir) holds a change whose new identity is in place but whose old files are not yet "
            + "kept (") == true
    }
    writing.close()
    #expect(tree(dir) == before)
    #expect(identity(dir) == "B")

    #expect(unlink(dir + "/" + backup + "/statestore") == 0)
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    #expect(next.takeWarnings() == [])
    _ = try next.apply(changeToA())
    next.close()
    #expect(text(dir + "/" + backup + "/statestore/log") == "state of A")
    #expect(text(dir + "/" + backup + "/config.yaml") == "password: A")
    #expect(text(dir + "/" + backup + "/keys/pss.key") == "pss of A")
    #expect(!tree(dir).contains { $0.hasPrefix(".freedom-keys.") && !$0.contains("replaced") })
  }

  /// A change undone before its commit leaves no backup directory it made behind.
  @Test func anUndoneChangeLeavesNoBackupDirectory() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    try makeDirectory(dir + "/.freedom-keys.replaced")
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    node.faultInjection = { point throws(NodeFileError) in
      if point == "commit" { throw NodeFileError(.io, "disk gone") }
    }
    #expect(throws: NodeFileError(.io, "disk gone")) {
      try node.apply(changeToB(backup: ".freedom-keys.replaced/x"))
    }
    node.close()
    #expect(identity(dir) == "A")
    #expect(try root.contents("node/.freedom-keys.replaced") == [])

    let killed = try NodeDirectory.open(dir, layout: testNode, create: false)
    killed.killPoint = "step 1"
    #expect(throws: NodeFileError.self) {
      try killed.apply(changeToB(backup: ".freedom-keys.replaced/x"))
    }
    killed.close()
    #expect(try root.contents("node/.freedom-keys.replaced") == ["x"])
    let next = try NodeDirectory.open(dir, layout: testNode, create: false)
    next.close()
    #expect(identity(dir) == "A")
    #expect(try root.contents("node/.freedom-keys.replaced") == [])
  }
}

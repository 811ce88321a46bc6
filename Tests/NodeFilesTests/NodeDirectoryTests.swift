import CryptoPrimitives
import Foundation
import Glibc
import TestSupport
import Testing

@testable import NodeFiles

@Suite("NodeFiles: lock, transaction, recovery")
struct NodeDirectoryTests {
  static func write(_ path: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  static func read(_ path: String) -> String? {
    (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func intentRecordRoundTrips() throws {
    let record = IntentRecord(
      steps: [
        .init(kind: .aside, index: 0, path: "statestore", inode: 0, existed: true),
        .init(kind: .file, index: 1, path: "password", inode: 42, existed: false),
        .init(kind: .dir, index: 2, path: "keys", inode: 43, existed: true),
      ], version: 1)
    #expect(
      record.text
        == "freedom-keys intent 1\naside 0 statestore\nfile 1 password 42 new\n"
        + "dir 2 keys 43 old\nend\n")
    #expect(IntentRecord(text: record.text) == record)
    // A path outside the directory, a truncated record, a gap in the steps: not ours to act on.
    #expect(IntentRecord(text: "freedom-keys intent 1\naside 0 ../etc\nend\n") == nil)
    #expect(IntentRecord(text: "freedom-keys intent 1\naside 0 statestore\n") == nil)
    #expect(IntentRecord(text: "freedom-keys intent 1\naside 1 statestore\nend\n") == nil)
  }

  @Test func staleTemporaryNames() {
    #expect(NodeLayout.radicle.isStaleTemporary(".radicle.tmp-0123456789ab", in: "keys"))
    #expect(NodeLayout.kubo.isStaleTemporary(".config.tmp-a1b2c3d4e5f6", in: nil))
    #expect(NodeLayout.kubo.isStaleTemporary("..freedom-keys.intent.tmp-a1b2c3d4e5f6", in: nil))
    #expect(!NodeLayout.kubo.isStaleTemporary(".config.tmp-a1b2c3d4e5f", in: nil))
    #expect(!NodeLayout.kubo.isStaleTemporary(".notes.tmp-a1b2c3d4e5f6", in: nil))
    #expect(!NodeLayout.radicle.isStaleTemporary(".radicle.tmp-0123456789ab", in: nil))
  }

  @Test func aFailureWhileStagingChangesNothing() throws {
    let root = try TemporaryDirectory()
    let dir = root.file("bee")
    try FileManager.default.createDirectory(
      atPath: dir + "/keys", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: dir + "/statestore", withIntermediateDirectories: true)
    try Self.write(dir + "/keys/swarm.key", "old key")
    try Self.write(dir + "/keys/pss.key", "old pss")
    try Self.write(dir + "/statestore/log", "old state")
    // A subdirectory in keys/ cannot be carried into the new keys/: the change must fail
    // after staging, with nothing changed.
    try FileManager.default.createDirectory(
      atPath: dir + "/keys/odd", withIntermediateDirectories: true)
    let node = try NodeDirectory.open(dir, layout: .bee, create: false)
    let change = NodeChange(
      files: [
        .init("password", SecureBytes(utf8: "pw\n")),
        .init("keys/swarm.key", SecureBytes(utf8: "new")),
      ],
      removing: ["statestore", "keys/pss.key"])
    #expect(throws: NodeFileError.self) { try node.apply(change) }
    node.close()
    #expect(Self.read(dir + "/keys/swarm.key") == "old key")
    #expect(Self.read(dir + "/keys/pss.key") == "old pss")
    #expect(Self.read(dir + "/statestore/log") == "old state")
    #expect(try root.contents("bee") == ["keys", "statestore"])
  }

  @Test func aChangeReplacesTheIdentityDirectoryWhole() throws {
    let root = try TemporaryDirectory()
    let dir = root.file("bee")
    try FileManager.default.createDirectory(
      atPath: dir + "/keys", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: dir + "/statestore", withIntermediateDirectories: true)
    try Self.write(dir + "/keys/swarm.key", "old key")
    try Self.write(dir + "/keys/pss.key", "old pss")
    try Self.write(dir + "/keys/extra", "kept")
    let node = try NodeDirectory.open(dir, layout: .bee, create: false)
    let result = try node.apply(
      NodeChange(
        files: [.init("keys/swarm.key", SecureBytes(utf8: "new"), mode: 0o600)],
        removing: NodeLayout.bee.identityState))
    node.close()
    #expect(Self.read(dir + "/keys/swarm.key") == "new")
    #expect(Self.read(dir + "/keys/extra") == "kept")
    #expect(try root.contents("bee") == ["keys"])
    #expect(try root.contents("bee/keys") == ["extra", "swarm.key"])
    #expect(Set(result.removed) == [dir + "/statestore", dir + "/keys/pss.key"])
    #expect(permissions(dir + "/keys") == 0o700)
  }

  @Test func aHeldLockMakesTheSecondOpenWaitThenFail() throws {
    let root = try TemporaryDirectory()
    let first = try NodeDirectory.open(root.path, layout: .ant, create: false)
    do {
      _ = try NodeDirectory.open(root.path, layout: .ant, create: false, timeout: 0.2)
      Issue.record("the second open got the lock")
    } catch {
      #expect(error.code == .busy)
      #expect(
        error.message
          == "another process is changing \(root.path) — wait for it to finish and try again")
    }
    first.close()
    let second = try NodeDirectory.open(root.path, layout: .ant, create: false, timeout: 0.2)
    second.close()
    #expect(try root.contents() == [])
  }
}

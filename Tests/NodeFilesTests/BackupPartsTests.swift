import CryptoPrimitives
import Foundation
import TestSupport
import Testing

@testable import NodeFiles

/// A change spanning two nested folders (a desktop profile's `Profiles/<id>` and `R/<slot>`
/// below its app root): one record and commit mark at the root, each folder keeping its own
/// backup.
let spanningNode = NodeLayout(
  name: "profile", files: ["user/config.yaml", "home/keys/radicle"],
  identityDirectory: "home/keys", identityState: [], parts: ["user", "home"])

private func change(_ who: String, backup: String?) -> NodeChange {
  NodeChange(
    files: [
      .init("user/config.yaml", SecureBytes(utf8: "password: " + who)),
      .init("home/keys/radicle", SecureBytes(utf8: "key of " + who)),
    ], backup: backup)
}

@Suite("NodeFiles: a change across folders that keep their own backups")
struct BackupPartsTests {
  func spanningRoot(_ temporary: TemporaryDirectory) throws -> String {
    let root = temporary.path + "/root"
    try FileManager.default.createDirectory(
      atPath: root + "/home/keys", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: root + "/user", withIntermediateDirectories: true)
    try put(root + "/user/config.yaml", "password: A")
    try put(root + "/home/keys/radicle", "key of A")
    return root
  }

  func who(_ root: String) -> [String?] {
    [text(root + "/user/config.yaml"), text(root + "/home/keys/radicle")]
  }

  @Test func eachFolderKeepsItsOwnPartAndOneUndoPutsBothBack() throws {
    let temporary = try TemporaryDirectory()
    let root = try spanningRoot(temporary)
    let node = try NodeDirectory.open(root, layout: spanningNode, create: false)
    let result = try node.apply(change("B", backup: ".freedom-keys.replaced/x"))
    node.close()
    #expect(who(root) == ["password: B", "key of B"])
    #expect(text(root + "/user/.freedom-keys.replaced/x/config.yaml") == "password: A")
    #expect(text(root + "/home/.freedom-keys.replaced/x/keys/radicle") == "key of A")
    #expect(!FileManager.default.fileExists(atPath: root + "/.freedom-keys.replaced"))
    #expect(
      Set(result.keptAside.map(\.backup)) == [
        root + "/user/.freedom-keys.replaced/x/config.yaml",
        root + "/home/.freedom-keys.replaced/x/keys",
      ])

    let undo = try NodeDirectory.open(root, layout: spanningNode, create: false)
    let plan = try undo.planRestore("x")
    #expect(plan.restored == [root + "/home/keys", root + "/user/config.yaml"])
    try undo.restore("x", keepingCurrentIn: ".freedom-keys.replaced/y")
    undo.close()
    #expect(who(root) == ["password: A", "key of A"])
    #expect(text(root + "/user/.freedom-keys.replaced/y/config.yaml") == "password: B")
    #expect(text(root + "/home/.freedom-keys.replaced/y/keys/radicle") == "key of B")
    #expect(!FileManager.default.fileExists(atPath: root + "/home/.freedom-keys.replaced/x"))
    #expect(!FileManager.default.fileExists(atPath: root + "/user/.freedom-keys.replaced/x"))
  }

  @Test func aChangeKilledAfterItsCommitIsFinishedIntoEachFolder() throws {
    let temporary = try TemporaryDirectory()
    let root = try spanningRoot(temporary)
    let node = try NodeDirectory.open(root, layout: spanningNode, create: false)
    node.killPoint = "clean-up"
    #expect(throws: NodeFileError.self) {
      try node.apply(change("B", backup: ".freedom-keys.replaced/x"))
    }
    node.close()
    let record = try #require(text(root + "/.freedom-keys.intent"))
    #expect(record.contains("\npart user\npart home\n"))
    // The next open finishes it from the record alone, whatever layout it is opened with.
    let next = try NodeDirectory.open(root, layout: testNode, create: false)
    next.close()
    #expect(who(root) == ["password: B", "key of B"])
    #expect(text(root + "/user/.freedom-keys.replaced/x/config.yaml") == "password: A")
    #expect(text(root + "/home/.freedom-keys.replaced/x/keys/radicle") == "key of A")
  }

  @Test func aChangeKilledBeforeItsCommitIsUndoneInBothFolders() throws {
    let temporary = try TemporaryDirectory()
    let root = try spanningRoot(temporary)
    let node = try NodeDirectory.open(root, layout: spanningNode, create: false)
    // Killed after the first folder's file is in place, before the second's swap.
    node.killPoint = "step 1"
    #expect(throws: NodeFileError.self) {
      try node.apply(change("B", backup: ".freedom-keys.replaced/x"))
    }
    node.close()
    #expect(text(root + "/user/config.yaml") == "password: B")
    let next = try NodeDirectory.open(root, layout: testNode, create: false)
    next.close()
    #expect(who(root) == ["password: A", "key of A"])
    // The backup folders the change made for it are gone again.
    #expect(!FileManager.default.fileExists(atPath: root + "/user/.freedom-keys.replaced/x"))
    #expect(!FileManager.default.fileExists(atPath: root + "/home/.freedom-keys.replaced/x"))
    #expect(!FileManager.default.fileExists(atPath: root + "/.freedom-keys.intent"))
  }

  @Test func partLinesRoundTripAndStrangeOnesAreRefused() {
    let record = IntentRecord(
      steps: [.init(kind: .file, index: 0, path: "user/a", inode: 7, existed: true)],
      backup: ".freedom-keys.replaced/x", parts: ["user", "R/2"])
    #expect(record.text.hasSuffix("backup .freedom-keys.replaced/x\npart user\npart R/2\nend\n"))
    #expect(IntentRecord(text: record.text) == record)
    #expect(record.location(of: "user/a", in: "b") == "user/b/a")
    #expect(record.location(of: "R/2/keys", in: "b") == "R/2/b/keys")
    #expect(record.location(of: "other", in: "b") == "b/other")
    for bad in [
      "freedom-keys intent 2\naside 0 a\npart ../x\nend\n",
      "freedom-keys intent 2\naside 0 a\npart x\npart x\nend\n",
      "freedom-keys intent 2\npart x\naside 0 a\nend\n",
      "freedom-keys intent 2\naside 0 a\npart .freedom-keys.old\nend\n",
    ] {
      #expect(IntentRecord(text: bad) == nil, "\(bad)")
    }
  }
}

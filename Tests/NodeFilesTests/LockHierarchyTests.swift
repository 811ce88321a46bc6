import CryptoPrimitives
import Foundation
import Glibc
import TestSupport
import Testing

@testable import NodeFiles

private let installation = NodeLayout(
  name: "installation", files: ["ant-data/keys/swarm.key", "ant-data/config.yaml"],
  identityDirectory: nil, identityState: ["ant-data/statestore"])

private func failure(_ body: () throws(NodeFileError) -> Void) -> NodeFileError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}

@Suite("NodeFiles: nested node directories")
struct LockHierarchyTests {
  /// A nested directory this user cannot write does not stop a change of the enclosing one
  /// (a root-owned bee-data left in a userData); a change to it fails cleanly, never a crash.
  @Test func anUnwritableNestedDirectoryIsReadThrough() throws {
    guard getuid() != 0 else {
      try Test.cancel("root writes a 0500 directory; this runs as a plain user")
    }
    let root = try TemporaryDirectory()
    let user = root.file("U")
    try makeDirectory(user + "/bee-data")
    #expect(chmod(user + "/bee-data", 0o500) == 0)
    defer { chmod(user + "/bee-data", 0o700) }
    let whole = try NodeDirectory.open(
      user, layout: installation, create: false,
      nested: [.init(user + "/bee-data", layout: testNode)])
    defer { whole.close() }
    let nested = try #require(whole.nested(user + "/bee-data"))
    let error = failure { () throws(NodeFileError) in
      try nested.apply(NodeChange(files: [.init("keys/swarm.key", SecureBytes(utf8: "x"))]))
    }
    #expect(error?.message.contains("cannot lock \(user)/bee-data") == true)
    #expect(try root.contents("U/bee-data") == [])
  }

  /// Issue 15: `export freedom` of U and `export antd` of U/ant-data ran at once. Opening
  /// ant-data inside U takes U's lock first, so it waits for the whole-installation change.
  @Test func anEnclosingDirectorysLockIsTakenFirst() throws {
    let root = try TemporaryDirectory()
    let user = root.file("U")
    try makeDirectory(user + "/ant-data")
    let whole = try NodeDirectory.open(user, layout: installation, create: false)
    let error = failure { () throws(NodeFileError) in
      _ = try NodeDirectory.open(
        user + "/ant-data", layout: testNode, create: false,
        enclosing: [.init(user, layout: installation)], timeout: 0.2)
    }
    #expect(error?.code == .busy)
    #expect(error?.message.contains(user + " ") == true, "\(String(describing: error))")
    let reading = failure { () throws(NodeFileError) in
      _ = try NodeDirectory.openForReading(
        user + "/ant-data", layout: testNode, enclosing: [.init(user, layout: installation)])
    }
    #expect(reading?.code == .busy)
    whole.close()
    let antd = try NodeDirectory.open(
      user + "/ant-data", layout: testNode, create: false,
      enclosing: [.init(user, layout: installation)], timeout: 0.2)
    // Both locks are held until close.
    #expect(
      failure { () throws(NodeFileError) in
        _ = try NodeDirectory.open(user, layout: installation, create: false, timeout: 0.2)
      }?.code == .busy)
    antd.close()
    #expect(tree(user) == ["ant-data"])
  }

  /// `--radicle-home U/` inside U: the same directory twice is locked once, never against
  /// itself.
  @Test func theSameDirectoryTwiceIsLockedOnce() throws {
    let root = try TemporaryDirectory()
    let user = root.file("U")
    try makeDirectory(user)
    let node = try NodeDirectory.open(
      user, layout: installation, create: false,
      enclosing: [.init(user + "/", layout: testNode), .init(user, layout: testNode)],
      nested: [.init(user + "/.", layout: testNode)], timeout: 0.2)
    #expect(node.nested(user + "/.") != nil)
    try node.nested(user + "/.")!.apply(
      NodeChange(files: [.init("config.yaml", SecureBytes(utf8: "c"))]))
    node.close()
    #expect(text(user + "/config.yaml") == "c")
    #expect(tree(user) == ["config.yaml"])
  }

  /// A composed change locks and recovers the nested directories up front: an interrupted
  /// change in U/ant-data is undone before anything is read, and a concurrent open of
  /// ant-data waits until the whole change is closed.
  @Test func nestedDirectoriesAreLockedAndRecoveredUpFront() throws {
    let root = try TemporaryDirectory()
    let user = root.file("U")
    try makeDirectory(user)
    let antd = try nodeOfA(root, "U/ant-data")
    try makeDirectory(antd + "/.freedom-keys.old")
    #expect(rename(antd + "/statestore", antd + "/.freedom-keys.old/0") == 0)
    try put(antd + "/.freedom-keys.intent", "freedom-keys intent 2\naside 0 statestore\nend\n")
    let node = try NodeDirectory.open(
      user, layout: installation, create: false, nested: [.init(antd, layout: testNode)])
    #expect(
      node.recoveryNote
        == "undid an interrupted change in \(antd): the old identity is back in place")
    #expect(identity(antd) == "A")
    #expect(
      failure { () throws(NodeFileError) in
        _ = try NodeDirectory.open(antd, layout: testNode, create: false, timeout: 0.2)
      }?.code == .busy)
    try node.nested(antd)!.apply(changeToB())
    node.close()
    #expect(identity(antd) == "B")
    #expect(tree(user) == ["ant-data"] + tree(antd).map { "ant-data/" + $0 })
  }

  /// The enclosing directory's interrupted change is recovered before the inner one is read,
  /// whichever command comes.
  @Test func anEnclosingRecordIsRecoveredFirst() throws {
    let root = try TemporaryDirectory()
    let user = root.file("U")
    let antd = try nodeOfA(root, "U/ant-data")
    try makeDirectory(user + "/.freedom-keys.old")
    #expect(rename(antd + "/statestore", user + "/.freedom-keys.old/0") == 0)
    try put(
      user + "/.freedom-keys.intent", "freedom-keys intent 2\naside 0 ant-data/statestore\nend\n")
    let node = try NodeDirectory.openForReading(
      antd, layout: testNode, enclosing: [.init(user, layout: installation)])
    node.close()
    #expect(node.recoveryNote?.contains("undid an interrupted change in \(user):") == true)
    #expect(identity(antd) == "A")
    #expect(!tree(user).contains { $0.contains(".freedom-keys") })
  }
}

@Suite("NodeFiles: a daemon's lock")
struct DaemonLockTests {
  @Test func aProbeTellsHeldFromFreeAndNeverWaits() throws {
    let root = try TemporaryDirectory()
    #expect(try DaemonLock.probe(directory: root.path, name: "antd.lock") == .free)
    #expect(try root.contents() == [])
    let path = root.file("antd.lock")
    try put(path, "")
    #expect(try DaemonLock.probe(directory: root.path, name: "antd.lock") == .free)
    let held = open(path, O_RDWR)
    #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
    #expect(try DaemonLock.probe(directory: root.path, name: "antd.lock") == .held)
    close(held)
    #expect(try DaemonLock.probe(directory: root.path, name: "antd.lock") == .free)
  }

  /// Issue 19: a FIFO named antd.lock hung `export antd` forever.
  @Test func aFIFOOrALinkIsAnUnexpectedFile() throws {
    let root = try TemporaryDirectory()
    let path = root.file("antd.lock")
    #expect(mkfifo(path, 0o600) == 0)
    #expect(
      try DaemonLock.probe(directory: root.path, name: "antd.lock")
        == .unexpectedFile(kind: "a FIFO"))
    unlink(path)
    try put(root.file("real.lock"), "")
    #expect(symlink(root.file("real.lock"), path) == 0)
    #expect(
      try DaemonLock.probe(directory: root.path, name: "antd.lock")
        == .unexpectedFile(kind: "a symbolic link"))
    let node = try NodeDirectory.open(root.path, layout: testNode, create: false)
    defer { node.close() }
    #expect(
      try DaemonLock.probe(in: node, at: "antd.lock") == .unexpectedFile(kind: "a symbolic link"))
  }

  /// kubo's kind: an fcntl write lock, taken and kept, and without a file, no lock and no file
  /// made. (Another process holding it, named by its id, is ExportKuboTests'.)
  @Test func aRecordLockIsTakenOnlyWhereTheFileIs() throws {
    let root = try TemporaryDirectory()
    let path = root.file("repo.lock")
    guard case .noFile = try DaemonLock.take(path: path) else {
      Issue.record("a lock was taken without a file")
      return
    }
    #expect(try root.contents() == [])
    try put(path, "")
    guard case .taken(let lock) = try DaemonLock.take(path: path) else {
      Issue.record("the free lock was not taken")
      return
    }
    withExtendedLifetime(lock) {}
  }
}

import CryptoPrimitives
import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import NodeFiles

/// The error `body` throws, or nil.
private func failure(_ body: () throws(NodeFileError) -> Void) -> NodeFileError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}

/// Opens `path` for writing from another thread after a while, so that a test of code that
/// would block opening a FIFO ends (and fails) instead of hanging forever.
private func unblock(_ path: String) {
  for seconds in stride(from: 20, through: 80, by: 20) {
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
      let fd = open(path, O_WRONLY | O_NONBLOCK)
      if fd >= 0 { close(fd) }
    }
  }
}

@Suite("NodeFiles: recovery trusts nothing it finds")
struct HostileDirectoryTests {
  /// Issue 15: a FIFO named .freedom-keys.intent hung every export and verify, holding the lock.
  @Test func aFIFORecordIsRefusedWithoutWaiting() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    let record = dir + "/.freedom-keys.intent"
    #expect(mkfifo(record, 0o600) == 0)
    unblock(record)
    for reading in [false, true] {
      let error = failure { () throws(NodeFileError) in
        _ =
          reading
          ? try NodeDirectory.openForReading(dir, layout: testNode)
          : try NodeDirectory.open(dir, layout: testNode, create: false)
      }
      #expect(error?.code == .recovery)
      #expect(
        error?.message.hasPrefix("\(record) is a FIFO, not a regular file; it was left in place")
          == true, "\(String(describing: error))")
    }
    var info = stat()
    #expect(lstat(record, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    #expect(identity(dir) == "A")
  }

  /// A record freedom-keys did not write (another mode, another owner) is never acted on.
  @Test func aRecordOfTheWrongModeOrOwnerIsLeftInPlace() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    try makeDirectory(dir + "/.freedom-keys.old")
    #expect(rename(dir + "/statestore", dir + "/.freedom-keys.old/0") == 0)
    let record = dir + "/.freedom-keys.intent"
    try put(record, "freedom-keys intent 2\naside 0 statestore\nend\n", mode: 0o644)
    let error = failure { () throws(NodeFileError) in
      _ = try NodeDirectory.open(dir, layout: testNode, create: false)
    }
    #expect(error?.code == .recovery)
    #expect(
      error?.message.hasPrefix("\(record) has mode 644, not 600; it was left in place") == true)
    #expect(text(dir + "/.freedom-keys.old/0/log") == "state of A")
    if geteuid() == 0 {
      #expect(chmod(record, 0o600) == 0 && chown(record, 65534, 65534) == 0)
      let owned = failure { () throws(NodeFileError) in
        _ = try NodeDirectory.open(dir, layout: testNode, create: false)
      }
      #expect(owned?.message.hasPrefix("\(record) is owned by user 65534") == true)
      #expect(text(dir + "/.freedom-keys.old/0/log") == "state of A")
    }
  }

  /// Issue 15: a planted record plus a `.freedom-keys.new` symlink made verify swap the user's
  /// keys/ out into another directory. Now refused, nothing moved.
  @Test func aStagingSymlinkIsRefusedAndNothingMovesOut() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    let elsewhere = root.file("elsewhere")
    try makeDirectory(elsewhere + "/0")
    try put(elsewhere + "/0/swarm.key", "planted key")
    #expect(symlink(elsewhere, dir + "/.freedom-keys.new") == 0)
    try put(
      dir + "/.freedom-keys.intent",
      "freedom-keys intent 1\ndir 0 keys \(inode(dir + "/keys")) old\nfile 1 config.yaml 1 old\n"
        + "end\n")
    let error = failure { () throws(NodeFileError) in
      _ = try NodeDirectory.openForReading(dir, layout: testNode)
    }
    #expect(error?.code == .recovery)
    #expect(
      error?.message.hasPrefix(
        "\(dir)/.freedom-keys.new is a symbolic link, not a directory this program made") == true,
      "\(String(describing: error))")
    #expect(identity(dir) == "A")
    #expect(tree(elsewhere) == ["0", "0/swarm.key"])
    #expect(text(elsewhere + "/0/swarm.key") == "planted key")
  }

  /// Issue 15: `export freedom --force` followed `ant-data/keys` when it was a symlink and wrote
  /// and deleted outside userData. The change is refused; nothing outside is touched.
  @Test func aSymlinkBelowTheDirectoryIsNeverFollowed() throws {
    let root = try TemporaryDirectory()
    let dir = root.file("userData")
    let outside = root.file("outside")
    try makeDirectory(dir + "/ant-data")
    try makeDirectory(outside)
    try put(outside + "/swarm.key", "someone else's key")
    try put(outside + "/pss.key", "someone else's pss")
    #expect(symlink(outside, dir + "/ant-data/keys") == 0)
    let layout = NodeLayout(
      name: "installation", files: ["ant-data/keys/swarm.key", "ant-data/config.yaml"],
      identityDirectory: nil, identityState: ["ant-data/keys/pss.key"])
    let node = try NodeDirectory.open(dir, layout: layout, create: false)
    let error = failure { () throws(NodeFileError) in
      try node.apply(
        NodeChange(
          files: [
            .init("ant-data/config.yaml", SecureBytes(utf8: "password: B")),
            .init("ant-data/keys/swarm.key", SecureBytes(utf8: "key of B")),
          ], removing: ["ant-data/keys/pss.key"]))
    }
    node.close()
    #expect(error?.code == .unexpectedFile)
    #expect(
      error?.message
        == "\(dir)/ant-data/keys is a symbolic link; links inside \(dir) are not followed"
    )
    #expect(tree(outside) == ["pss.key", "swarm.key"])
    #expect(text(outside + "/swarm.key") == "someone else's key")
    #expect(text(outside + "/pss.key") == "someone else's pss")
    #expect(tree(dir) == ["ant-data", "ant-data/keys"])

    // The identity directory itself as a link: refused too.
    let bee = try nodeOfA(root, "bee")
    try FileManager.default.removeItem(atPath: bee + "/keys")
    #expect(symlink(outside, bee + "/keys") == 0)
    let beeNode = try NodeDirectory.open(bee, layout: testNode, create: false)
    let beeError = failure { () throws(NodeFileError) in try beeNode.apply(changeToB()) }
    beeNode.close()
    #expect(beeError?.code == .unexpectedFile)
    #expect(tree(outside) == ["pss.key", "swarm.key"])
    #expect(text(bee + "/statestore/log") == "state of A")
  }

  /// Run as root into a directory another user owns, everything created is that user's:
  /// missing parents, keys/, files, the backup directory.
  @Test func rootHandsEverythingItCreatesToTheDirectorysOwner() throws {
    guard geteuid() == 0 else {
      try Test.cancel("needs root to create files for another user")
    }
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    for path in tree(dir).map({ dir + "/" + $0 }) + [dir] {
      #expect(lchown(path, 65534, 65534) == 0)
    }
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    var change = changeToB(backup: ".freedom-keys.replaced/now")
    change.files.append(.init("radicle-data/keys/radicle", SecureBytes(utf8: "radicle key")))
    try node.apply(change)
    node.close()
    for relative in tree(dir) {
      var info = stat()
      #expect(lstat(dir + "/" + relative, &info) == 0)
      #expect(info.st_uid == 65534 && info.st_gid == 65534, "\(relative) is \(info.st_uid)")
    }
    #expect(tree(dir).contains("radicle-data/keys/radicle"))
    #expect(tree(dir).contains(".freedom-keys.replaced/now/keys/pss.key"))
  }
}

import Foundation
import Glibc
import Testing

/// Every file below `directory` with its mode and bytes (directories and links too), to tell
/// that a run wrote nothing at all.
func snapshot(_ directory: String) -> [String] {
  tree(directory).map { name in
    let path = directory + "/" + name
    var info = stat()
    guard lstat(path, &info) == 0 else { return name + " (gone)" }
    let bytes = (info.st_mode & S_IFMT) == S_IFREG ? contents(path) ?? [] : []
    return "\(name) \(String(info.st_mode, radix: 8)) \(info.st_ino) \(bytes)"
  }
}

/// Issue 26, item 8: `freedom-keys undo DIR` puts back what the last change kept aside.
@Suite("undo")
struct UndoTests {
  /// One kind of node directory an export writes: how to export into it and verify it.
  struct Kind: CustomTestStringConvertible, Sendable {
    let name: String
    let export: [String]
    let verify: String
    var testDescription: String { name }
  }

  static let kinds = [
    Kind(
      name: "bee", export: ["export", "bee", "--scrypt-n", "1024", "--data-dir"],
      verify: "--bee-dir"),
    Kind(name: "antd", export: ["export", "antd", "--data-dir"], verify: "--antd-dir"),
    Kind(name: "ant", export: ["export", "ant", "--data-dir"], verify: "--ant-dir"),
    Kind(name: "radicle", export: ["export", "radicle", "--home"], verify: "--radicle-home"),
    Kind(name: "kubo", export: ["export", "kubo", "--repo"], verify: "--kubo-repo"),
    Kind(name: "freedom", export: ["export", "freedom", "--user-data"], verify: "--freedom-dir"),
  ]

  /// The directory of `kind`, exported with A (abandon…) and then with B (--force), so that
  /// its one backup holds A.
  func changedToB(_ fixture: ExportFixture, _ kind: Kind) throws -> String {
    var dir = fixture.path(kind.name)
    var first = kind.export + [dir]
    if kind.name == "kubo" { dir = try ExportKuboTests().repository(fixture) }
    if kind.name == "kubo" { first = kind.export + [dir] }
    if kind.name == "freedom" { first.append("--create") }
    let a = try fixture.run(first)
    try #require(a.status == 0, "\(a.stderr)")
    let b = try fixture.run(kind.export + [dir, "--force"], other: true)
    try #require(b.status == 0, "\(b.stderr)")
    try #require(try verifies(fixture, kind, dir, other: true))
    return dir
  }

  func verifies(_ fixture: ExportFixture, _ kind: Kind, _ dir: String, other: Bool) throws -> Bool {
    try fixture.run(["verify", kind.verify, dir], other: other).status == 0
  }

  /// Export A, export B --force, undo: A verifies and B is kept aside and named; a second undo
  /// brings B back, and nothing of A is lost either way.
  @Test(arguments: kinds)
  func undoPutsBackTheLastBackupAndAnUndoIsUndone(kind: Kind) throws {
    let fixture = try ExportFixture()
    let dir = try changedToB(fixture, kind)
    let replaced = dir + "/" + NodeLayoutNames.replaced
    let kept = try FileManager.default.contentsOfDirectory(atPath: replaced)
    try #require(kept.count == 1)

    let undo = try CLI.run(["undo", dir])
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(undo.stderr == "")
    #expect(undo.stdout.hasPrefix("Put back \(replaced)/\(kept[0]) in the "), "\(undo.stdout)")
    #expect(try verifies(fixture, kind, dir, other: false), "\(kind.name): A is back")
    #expect(try !verifies(fixture, kind, dir, other: true))
    // The backup put back is gone (emptied); B is kept in a new one, which the output names.
    let now = try FileManager.default.contentsOfDirectory(atPath: replaced)
    try #require(now.count == 1)
    #expect(now[0] != kept[0])
    #expect(now[0].hasSuffix("-undo") || now[0].contains("-undo-"), "\(now[0])")
    #expect(undo.stdout.contains("Kept what was in place in \(replaced)/\(now[0]): "))

    let again = try CLI.run(["undo", dir, "--json"])
    #expect(again.status == 0, "\(again.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
    #expect(object?["backups"] as? [String] == [replaced + "/" + now[0]])
    #expect(object?["changed"] as? Bool == true)
    #expect((object?["keptAside"] as? [Any])?.isEmpty == false)
    #expect(try verifies(fixture, kind, dir, other: true), "\(kind.name): B is back")
    #expect(try FileManager.default.contentsOfDirectory(atPath: replaced).count == 1)
    #expect(!tree(dir).contains { $0.hasPrefix(".freedom-keys.") && !$0.contains("replaced") })
  }

  /// A, then B and A again with --force, as fast as a script runs them (one second, so the
  /// backups' times are equal and their labels sort the other way): undo takes the newest
  /// backup, B's, not A's.
  @Test func undoTakesTheNewestBackupWhateverTheirNames() throws {
    let fixture = try ExportFixture()
    let kind = Self.kinds[0]
    let dir = try changedToB(fixture, kind)
    let back = try fixture.run(kind.export + [dir, "--force"])
    try #require(back.status == 0, "\(back.stderr)")
    let replaced = dir + "/" + NodeLayoutNames.replaced
    try #require(try FileManager.default.contentsOfDirectory(atPath: replaced).count == 2)
    let undo = try CLI.run(["undo", dir])
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(try verifies(fixture, kind, dir, other: true), "B's backup is the newest")
    let second = try CLI.run(["undo", dir])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try verifies(fixture, kind, dir, other: false), "then the undo's own")
  }

  /// A catalog profile's Radicle home is `<appRoot>/R/<slot>`, outside its userData: the
  /// export kept its old key there, and undo puts it back with the rest (the whole
  /// installation verifies as A, then as B after a second undo).
  @Test func anInstallationsRadicleHomeOutsideItIsUndoneWithIt() throws {
    let fixture = try ExportFixture()
    let root = fixture.path("Freedom")
    try makeDirectory(root + "/Profiles/work")
    _ = try fixture.file("Freedom/profile-registry.json", ProfilesTests.registry)
    _ = try fixture.file("Freedom/profile.json", #"{"id": "default", "slot": 0}"#)
    let export = ["export", "freedom", "--freedom-dir", root, "--profile", "work"]
    let a = try fixture.run(export + ["--create"])
    try #require(a.status == 0, "\(a.stderr)")
    let b = try fixture.run(export + ["--force"], other: true)
    try #require(b.status == 0, "\(b.stderr)")
    let userData = root + "/Profiles/work"
    let verify = ["verify", "--freedom-dir", root, "--profile", "work"]
    try #require(try fixture.run(verify, other: true).status == 0)

    let undo = try CLI.run(["undo", userData])
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(undo.stdout.contains(root + "/R/2/keys"), "\(undo.stdout)")
    let afterUndo = try fixture.run(verify)
    #expect(afterUndo.status == 0, "\(afterUndo.stdout)\(afterUndo.stderr)")
    #expect(afterUndo.stdout.contains("match     \(Golden.radicleDID)"), "\(afterUndo.stdout)")
    let again = try CLI.run(["undo", userData])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try fixture.run(verify, other: true).status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root + "/R/2/" + NodeLayoutNames.replaced)
        .count == 1)
  }

  /// A dry run, as text and as JSON, leaves every byte, mode and inode as it was, and says
  /// what it would put back.
  @Test func aDryRunWritesNothing() throws {
    let fixture = try ExportFixture()
    let kind = Self.kinds[0]
    let dir = try changedToB(fixture, kind)
    let before = snapshot(dir)
    let text = try CLI.run(["undo", "--dry-run", dir])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.hasPrefix("Dry run, nothing was written; the undo would put back "))
    #expect(text.stdout.contains("restore     \(dir)/keys\n"), "\(text.stdout)")
    #expect(text.stdout.contains("keep aside  \(dir)/keys\n"), "\(text.stdout)")
    #expect(snapshot(dir) == before)
    let json = try CLI.run(["undo", "--dry-run", "--json", dir])
    #expect(json.status == 0, "\(json.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["dryRun"] as? Bool == true)
    #expect((object?["restored"] as? [String])?.contains(dir + "/keys") == true)
    #expect(snapshot(dir) == before)
    #expect(try verifies(fixture, kind, dir, other: true))
  }

  /// No backup at all, a directory that holds no node, a backup that does not match the
  /// directory's kind: exit 1, one line naming the problem, nothing on stdout, nothing written.
  @Test func nothingToUndoIsOneLineAndWritesNothing() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    #expect(
      try fixture.run(["export", "bee", "--scrypt-n", "1024", "--data-dir", dir]).status == 0)
    let before = snapshot(dir)
    for dryRun in [false, true] {
      let run = try CLI.run(["undo", dir] + (dryRun ? ["--dry-run"] : []))
      #expect(run.status == 1)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "freedom-keys: error: \(dir) holds no backup in \(NodeLayoutNames.replaced) to put "
          + "back: nothing to undo (an export with --force keeps what it replaces there)\n")
      #expect(snapshot(dir) == before)
    }

    let empty = fixture.path("empty")
    try makeDirectory(empty)
    let none = try CLI.run(["undo", empty])
    #expect(none.status == 1)
    #expect(none.stdout == "")
    #expect(none.stderr.hasPrefix("freedom-keys: error: \(empty) holds no node directory"))
    #expect(tree(empty) == [])
  }

  @Test func aBackupThatDoesNotMatchTheDirectoryIsRefused() throws {
    let fixture = try ExportFixture()
    let dir = try changedToB(fixture, Self.kinds[0])
    let replaced = dir + "/" + NodeLayoutNames.replaced
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: replaced).first)
    _ = try fixture.file("bee/\(NodeLayoutNames.replaced)/\(name)/notes.txt", "mine")
    let before = snapshot(dir)
    for dryRun in [false, true] {
      let run = try CLI.run(["undo", dir] + (dryRun ? ["--dry-run"] : []))
      #expect(run.status == 1)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "freedom-keys: error: \(replaced)/\(name)/notes.txt is not something kept aside "
          + "for a bee data directory: \(replaced)/\(name) does not match a bee data "
          + "directory and nothing was changed — put its files back by hand\n")
      #expect(snapshot(dir) == before)
    }
  }
}

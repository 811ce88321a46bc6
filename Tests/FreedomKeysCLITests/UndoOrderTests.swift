import Foundation
import Glibc
import Testing

/// Issue 35: `undo` orders backups by the directory's own sequence, not by the clock; it takes
/// `--profile` as the other desktop commands do; and a dry run checks the backup folder as its
/// export does.
@Suite("undo: the last change, a profile, a dry run that agrees")
struct UndoOrderTests {
  static let bee = UndoTests.kinds[0]

  /// `name` with its UTC time replaced by `time` (a backup made while the clock said so).
  static func retimed(_ name: String, _ time: String) throws -> String {
    let pattern = try Regex(#"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}-[0-9]{2}-[0-9]{2}Z"#)
    let match = try #require(name.firstMatch(of: pattern), "\(name)")
    return name.replacingCharacters(in: match.range, with: time)
  }

  /// A, B --force while the clock was a year ahead (its backup of A bears that time), then
  /// A --force after the clock stepped back (its backup of B bears today's): undo puts back
  /// the last change's backup, B, not the one with the newest time.
  @Test func aClockSteppedBackStillUndoesTheLastChange() throws {
    let fixture = try ExportFixture()
    let dir = try UndoTests().changedToB(fixture, Self.bee)
    let replaced = dir + "/" + NodeLayoutNames.replaced
    let first = try #require(try FileManager.default.contentsOfDirectory(atPath: replaced).first)
    let ahead = try Self.retimed(first, "2099-01-01T00-00-00Z")
    #expect(rename(replaced + "/" + first, replaced + "/" + ahead) == 0)
    let back = try fixture.run(Self.bee.export + [dir, "--force"])
    try #require(back.status == 0, "\(back.stderr)")
    try #require(try UndoTests().verifies(fixture, Self.bee, dir, other: false))

    let undo = try CLI.run(["undo", dir])
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(!undo.stdout.contains(ahead), "\(undo.stdout)")
    #expect(try UndoTests().verifies(fixture, Self.bee, dir, other: true), "B is back")
    // The undo's own backup is the newest now, whatever its time: a second undo gives A.
    let again = try CLI.run(["undo", dir])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try UndoTests().verifies(fixture, Self.bee, dir, other: false), "then A again")
    #expect(FileManager.default.fileExists(atPath: replaced + "/" + ahead + "/keys/swarm.key"))
  }

  /// `undo <appRoot> --profile work` undoes that profile (its userData and its Radicle home
  /// in R/<slot>) as `undo <appRoot>/Profiles/work` does; the dry run takes it too, and an
  /// empty one is a usage error.
  @Test func aProfileOfTheAppRootIsUndone() throws {
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
    let verify = ["verify", "--freedom-dir", root, "--profile", "work"]
    try #require(try fixture.run(verify, other: true).status == 0)
    let userData = root + "/Profiles/work"

    let before = snapshot(root)
    let dry = try CLI.run(["undo", root, "--profile", "work", "--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains(userData + "/" + NodeLayoutNames.replaced), "\(dry.stdout)")
    #expect(snapshot(root) == before)

    let undo = try CLI.run(["undo", root, "--profile", "work"])
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(undo.stdout.contains(root + "/R/2/keys"), "\(undo.stdout)")
    #expect(try fixture.run(verify).status == 0, "A is back in the profile")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root).contains(NodeLayoutNames.replaced)
        == false, "the default profile was not touched")

    let empty = try CLI.run(["undo", root, "--profile", ""])
    #expect(empty.status == 2)
    #expect(empty.stdout == "")
    let help = try CLI.run(["undo", "--help"])
    #expect(help.stdout.contains("--profile <id>"), "\(help.stdout)")
  }

  /// Round 3's case: a `.freedom-keys.replaced` the backup cannot go into (a file, a link, a
  /// folder that is not writable) is refused by the dry run as by the export, with one line
  /// naming it, and nothing written.
  @Test(arguments: ExportBackupTests.Planted.allCases)
  func aDryRunRefusesTheBackupFolderItsExportRefuses(planted: ExportBackupTests.Planted) throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    let first = try fixture.run(ExportBackupTests.bee + [dir])
    try #require(first.status == 0, "\(first.stderr)")
    let folder = dir + "/" + NodeLayoutNames.replaced
    let elsewhere = fixture.path("elsewhere")
    try makeDirectory(elsewhere)
    var undo: () -> Void = {}
    switch planted {
    case .regularFile: _ = try fixture.file("bee/" + NodeLayoutNames.replaced, "a file")
    case .symbolicLink: #expect(symlink(elsewhere, folder) == 0)
    case .unwritable:
      try makeDirectory(folder)
      guard let made = makeUnwritable(folder) else {
        try Test.cancel(Comment(rawValue: unwritableUnavailable))
      }
      undo = made
    }
    let before = try treeSnapshot(dir)
    let dry = try fixture.run(ExportBackupTests.bee + [dir, "--dry-run"], other: true)
    let export = try fixture.run(ExportBackupTests.bee + [dir], other: true)
    let after = try? treeSnapshot(dir)
    undo()
    for run in [dry, export] {
      #expect(run.status == 1, "\(run.stdout)")
      #expect(run.stdout == "")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      #expect(run.stderr.contains(folder), "\(run.stderr)")
    }
    #expect(after == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [])
  }
}

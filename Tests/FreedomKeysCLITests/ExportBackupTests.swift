import Foundation
import Glibc
import Testing

/// Issue 26, item 1: backups that cannot collide or block. Replacing the same identity twice
/// in one second reused the backup's name (time to the second, old identity): that export
/// exited 0 with its committed record left behind, and every later run failed "File exists".
/// A `.freedom-keys.replaced` that was a file, a link or unwritable was found only after the
/// commit, with the same end.
@Suite("export: backups that cannot collide or block")
struct ExportBackupTests {
  static let bee = ["export", "bee", "--scrypt-n", "1024", "--force", "--data-dir"]

  /// A, then B, A, B, … with --force as fast as a script runs them (each well under a second,
  /// so the same old identity is replaced twice in one second): every export succeeds and
  /// finishes, each keeps its own backup, and the directory verifies.
  @Test func replacingBackAndForthKeepsEveryBackup() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    let first = try fixture.run(Self.bee + [dir])
    try #require(first.status == 0, "\(first.stderr)")
    let rounds = 6
    for round in 1...rounds {
      let run = try fixture.run(Self.bee + [dir], other: round % 2 == 1)
      #expect(run.status == 0, "round \(round): \(run.stderr)")
      #expect(!run.stderr.contains("retries"), "round \(round): \(run.stderr)")
      #expect(
        !FileManager.default.fileExists(atPath: dir + "/.freedom-keys.intent"), "round \(round)")
    }
    let root = dir + "/" + NodeLayoutNames.replaced
    let backups = try FileManager.default.contentsOfDirectory(atPath: root)
    #expect(backups.count == rounds)
    for name in backups {
      #expect(
        FileManager.default.fileExists(atPath: root + "/" + name + "/keys/swarm.key"), "\(name)")
    }
    let verify = try fixture.run([
      "verify", "--bee-dir", dir, "--password-file", dir + "/password",
    ])
    #expect(verify.status == 0, "\(verify.stderr)")
    #expect(verify.stdout.contains("match     \(Golden.swarmAddress)"))
  }

  /// What `.freedom-keys.replaced` can be that a backup cannot go into.
  enum Planted: String, CaseIterable, CustomTestStringConvertible {
    case regularFile, symbolicLink, unwritable
    var testDescription: String { rawValue }
  }

  /// Found before the commit: the export is refused with one line naming the folder, and the
  /// directory is exactly as it was (the old identity verifies; a linked folder got nothing).
  @Test(arguments: Planted.allCases)
  func aBackupFolderThatCannotTakeTheBackupIsRefusedFirst(planted: Planted) throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("bee")
    let first = try fixture.run(Self.bee + [dir])
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

    let run = try fixture.run(Self.bee + [dir], other: true)
    // Taken before the folder is made writable again: as a user that is a chmod, which the
    // snapshot (modes included) would see.
    let after = try? treeSnapshot(dir)
    undo()
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(run.stderr.hasPrefix("freedom-keys: error: "))
    #expect(run.stderr.contains(folder), "\(run.stderr)")
    #expect(run.stderr.hasSuffix("; nothing in \(dir) was changed\n"), "\(run.stderr)")
    #expect(after == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [])
    let verify = try fixture.run([
      "verify", "--bee-dir", dir, "--password-file", dir + "/password",
    ])
    #expect(verify.status == 0, "\(verify.stderr)")
  }
}

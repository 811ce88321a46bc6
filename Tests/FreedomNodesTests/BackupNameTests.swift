import Foundation
import Testing

@testable import FreedomNodes

/// Issue 26, item 8: undo takes the newest backup, so backup names must order by when they
/// were made, whatever their labels; issue 35: by the directory's own sequence, whatever the
/// clock said.
@Suite("FreedomNodes: backup names")
struct BackupNameTests {
  static let second = Date(timeIntervalSince1970: 1_796_119_200)  // 2026-12-01T10:00:00Z
  static let replaced = ".freedom-keys.replaced/"

  /// Each backup is numbered one above the highest number the directories hold (issue 35:
  /// the directory's own sequence, not the clock), whatever the labels and times; the first
  /// is 0001, and names of older versions (no number) count as none.
  @Test func backupsAreNumberedAboveEveryOther() {
    #expect(
      NodeSession.backupName(label: "0xB", existing: [], at: Self.second)
        == Self.replaced + "0001-2026-12-01T10-00-00Z-0xB")
    let first = "0001-2026-12-01T10-00-00Z-0xB"
    let second = NodeSession.backupName(label: "0xA", existing: [first], at: Self.second)
    #expect(second == Self.replaced + "0002-2026-12-01T10-00-00Z-0xA")
    let third = NodeSession.backupName(
      label: "undo", existing: [first, "0002-2026-12-01T10-00-00Z-0xA"], at: Self.second)
    #expect(third == Self.replaced + "0003-2026-12-01T10-00-00Z-undo")
    #expect(
      NodeSession.backupName(
        label: "0xA", existing: ["2026-12-01T09-59-59Z-0xB", "2026-12-01T10-00-00Z-0xB-2", "mine"],
        at: Self.second) == Self.replaced + "0001-2026-12-01T10-00-00Z-0xA")
    #expect(
      NodeSession.backupName(
        label: "x", existing: ["9999-2026-12-01T09-59-59Z-0xB"], at: Self.second)
        == Self.replaced + "10000-2026-12-01T10-00-00Z-x")
  }

  /// The clock stepped back between two changes (a Pi before NTP, a restored VM): the later
  /// change's backup has the earlier time, and is still the one an undo takes.
  @Test func aClockSteppedBackStillGivesTheLastChange() {
    let hourEarlier = Self.second.addingTimeInterval(-3600)
    let first = NodeSession.backupName(label: "0xA", existing: [], at: Self.second)
    let name = { (path: String) in String(path.dropFirst(Self.replaced.utf8.count)) }
    let second = NodeSession.backupName(label: "0xB", existing: [name(first)], at: hourEarlier)
    #expect(NodeUndo.latest([name(first), name(second)]) == name(second))
    // The undo's own backup, made after the clock stepped back further, is newer still.
    let undo = NodeSession.backupName(
      label: "undo", existing: [name(first), name(second)],
      at: hourEarlier.addingTimeInterval(-86400))
    #expect(NodeUndo.latest([name(first), name(second), name(undo)]) == name(undo))
  }

  /// A numbered name is newer than every name of an older version, whatever the times; names
  /// that only look numbered are not.
  @Test func numberedNamesComeAfterOlderOnes() {
    #expect(
      NodeUndo.latest(["2026-12-01T10-00-00Z-0xB", "0001-2026-01-01T00-00-00Z-0xA"])
        == "0001-2026-01-01T00-00-00Z-0xA")
    #expect(
      NodeUndo.latest(["0002-2026-12-01T10-00-00Z-0xB", "0010-2020-01-01T00-00-00Z-0xA"])
        == "0010-2020-01-01T00-00-00Z-0xA")
    #expect(BackupName("0001-2026-12-01T10-00-00Z-0xA")?.sequence == 1)
    #expect(BackupName("2026-12-01T10-00-00Z-0xA")?.sequence == nil)
    #expect(BackupName("1-2026-12-01T10-00-00Z-0xA") == nil)
    #expect(BackupName("0000-2026-12-01T10-00-00Z-0xA") == nil)
    #expect(BackupName("0001-2026-12-01T10-00-00Z") == nil)
  }

  /// The newest is the latest second, then the highest counter; names of another form are
  /// not backups of a change.
  @Test func theNewestBackupIsByTimeThenCounter() {
    #expect(
      NodeUndo.latest([
        "2026-12-01T10-00-00Z-0xB", "2026-12-01T10-00-00Z-0xA-2", "2026-12-01T09-59-59Z-0xZ",
      ]) == "2026-12-01T10-00-00Z-0xA-2")
    #expect(
      NodeUndo.latest(["2026-12-01T10-00-00Z-undo-10", "2026-12-01T10-00-00Z-undo-9"])
        == "2026-12-01T10-00-00Z-undo-10")
    #expect(
      NodeUndo.latest(["2026-12-01T10-00-00Z-0xA", "2026-12-01T10-00-01Z-0x0"])
        == "2026-12-01T10-00-01Z-0x0")
    #expect(NodeUndo.latest(["mine", "2026-12-01T10-00-00Z"]) == nil)
    #expect(NodeUndo.latest([]) == nil)
  }
}

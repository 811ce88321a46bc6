import Foundation
import Testing

@testable import FreedomNodes

/// Issue 26, item 8: undo takes the newest backup, so backup names must order by when they
/// were made, whatever their labels.
@Suite("FreedomNodes: backup names")
struct BackupNameTests {
  static let second = Date(timeIntervalSince1970: 1_796_119_200)  // 2026-12-01T10:00:00Z
  static let time = ".freedom-keys.replaced/2026-12-01T10-00-00Z-"

  /// Backups of one second get a counter one above the highest of that second, whatever the
  /// labels; another second starts without one.
  @Test func backupsOfOneSecondAreCounted() {
    #expect(
      NodeSession.backupName(label: "0xB", existing: [], at: Self.second) == Self.time + "0xB")
    let first = "2026-12-01T10-00-00Z-0xB"
    let second = NodeSession.backupName(label: "0xA", existing: [first], at: Self.second)
    #expect(second == Self.time + "0xA-2")
    let third = NodeSession.backupName(
      label: "undo", existing: [first, "2026-12-01T10-00-00Z-0xA-2"], at: Self.second)
    #expect(third == Self.time + "undo-3")
    #expect(
      NodeSession.backupName(
        label: "0xA", existing: ["2026-12-01T09-59-59Z-0xB"], at: Self.second) == Self.time + "0xA")
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

import Foundation
import FreedomNodes
import Recovery
import Testing

/// A search's checkpoint kept in a user's file, and the check of a new file's path made before
/// the work whose result goes there.
@Suite struct CheckpointFileTests {
  @Test func aPasswordCheckpointIsKeptAndReadBack() throws {
    let fixture = try NodeFixture()
    let file = CheckpointFile(path: fixture.path("cp.json"))
    let none: PasswordCheckpoint? = try file.load()
    #expect(none == nil)
    let checkpoint = PasswordCheckpoint(
      search: Array(repeating: 3, count: 32), doneBelow: 70, found: 90, shard: (2, 3))
    try file.save(checkpoint)
    let read: PasswordCheckpoint? = try file.load()
    #expect(read == checkpoint)
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
    #expect(mode as? Int == 0o600)
    // Replaced, not refused, as the search goes on.
    let later = PasswordCheckpoint(search: Array(repeating: 3, count: 32), doneBelow: 80)
    try file.save(later)
    #expect(try file.load() == later)
  }

  @Test func whatCannotBeReadThrowsTheSearchsOwnError() throws {
    let fixture = try NodeFixture()
    let path = try fixture.file("cp.json", "{\"not\": \"a checkpoint\"}\n")
    let file = CheckpointFile(path: path)
    #expect(throws: PasswordRecoveryError.malformedCheckpoint) {
      let _: PasswordCheckpoint? = try file.load()
    }
    #expect(throws: RecoveryCheckpointError.self) {
      let _: RecoveryProgress? = try file.load()
    }
    let none: RecoveryProgress? = try CheckpointFile(path: fixture.path("none.json")).load()
    #expect(none == nil)
  }

  @Test func aCheckpointThatCannotBeWrittenSaysWhere() throws {
    let fixture = try NodeFixture()
    let path = fixture.path("missing/cp.json")
    #expect {
      try CheckpointFile(path: path).save(PasswordCheckpoint(search: [], doneBelow: 0))
    } throws: { error in
      "\(error)".hasPrefix("cannot write the checkpoint \(path): ")
        && (error as? CheckpointFileError)?.path == path
    }
  }

  @Test func aNewFileIsCheckedBeforeTheWork() throws {
    let fixture = try NodeFixture()
    #expect(throws: Never.self) { try UserFiles.checkNew(fixture.path("new.txt")) }
    let existing = try fixture.file("old.txt", "x")
    #expect(throws: NewFileRefusal.exists(path: existing)) { try UserFiles.checkNew(existing) }
    let link = fixture.path("link")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: fixture.path("nowhere"))
    #expect(throws: NewFileRefusal.symbolicLink(path: link)) { try UserFiles.checkNew(link) }
    let inMissing = fixture.path("missing/new.txt")
    #expect(
      throws: NewFileRefusal.notADirectory(directory: fixture.path("missing"), path: inMissing)
    ) {
      try UserFiles.checkNew(inMissing)
    }
    let inFile = existing + "/new.txt"
    #expect(throws: NewFileRefusal.notADirectory(directory: existing, path: inFile)) {
      try UserFiles.checkNew(inFile)
    }
    #expect(
      NewFileRefusal.exists(path: "/a").description
        == "/a already exists; refusing to overwrite it — choose another path")
    // Root may write anywhere; another user may not write into a directory without w.
    if getuid() != 0 {
      let locked = fixture.path("locked")
      try FileManager.default.createDirectory(
        atPath: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
      defer {
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked)
      }
      #expect(throws: NewFileRefusal.notWritable(directory: locked, path: locked + "/new.txt")) {
        try UserFiles.checkNew(locked + "/new.txt")
      }
    }
  }
}

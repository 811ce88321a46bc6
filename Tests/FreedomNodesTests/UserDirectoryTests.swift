import FreedomNodes
import Testing

/// A directory of results a user names, read as a whole: its visible files of one kind, in
/// name order; each way it cannot be read, typed.
@Suite struct UserDirectoryTests {
  @Test func readsTheVisibleFilesOfOneKindInOrder() throws {
    let fixture = try NodeFixture()
    try fixture.file("results/b.json", "{\"b\":1}")
    try fixture.file("results/a.json", "{}")
    try fixture.file("results/.a.json", "hidden")
    try fixture.file("results/notes.txt", "other")
    let files = try UserFiles.files(in: fixture.path("results"), endingIn: ".json")
    #expect(files.map(\.name) == [fixture.path("results/a.json"), fixture.path("results/b.json")])
    #expect(files.map(\.bytes) == [Array("{}".utf8), Array("{\"b\":1}".utf8)])
  }

  @Test func eachWayItCannotBeReadIsTyped() throws {
    let fixture = try NodeFixture()
    #expect(throws: UserFiles.DirectoryError.unlistable(reason: "No such file or directory")) {
      try UserFiles.files(in: fixture.path("none"), endingIn: ".json")
    }
    try fixture.file("results/notes.txt", "other")
    #expect(throws: UserFiles.DirectoryError.empty) {
      try UserFiles.files(in: fixture.path("results"), endingIn: ".json")
    }
  }
}

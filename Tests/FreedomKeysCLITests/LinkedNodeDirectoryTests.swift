import Foundation
import Testing

/// A symbolic link inside a node directory is never followed, by `verify` or `export`: one
/// line names it, exit 1, and nothing outside the directory is read or written.
@Suite("a link inside a node directory")
struct LinkedNodeDirectoryTests {
  @Test func aKeysLinkToAnotherBeesKeysIsRefused() throws {
    let fixture = try ExportFixture()
    let other = fixture.path("other")
    #expect(try fixture.run(["export", "bee", "--data-dir", other]).status == 0)
    let bee = fixture.path("bee")
    try FileManager.default.createDirectory(atPath: bee, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: bee + "/keys", withDestinationPath: other + "/keys")
    let before = tree(other).map { ($0, contents(other + "/" + $0)) }
    let line =
      "freedom-keys: error: \(bee)/keys is a symbolic link; links inside \(bee) are not "
      + "followed\n"

    for arguments in [
      ["verify", "--bee-dir", bee, "--password-file", other + "/password"],
      ["export", "bee", "--data-dir", bee],
      ["export", "bee", "--data-dir", bee, "--force"],
    ] {
      for otherMnemonic in [false, true] {
        let run = try fixture.run(arguments, other: otherMnemonic)
        #expect(run.status == 1, "\(arguments)")
        #expect(run.stdout == "", "\(arguments)")
        #expect(run.stderr == line, "\(arguments)")
      }
    }
    #expect(tree(other).map { ($0, contents(other + "/" + $0)) }.elementsEqual(before, by: ==))
    #expect(try FileManager.default.contentsOfDirectory(atPath: bee) == ["keys"])
  }
}

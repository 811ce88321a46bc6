import Foundation
import TestSupport
import Testing

@testable import NodeFiles

/// The one search for a change's missing parent directories, shared by an export's change and
/// a restore: each keeps its own wording of a parent that is a symbolic link.
@Suite("NodeFiles: missing parent directories")
struct MissingParentsTests {
  @Test func missingParentsOutermostFirstAndOnce() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    defer { node.close() }
    for namingLinks in [true, false] {
      #expect(
        try node.missingParents(
          of: ["a/b/c", "a/b/d", "keys/swarm.key", "a/e/f", "top"], namingLinks: namingLinks)
          == ["a", "a/b", "a/e"])
    }
  }

  @Test func aParentThatIsNoDirectoryIsWordedForEachCaller() throws {
    let root = try TemporaryDirectory()
    let dir = try nodeOfA(root)
    try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: "keys")
    let node = try NodeDirectory.open(dir, layout: testNode, create: false)
    defer { node.close() }
    func refusal(_ path: String, namingLinks: Bool) -> String? {
      do {
        _ = try node.missingParents(of: [path], namingLinks: namingLinks)
        return nil
      } catch {
        return error.description
      }
    }
    // An export's change names the link and the rule.
    #expect(
      refusal("link/swarm.key", namingLinks: true)
        == "\(dir)/link is a symbolic link; links inside \(dir) are not followed")
    // A restore words it as any file that is not a directory.
    #expect(
      refusal("link/swarm.key", namingLinks: false)
        == "\(dir)/link is a symbolic link, not a directory")
    for namingLinks in [true, false] {
      #expect(
        refusal("config.yaml/x", namingLinks: namingLinks)
          == "\(dir)/config.yaml is a regular file, not a directory")
    }
  }
}

import Foundation
import Testing

/// FreedomNodes returns typed remedies; the CLI words each as its own option from one table
/// (RemedyFlags). These pin remedies no other test reaches.
@Suite("remedy wording")
struct RemedyWordingTests {
  @Test func aLinkedKuboConfigNamesRepo() throws {
    let fixture = try ExportFixture()
    let repo = fixture.path("ipfs")
    try makeDirectory(repo)
    let real = try fixture.file("real-config", "{}")
    try FileManager.default.createSymbolicLink(atPath: repo + "/config", withDestinationPath: real)
    let run = try fixture.run(["export", "kubo", "--repo", repo])
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "freedom-keys: error: \(repo)/config is not a regular file (a symbolic link); give "
        + "--repo the directory that holds the config itself\n")
  }

  @Test func aKuboConfigWithoutPeerIDNamesPeerID() throws {
    let fixture = try ExportFixture()
    let repo = fixture.path("ipfs")
    try makeDirectory(repo)
    _ = try fixture.file("ipfs/config", #"{"Identity": {}}"#)
    let run = try CLI.run(
      ["recover", "--mnemonic-file", "-", "--threads", "1", "--kubo-repo", repo],
      stdin: RecoverTests.damaged)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "freedom-keys: error: \(repo)/config has no Identity.PeerID; run 'ipfs init' or give "
        + "--peer-id\n")
  }
}

import Foundation
import Glibc
import Testing

/// Issue 26, item 3: a profile's userData (`Profiles/<id>`) and Radicle home (`R/<slot>`) are
/// found below the app root the user named; one that is a symbolic link to elsewhere received
/// the vault and Radicle's private key. Now refused, one line naming the link, nothing written
/// on either side.
@Suite("desktop roots reached through a link")
struct LinkedProfileRootTests {
  /// A packaged app root whose profile `work` has slot 2, and a folder the links point to.
  func appRoot(_ fixture: ExportFixture) throws -> (root: String, elsewhere: String) {
    let root = fixture.path("Freedom")
    try makeDirectory(root + "/Profiles")
    _ = try fixture.file("Freedom/profile-registry.json", ProfilesTests.registry)
    _ = try fixture.file("Freedom/profile.json", #"{"id": "default", "slot": 0}"#)
    let elsewhere = fixture.path("elsewhere")
    try makeDirectory(elsewhere)
    return (root, elsewhere)
  }

  enum Linked: String, CaseIterable, CustomTestStringConvertible {
    case profile, radicleHome, radicleHomes
    var testDescription: String { rawValue }
  }

  @Test(arguments: Linked.allCases)
  func aLinkedRootIsRefusedAndNothingIsWrittenThere(linked: Linked) throws {
    let fixture = try ExportFixture()
    let (root, elsewhere) = try appRoot(fixture)
    let link: String
    switch linked {
    case .profile:
      link = root + "/Profiles/work"
    case .radicleHome:
      try makeDirectory(root + "/Profiles/work")
      try makeDirectory(root + "/R")
      link = root + "/R/2"
    case .radicleHomes:
      try makeDirectory(root + "/Profiles/work")
      link = root + "/R"
      try makeDirectory(elsewhere + "/2")
    }
    #expect(symlink(elsewhere, link) == 0)
    let before = snapshot(root)
    let outside = snapshot(elsewhere)
    for dryRun in [true, false] {
      let run = try fixture.run(
        ["export", "freedom", "--freedom-dir", root, "--profile", "work", "--create"]
          + (dryRun ? ["--dry-run"] : []))
      #expect(run.status == 1, "\(run.stdout)")
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "freedom-keys: error: \(link) is a symbolic link: desktop Freedom makes its "
          + "profiles and Radicle homes below \(root) as directories, and freedom-keys follows "
          + "no link there; nothing was written — move the link away, or name the directory "
          + "it points to itself\n")
      #expect(snapshot(root) == before)
      #expect(snapshot(elsewhere) == outside)
    }
    let verify = try fixture.run(["verify", "--freedom-dir", root, "--profile", "work"])
    #expect(verify.status == 1)
    #expect(verify.stderr.hasPrefix("freedom-keys: error: \(link) is a symbolic link: "))
    #expect(snapshot(elsewhere) == outside)
  }

  /// The same app root with real directories is written as before (the check refuses links,
  /// not profiles).
  @Test func realDirectoriesAreWritten() throws {
    let fixture = try ExportFixture()
    let (root, _) = try appRoot(fixture)
    try makeDirectory(root + "/Profiles/work")
    let run = try fixture.run(
      ["export", "freedom", "--freedom-dir", root, "--profile", "work", "--create"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: root + "/R/2/keys/radicle"))
    #expect(FileManager.default.fileExists(atPath: root + "/Profiles/work/ant-data/keys/swarm.key"))
  }
}

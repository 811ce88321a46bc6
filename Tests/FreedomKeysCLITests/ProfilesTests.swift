import Foundation
import Testing

/// Issue 17 item 1: desktop's profiles. A profile's userData is `<appRoot>/Profiles/<id>` (the
/// default profile's the app root) and its Radicle home `<appRoot>/R/<slot>` (a dev build's
/// `Freedom Dev/R/<checkout hash>/<slot>`), found through profile-registry.json and each
/// profile's profile.json as desktop's profile-paths.js does. On 96c9884 `--user-data
/// …/Profiles/work` wrote radicle-data, which desktop ignores, and there was no --profile.
@Suite("desktop profiles")
struct ProfilesTests {
  static let registry = """
    {"version": 1, "profiles": [
      {"id": "default", "displayName": "My Profile", "dir": "/elsewhere/Freedom", "slot": 0},
      {"id": "work", "displayName": "Work", "dir": "/elsewhere/Freedom/Profiles/work", "slot": 2}
    ]}
    """

  /// Writes `text` at `name` in the fixture, its parent directories made first.
  func put(_ fixture: ExportFixture, _ name: String, _ text: String) throws {
    try makeDirectory((fixture.path(name) as NSString).deletingLastPathComponent)
    _ = try fixture.file(name, text)
  }

  /// A packaged app root with two profiles and desktop's pending copy of radicle-data into R/2.
  func appRoot(_ fixture: ExportFixture) throws -> String {
    let root = fixture.path("Freedom")
    try put(fixture, "Freedom/profile-registry.json", Self.registry)
    try put(fixture, "Freedom/profile.json", #"{"id": "default", "slot": 0}"#)
    try put(fixture, "Freedom/Profiles/work/profile.json", #"{"id": "work", "slot": 2}"#)
    try put(fixture, "Freedom/R/2.migrating-4242-1767225600000/config.json", "{}")
    return root
  }

  @Test(arguments: [true, false])
  func aProfileIsWrittenWhereDesktopReadsIt(byProfileOption: Bool) throws {
    let fixture = try ExportFixture()
    let root = try appRoot(fixture)
    let arguments =
      byProfileOption
      ? ["--freedom-dir", root, "--profile", "work"] : ["--freedom-dir", root + "/Profiles/work"]
    let run = try fixture.run(["export", "freedom"] + arguments)
    #expect(run.status == 0, "\(run.stderr)")
    let fileManager = FileManager.default
    #expect(fileManager.fileExists(atPath: root + "/Profiles/work/ant-data/keys/swarm.key"))
    #expect(fileManager.fileExists(atPath: root + "/R/2/keys/radicle"), "\(run.stdout)")
    #expect(!fileManager.fileExists(atPath: root + "/Profiles/work/radicle-data"))
    // Nothing of the default profile, and the staging folder is never taken for the home.
    #expect(!fileManager.fileExists(atPath: root + "/ant-data"))
    #expect(!fileManager.fileExists(atPath: root + "/R/0"))
    #expect(tree(root + "/R/2.migrating-4242-1767225600000") == ["config.json"])
    // Issue 26, item 4: one transaction under the app root, no second one.
    #expect(!run.stdout.contains("second transaction"), "\(run.stdout)")
    #expect(!FileManager.default.fileExists(atPath: root + "/.freedom-keys.intent"))

    let verify = try fixture.run(["verify", "--json"] + arguments)
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
    let checks = (json["checks"] as? [[String: Any]]) ?? []
    func row(_ name: String) -> [String: Any]? { checks.first { $0["check"] as? String == name } }
    #expect(row("radicle")?["status"] as? String == "match")
    #expect(row("radicle")?["path"] as? String == root + "/R/2/keys/radicle")
    #expect(row("profile default")?["path"] as? String == root)
    #expect(
      (row("profile work")?["detail"] as? String)?.contains("the profile checked here") == true)
    #expect(
      row("radicle staging")?["path"] as? String == root + "/R/2.migrating-4242-1767225600000")
    #expect(row("radicle staging")?["status"] as? String == "note")
  }

  @Test(arguments: [false, true])
  func aDryRunFindsARadicleHomeOutsideTheProfileItCannotWrite(homeExists: Bool) throws {
    // The transaction writes in Radicle's home, outside the profile, where it would fail for
    // want of permission: the dry run says so as the export does, before anything is written.
    let fixture = try ExportFixture()
    let root = try appRoot(fixture)
    let readOnly = homeExists ? root + "/R/2" : root + "/R"
    if homeExists { try makeDirectory(readOnly) }
    let restore = try makeReadOnlyDirectory(readOnly)
    defer { restore() }
    let arguments = ["export", "freedom", "--freedom-dir", root + "/Profiles/work"]
    let before = try treeSnapshot(root)
    let dryRun = try fixture.run(arguments + ["--dry-run"])
    #expect(dryRun.status == 1)
    #expect(dryRun.stdout == "")
    let expected = "could not write in " + readOnly
    #expect(
      dryRun.stderr.hasPrefix("freedom-keys: error: permission denied: \(expected); "),
      "\(dryRun.stderr)")
    #expect(try treeSnapshot(root) == before)
    // And the export fails whole: the profile's ant-data and vault are not written either.
    let export = try fixture.run(arguments)
    #expect(export.status == 1)
    #expect(!FileManager.default.fileExists(atPath: root + "/Profiles/work/ant-data"))
    #expect(!FileManager.default.fileExists(atPath: root + "/.freedom-keys.intent"))
  }

  @Test func theDefaultProfileIsTheAppRoot() throws {
    let fixture = try ExportFixture()
    let root = try appRoot(fixture)
    let run = try fixture.run(["export", "freedom", "--freedom-dir", root, "--profile", "default"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: root + "/ant-data/keys/swarm.key"))
    #expect(FileManager.default.fileExists(atPath: root + "/R/0/keys/radicle"))
    #expect(!FileManager.default.fileExists(atPath: root + "/Profiles/default"))
  }

  @Test func anUnknownProfileIsRefusedWithTheKnownOnes() throws {
    let fixture = try ExportFixture()
    let root = try appRoot(fixture)
    let run = try fixture.run(["export", "freedom", "--freedom-dir", root, "--profile", "home"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr.contains(
        "has no profile named 'home'; its profiles: default, work (--create registers a new "
          + "profile as desktop Freedom does)\n"), "\(run.stderr)")
    // verify has nothing to create: it says no more than that.
    let verify = try fixture.run(["verify", "--freedom-dir", root, "--profile", "home"])
    #expect(verify.stderr.contains("its profiles: default, work\n"), "\(verify.stderr)")
    let named = try fixture.run(["export", "freedom", "--freedom-dir", root, "--profile", "Work"])
    #expect(named.status == 0, "\(named.stderr)")
    #expect(FileManager.default.fileExists(atPath: root + "/R/2/keys/radicle"))
  }

  /// Issue 26, item 3: `--profile work` took the first display name equal ignoring case
  /// ("Work") over the exact "work", silently. An exact display name comes first; several
  /// equal ignoring case are refused with their ids, nothing written.
  @Test func aProfileNameIsExactFirstAndAnAmbiguousOneRefused() throws {
    let fixture = try ExportFixture()
    let root = fixture.path("Freedom")
    try put(
      fixture, "Freedom/profile-registry.json",
      """
      {"version": 1, "profiles": [
        {"id": "default", "displayName": "My Profile", "slot": 0},
        {"id": "office", "displayName": "Work", "slot": 1},
        {"id": "home-work", "displayName": "work", "slot": 2},
        {"id": "other", "displayName": "WORK", "slot": 3}
      ]}
      """)
    for (id, slot) in [("office", 1), ("home-work", 2), ("other", 3)] {
      try put(
        fixture, "Freedom/Profiles/\(id)/profile.json", #"{"id": "\#(id)", "slot": \#(slot)}"#)
    }
    let exact = try fixture.run(["export", "freedom", "--freedom-dir", root, "--profile", "work"])
    #expect(exact.status == 0, "\(exact.stderr)")
    #expect(
      FileManager.default.fileExists(atPath: root + "/Profiles/home-work/ant-data/keys/swarm.key"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root + "/Profiles/office") == [
        "profile.json"
      ])

    let before = try treeSnapshot(root)
    let ambiguous = try fixture.run([
      "export", "freedom", "--freedom-dir", root, "--profile", "wOrK",
    ])
    #expect(ambiguous.status == 1)
    #expect(ambiguous.stdout == "")
    #expect(
      ambiguous.stderr
        == "freedom-keys: error: \(root)'s profile-registry.json has several profiles of that "
        + "display name (ignoring case), ids: office, home-work, other; give --profile one of "
        + "these ids\n")
    #expect(try treeSnapshot(root) == before)
  }

  /// Issue 26, item 3: a registry id desktop never makes (`../../../victim`) became a path:
  /// the vault, keystore and config.yaml were written outside the app root. It is refused.
  @Test func aRegistryIdDesktopDoesNotMakeIsRefused() throws {
    let fixture = try ExportFixture()
    let root = fixture.path("apps/Freedom")
    try put(
      fixture, "apps/Freedom/profile-registry.json",
      """
      {"version": 1, "profiles": [
        {"id": "default", "displayName": "My Profile", "slot": 0},
        {"id": "../../../victim", "displayName": "Victim", "slot": 1}
      ]}
      """)
    // The directory the id leads to exists (another user's, say): --create would fill it.
    try makeDirectory(fixture.path("victim"))
    for name in ["../../../victim", "Victim"] {
      let run = try fixture.run([
        "export", "freedom", "--freedom-dir", root, "--profile", name, "--create",
      ])
      #expect(run.status == 1, "\(name)")
      #expect(run.stdout == "")
      #expect(
        run.stderr.hasPrefix(
          "freedom-keys: error: \(root)/profile-registry.json: a profile's id is not one desktop "
            + "makes"), "\(run.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path("victim")) == [])
    #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["profile-registry.json"])
  }

  @Test func aDevBuildKeepsRadicleUnderFreedomDevR() throws {
    let fixture = try ExportFixture()
    let root = fixture.path("Freedom Dev/freedom-browser-abcd1234")
    try put(
      fixture,
      "Freedom Dev/freedom-browser-abcd1234/profile-registry.json",
      #"{"version": 1, "profiles": [{"id": "default", "slot": 0}]}"#)
    try put(
      fixture,
      "Freedom Dev/freedom-browser-abcd1234/Profiles/default/profile.json", #"{"slot": 0}"#)
    let run = try fixture.run(["export", "freedom", "--freedom-dir", root])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      FileManager.default.fileExists(atPath: root + "/Profiles/default/ant-data/keys/swarm.key"))
    #expect(
      FileManager.default.fileExists(atPath: fixture.path("Freedom Dev/R/abcd1234/0/keys/radicle")))
  }
}

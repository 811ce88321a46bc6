import Foundation
import Testing

/// Issue 26 item 8, the small desktop stories a new user got stuck in: bee's key planted at an
/// installation's root, `--create` planting ant-data in a home directory, and verify's wording
/// where there is no config.yaml.
@Suite("desktop stories")
struct DesktopStoriesTests {
  /// A restored installation at `<fixture>/Freedom`.
  func installation(_ fixture: ExportFixture) throws -> String {
    let userData = fixture.path("Freedom")
    let run = try fixture.run(["export", "freedom", "--user-data", userData, "--create"])
    #expect(run.status == 0, "\(run.stderr)")
    return userData
  }

  @Test func exportBeeRefusesADesktopUserDataAndNamesItsAntData() throws {
    let fixture = try ExportFixture()
    let userData = try installation(fixture)
    let before = tree(userData)
    for dryRun in [false, true] {
      let run = try fixture.run(
        ["export", "bee", "--data-dir", userData] + (dryRun ? ["--dry-run"] : []))
      #expect(run.status == 1)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "freedom-keys: error: \(userData) is a desktop Freedom user data directory, not "
          + "bee's data directory; nothing was written; desktop's Swarm node is antd, in "
          + "\(userData)/ant-data (use export freedom --freedom-dir \(userData) for the whole "
          + "installation, or export antd --data-dir \(userData)/ant-data)\n")
      #expect(tree(userData) == before)
    }
    let verify = try fixture.run(["verify", "--bee-dir", userData])
    #expect(verify.status == 1)
    #expect(verify.stdout == "")
    #expect(verify.stderr.contains("not bee's data directory; desktop's Swarm node is antd"))
    #expect(verify.stderr.contains("verify --freedom-dir \(userData)"))
    // bee's own directory, and bee-data of an older desktop, are still bee's.
    let beeData = try fixture.run(["export", "bee", "--data-dir", userData + "/bee-data"])
    #expect(beeData.status == 0, "\(beeData.stderr)")
    #expect(FileManager.default.fileExists(atPath: userData + "/bee-data/keys/swarm.key"))
  }

  @Test func createRefusesADirectoryHoldingOnlyOthersFiles() throws {
    let fixture = try ExportFixture()
    let home = fixture.path("home")
    try makeDirectory(home)
    _ = try fixture.file("home/.bashrc", "alias ll='ls -l'\n")
    try makeDirectory(home + "/Documents")
    let before = tree(home)
    for dryRun in [false, true] {
      let run = try fixture.run(
        ["export", "freedom", "--freedom-dir", home, "--create"] + (dryRun ? ["--dry-run"] : []))
      #expect(run.status == 1)
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "freedom-keys: error: \(home) holds files but nothing of desktop Freedom's (no "
          + "profile-registry.json, profile.json, identity/, ant-data/, bee-data/ or R/), so it "
          + "is no installation to restore into; nothing was written (check the path; --create "
          + "makes a new installation only in an empty or new directory)\n")
      #expect(tree(home) == before)
    }
  }

  @Test func createStillRestoresOverAPreProfileUserData() throws {
    // An old userData: bee's data and Electron's own files, nothing else of Freedom's.
    let fixture = try ExportFixture()
    let userData = fixture.path("old")
    try makeDirectory(userData + "/bee-data")
    _ = try fixture.file("old/Preferences", "{}\n")
    try makeDirectory(userData + "/Local Storage")
    let run = try fixture.run(["export", "freedom", "--freedom-dir", userData, "--create"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: userData + "/ant-data/keys/swarm.key"))
    // An empty directory, and one holding only a killed run's lock, are new installations.
    let empty = fixture.path("empty")
    try makeDirectory(empty)
    _ = try fixture.file("empty/.freedom-keys.lock", "")
    let created = try fixture.run(["export", "freedom", "--freedom-dir", empty, "--create"])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(FileManager.default.fileExists(atPath: empty + "/ant-data/keys/swarm.key"))
  }

  @Test func withoutConfigYamlVerifySaysItIsMissing() throws {
    let fixture = try ExportFixture()
    let userData = try installation(fixture)
    try FileManager.default.removeItem(atPath: userData + "/ant-data/config.yaml")
    let run = try fixture.run(["verify", "--antd-dir", userData + "/ant-data"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("(address field only, unauthenticated: there is no config.yaml)"))
    #expect(!run.stdout.contains("config.yaml has no password"))
    let whole = try fixture.run(["verify", "--freedom-dir", userData])
    #expect(whole.stdout.contains("unauthenticated: there is no config.yaml)"))
    #expect(!whole.stdout.contains("has no password"))
  }

  @Test func verifyChecksTheRadicleDataDesktopWillCopyIntoAnAbsentHome() throws {
    let fixture = try ExportFixture()
    let userData = try installation(fixture)
    _ = try fixture.file(
      "Freedom/profile-registry.json",
      #"{"version": 1, "profiles": [{"id": "default", "slot": 0}]}"#)
    let home = fixture.path("rad")
    let radicle = try fixture.run(["export", "radicle", "--home", home])
    #expect(radicle.status == 0, "\(radicle.stderr)")
    // A profile without a slot had its key in radicle-data; now the registry gives it slot 0.
    try? FileManager.default.removeItem(atPath: userData + "/radicle-data")
    try FileManager.default.moveItem(atPath: home, toPath: userData + "/radicle-data")
    #expect(!FileManager.default.fileExists(atPath: userData + "/R/0"))
    let run = try fixture.run(["verify", "--freedom-dir", userData])
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    let key = lines.first { $0.hasPrefix("radicle ") && !$0.hasPrefix("radicle home") }
    #expect(key?.contains("match") == true, "\(run.stdout)")
    #expect(key?.contains(Golden.radicleDID) == true, "\(run.stdout)")
    #expect(!run.stdout.contains("radicle        absent"))
    let note = lines.first { $0.hasPrefix("radicle home") }
    #expect(
      note?.hasSuffix(
        "absent; desktop copies \(userData)/radicle-data here at its next start, so the radicle "
          + "key checked is radicle-data's") == true, "\(run.stdout)")
    // Another key in radicle-data is the mismatch desktop would run with.
    try FileManager.default.removeItem(atPath: userData + "/radicle-data")
    let other = try fixture.run(["export", "radicle", "--home", home], other: true)
    #expect(other.status == 0, "\(other.stderr)")
    try FileManager.default.moveItem(atPath: home, toPath: userData + "/radicle-data")
    let mismatch = try fixture.run(["verify", "--freedom-dir", userData])
    #expect(mismatch.status == 3)
  }

  @Test func verifyListsTheBackupsADirectoryHolds() throws {
    let fixture = try ExportFixture()
    let bee = fixture.path("bee")
    #expect(try fixture.run(["export", "bee", "--data-dir", bee]).status == 0)
    let replaced = try fixture.run(["export", "bee", "--data-dir", bee, "--force"], other: true)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let names = try FileManager.default.contentsOfDirectory(
      atPath: bee + "/.freedom-keys.replaced")
    #expect(names.count == 1)
    let backup = bee + "/.freedom-keys.replaced/" + (names.first ?? "")
    let run = try fixture.run(["verify", "--bee-dir", bee], other: true)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(run.stdout)")
    #expect(lines.last == "backup  note      kept aside by an earlier change of \(bee) (\(backup))")
    let json = try fixture.run(["verify", "--bee-dir", bee, "--json"], other: true)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["backups"] as? [String] == [backup])
    #expect((object?["bee"] as? [String: Any])?["status"] as? String == "match")

    // An installation lists its own and its ant-data's, one row each, in --json too.
    let userData = try installation(fixture)
    let force = try fixture.run(
      ["export", "freedom", "--user-data", userData, "--force"], other: true)
    #expect(force.status == 0, "\(force.stderr)")
    let whole = try fixture.run(["verify", "--freedom-dir", userData, "--json"], other: true)
    let rows =
      (try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])?["checks"]
      as? [[String: Any]] ?? []
    let kept = rows.filter { $0["check"] as? String == "backup" }.compactMap {
      $0["path"] as? String
    }
    #expect(!kept.isEmpty, "\(whole.stdout)")
    #expect(kept.allSatisfy { $0.contains("/.freedom-keys.replaced/") })
    #expect(kept.allSatisfy { FileManager.default.fileExists(atPath: $0) })

    // A planted .freedom-keys.replaced (a file) lists nothing and is never followed.
    let planted = fixture.path("planted")
    #expect(try fixture.run(["export", "bee", "--data-dir", planted]).status == 0)
    _ = try fixture.file("planted/.freedom-keys.replaced", "not a folder\n")
    let plain = try fixture.run(["verify", "--bee-dir", planted])
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(!plain.stdout.contains("backup"))
  }
}

/// Issue 26 item 8's first story: a second profile restored on a new laptop.
@Suite("desktop stories: a second profile")
struct SecondProfileStoryTests {
  @Test(arguments: [false, true])
  func createRegistersTheProfileAsDesktopDoes(appRootExists: Bool) throws {
    let fixture = try ExportFixture()
    let root = fixture.path("Freedom")
    if appRootExists {
      let first = try fixture.run(["export", "freedom", "--freedom-dir", root, "--create"])
      #expect(first.status == 0, "\(first.stderr)")
    }
    let arguments = ["export", "freedom", "--freedom-dir", root, "--profile", "work"]
    let dryRun = try fixture.run(arguments + ["--create", "--dry-run", "--json"])
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    let plan = try JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8)) as? [String: Any]
    #expect(plan?["changed"] as? Bool == true, "\(dryRun.stdout)")
    #expect(!FileManager.default.fileExists(atPath: root + "/Profiles/work"))

    let run = try fixture.run(arguments + ["--create"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.hasPrefix(
        "Registered profile work (slot 1) in \(root)/profile-registry.json and "
          + "\(root)/Profiles/work/profile.json, as desktop Freedom registers one\n"),
      "\(run.stdout)")
    #expect(FileManager.default.fileExists(atPath: root + "/R/1/keys/radicle"))
    let registry = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: root + "/profile-registry.json")))
    let ids = ((registry as? [String: Any])?["profiles"] as? [[String: Any]])?.compactMap {
      $0["id"] as? String
    }
    // The pre-profile installation has no registry yet: desktop registers its default
    // profile at its next start, in slot 0.
    #expect(ids == ["work"])

    // Found by the same name from then on, without --create; verify matches it.
    let verify = try fixture.run(["verify", "--freedom-dir", root, "--profile", "work"])
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout.contains("radicle"))
    let again = try fixture.run(arguments)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(!again.stdout.contains("Registered"))
  }
}

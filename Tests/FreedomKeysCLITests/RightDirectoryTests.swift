import Foundation
import Testing

/// Issue 16 item 5: a wrong directory is refused and named for what it is; on 96c9884 each of
/// these exited 0 (a typo built a new tree, ant-data/ant-data, keys in the userData root) or
/// listed every part "absent" with exit 0.
@Suite("the right directory")
struct RightDirectoryTests {
  /// A restored installation at `<fixture>/Freedom`.
  func installation(_ fixture: ExportFixture) throws -> String {
    let userData = fixture.path("Freedom")
    let run = try fixture.run(["export", "freedom", "--user-data", userData, "--create"])
    #expect(run.status == 0, "\(run.stderr)")
    return userData
  }

  @Test func aMistypedUserDataIsRefusedUnlessCreateIsGiven() throws {
    let fixture = try ExportFixture()
    let typo = fixture.path("Freedon")
    let run = try fixture.run(["export", "freedom", "--user-data", typo])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("\(typo) does not exist; nothing was written"))
    #expect(run.stderr.contains("--create"))
    #expect(!FileManager.default.fileExists(atPath: typo))
  }

  @Test func anEmptyDirectoryIsRefusedUnlessCreateIsGiven() throws {
    let fixture = try ExportFixture()
    let empty = fixture.path("empty")
    try makeDirectory(empty)
    let run = try fixture.run(["export", "freedom", "--freedom-dir", empty])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("nothing of desktop Freedom found here: \(empty) is empty"))
    #expect(tree(empty) == [])
    let created = try fixture.run(["export", "freedom", "--freedom-dir", empty, "--create"])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(FileManager.default.fileExists(atPath: empty + "/ant-data/keys/swarm.key"))
  }

  @Test func antDataGivenAsTheInstallationIsNamed() throws {
    let fixture = try ExportFixture()
    let userData = try installation(fixture)
    for create in [false, true] {
      let run = try fixture.run(
        ["export", "freedom", "--user-data", userData + "/ant-data"] + (create ? ["--create"] : []))
      #expect(run.status == 1)
      #expect(run.stdout == "")
      #expect(
        run.stderr.contains(
          "\(userData)/ant-data is antd's data directory (ant-data) of the desktop Freedom "
            + "installation \(userData)"))
      #expect(run.stderr.contains("give --freedom-dir \(userData)"))
      #expect(!FileManager.default.fileExists(atPath: userData + "/ant-data/ant-data"))
    }
    let verify = try fixture.run(["verify", "--freedom-dir", userData + "/ant-data"])
    #expect(verify.status == 3)
    #expect(verify.stdout == "")
    #expect(verify.stderr.contains("is antd's data directory (ant-data)"))
  }

  @Test func exportAntdRefusesADesktopUserDataAndNamesItsAntData() throws {
    let fixture = try ExportFixture()
    let userData = try installation(fixture)
    let before = tree(userData)
    let run = try fixture.run(["export", "antd", "--data-dir", userData])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("\(userData) is a desktop Freedom user data directory"))
    #expect(run.stderr.contains("antd's is \(userData)/ant-data"))
    #expect(tree(userData) == before)
    let verify = try fixture.run(["verify", "--antd-dir", userData])
    #expect(verify.status == 1)
    #expect(verify.stderr.contains("antd's is \(userData)/ant-data"))
  }

  @Test func exportAntdRefusesBeesDataDirectory() throws {
    let fixture = try ExportFixture()
    let bee = fixture.path("bee")
    try makeDirectory(bee + "/statestore")
    try makeDirectory(bee + "/localstore")
    let run = try fixture.run(["export", "antd", "--data-dir", bee])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("\(bee) is bee's data directory"))
    #expect(tree(bee) == ["localstore", "statestore"])
  }

  @Test func verifyOfADirectoryWithNothingOfFreedomIsAMismatch() throws {
    let fixture = try ExportFixture()
    let empty = fixture.path("empty")
    try makeDirectory(empty)
    let run = try fixture.run(["verify", "--freedom-dir", empty])
    #expect(run.status == 3)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("nothing of desktop Freedom found here: \(empty) is empty"))
    let file = try fixture.file("a-file", "x")
    let notADirectory = try fixture.run(["verify", "--freedom-dir", file])
    #expect(notADirectory.status == 1)
    #expect(notADirectory.stderr.contains("\(file) is not a directory"))
    let absent = try fixture.run(["verify", "--freedom-dir", fixture.path("absent")])
    #expect(absent.status == 1)
    #expect(absent.stderr.contains("does not exist"))
  }

  @Test(arguments: ["--bee-dir", "--antd-dir", "--ant-dir", "--radicle-home", "--kubo-repo"])
  func verifyOfAnEmptyNodeDirectoryFindsNothingHere(option: String) throws {
    let fixture = try ExportFixture()
    let empty = fixture.path("empty")
    try makeDirectory(empty)
    let run = try fixture.run(["verify", option, empty])
    #expect(run.status == 3)
    #expect(run.stderr.contains("nothing of ") && run.stderr.contains("found here: \(empty)"))
  }
}

import Foundation
import Testing

/// `export freedom` puts Radicle's key where desktop looks (issue 19 item 1): desktop reads
/// profile.json with `JSON.parse` (the last `slot` wins) and `Number.isInteger` (2.0 is 2).
/// On 5001ebb both profiles below sent the key to radicle-data while desktop reads R/2.
@Suite("profile.json's slot")
struct ProfileSlotTests {
  /// Runs `export freedom` into a packaged build's userData holding `profile`; the fixture is
  /// returned so that its directory outlives the checks.
  func exported(profile: String) throws -> (ExportFixture, run: CLIRun, userData: String) {
    let fixture = try ExportFixture()
    let userData = fixture.path("Freedom")
    try makeDirectory(userData)
    _ = try fixture.file("Freedom/profile-registry.json", "{\"version\": 1, \"profiles\": []}")
    _ = try fixture.file("Freedom/profile.json", profile)
    let run = try fixture.run(["export", "freedom", "--user-data", userData])
    return (fixture, run, userData)
  }

  @Test(arguments: [#"{"id": "default", "slot": 1, "slot": 2}"#, #"{"slot": 2.0}"#])
  func radicleGoesToTheSlotDesktopReads(profile: String) throws {
    let (fixture, run, userData) = try exported(profile: profile)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: userData + "/R/2/keys/radicle"), "\(run.stdout)")
    #expect(!FileManager.default.fileExists(atPath: userData + "/radicle-data"))
    withExtendedLifetime(fixture) {}
  }

  @Test func noIntegerSlotMeansRadicleData() throws {
    let (fixture, run, userData) = try exported(profile: #"{"slot": 2.5}"#)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: userData + "/radicle-data/keys/radicle"))
    #expect(!FileManager.default.fileExists(atPath: userData + "/R"))
    withExtendedLifetime(fixture) {}
  }
}

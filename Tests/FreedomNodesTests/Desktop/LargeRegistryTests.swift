import Foundation
import FreedomNodes
import Testing
import VaultKeys

/// Issue 26 item 7: verify of an installation whose registry is near the 4 MiB limit. The
/// profiles' display names were found by a scan of the whole list per profile (60k profiles:
/// 1.8·10⁹ comparisons, minutes in a debug build); now by one lookup each. No time is asserted:
/// the size alone keeps the quadratic reader from finishing in a test run's time.
@Suite("FreedomNodes: a registry at the size limit")
struct LargeRegistryTests {
  static let count = 60_000

  /// `{"version": 1, "profiles": [default, p1 … p(count-1)]}`, each with a display name.
  static func registry(_ count: Int) -> String {
    var text = #"{"version": 1, "profiles": [{"id": "default", "displayName": "Main", "slot": 0}"#
    for index in 1..<count {
      text += #", {"id": "p\#(index)", "displayName": "P \#(index)", "slot": \#(index)}"#
    }
    return text + "]}"
  }

  @Test func everyProfileIsListedWithItsName() throws {
    let fixture = try NodeFixture()
    let text = Self.registry(Self.count)
    #expect(text.utf8.count < 4 * 1024 * 1024)
    try fixture.file("Freedom/profile-registry.json", text)
    let installation = try DesktopInstallation(userData: fixture.path("Freedom"))
    let findings = try NodeSession.verify(installation, against: NodeFixture.profile)
    let profiles = findings.filter { $0.check.hasPrefix("profile ") }
    #expect(profiles.count == Self.count)
    var named = 0
    for (index, finding) in profiles.enumerated() {
      guard case .desktop(.profile(let id, let name, let slot, _, let checked))? = finding.reason
      else { continue }
      let expected = index == 0 ? ("default", "Main") : ("p\(index)", "P \(index)")
      if id == expected.0, name == expected.1, slot == index, checked == (index == 0) {
        named += 1
      }
    }
    #expect(named == Self.count)
  }

  @Test func aLookupByIDFindsTheFirstRecord() throws {
    let registry = try DesktopProfileRegistry(
      json: Array(
        #"{"version": 1, "profiles": [{"id": "a", "displayName": "One"}, {"id": "b"}, {"id": "a", "displayName": "Two"}]}"#
          .utf8))
    #expect(registry.profile(id: "a")?.displayName == "One")
    #expect(registry.profile(id: "b")?.displayName == nil)
    #expect(registry.profile(id: "b")?.id == "b")
    #expect(registry.profile(id: "c") == nil)
  }
}

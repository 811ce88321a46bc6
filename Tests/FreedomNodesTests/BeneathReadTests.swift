import CryptoPrimitives
import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// A node type reads its directory as the engine writes it: through the locked directory's
/// descriptor, never through a symbolic link inside it.
@Suite("FreedomNodes: reads stay beneath the node directory")
struct BeneathReadTests {
  /// Every name below `path` with its inode, size and modification time: what a run changed.
  static func snapshot(_ path: String) throws -> [String: [Int]] {
    var entries: [String: [Int]] = [:]
    let manager = FileManager.default
    for name in try manager.subpathsOfDirectory(atPath: path) {
      let attributes = try manager.attributesOfItem(atPath: path + "/" + name)
      entries[name] = [
        (attributes[.systemFileNumber] as? Int) ?? -1, (attributes[.size] as? Int) ?? -1,
        Int(((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) * 1e6),
      ]
    }
    return entries
  }

  /// The engine's refusal of `body`, or nil when `body` was not refused that way.
  static func symlinkRefusal(_ body: () throws(NodeError) -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      guard case .files(let files) = error, files.code == .unexpectedFile else { return nil }
      return error.description
    }
  }

  @Test func aKeysLinkToAnotherBeesKeysIsRefusedByVerifyAndExport() throws {
    let fixture = try NodeFixture()
    let other = Bee(directory: fixture.path("other"))
    _ = try NodeSession.export(
      other,
      .init(profile: NodeFixture.profile, password: nil, passwordPath: nil, scryptN: 1024),
      consent: .none)
    try FileManager.default.createDirectory(
      atPath: fixture.path("bee"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.path("bee/keys"), withDestinationPath: fixture.path("other/keys"))
    let password = try #require(fixture.read("other/password"))
    let bee = Bee(
      directory: fixture.path("bee"), password: SecureBytes(utf8: String(password.dropLast())))
    let before = try Self.snapshot(fixture.path("other"))
    let expected =
      "\(fixture.path("bee/keys")) is a symbolic link; links inside "
      + "\(fixture.path("bee")) are not followed"

    #expect(
      Self.symlinkRefusal { () throws(NodeError) in
        _ = try NodeSession.verify(bee, against: NodeFixture.profile)
      } == expected)
    #expect(
      Self.symlinkRefusal { () throws(NodeError) in
        _ = try NodeSession.recoveryTargets(bee)
      } == expected)
    for consent in [ExportConsent.none, ExportConsent(replacesOtherIdentities: true)] {
      for profile in [NodeFixture.profile, NodeFixture.other] {
        #expect(
          Self.symlinkRefusal { () throws(NodeError) in
            _ = try NodeSession.export(
              bee, .init(profile: profile, password: nil, passwordPath: nil, scryptN: 1024),
              consent: consent)
          } == expected)
      }
    }
    #expect(try Self.snapshot(fixture.path("other")) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path("bee")) == ["keys"])
  }

  @Test func aRadicleKeysLinkIsRefused() throws {
    let fixture = try NodeFixture()
    let other = Radicle(home: fixture.path("other"))
    _ = try NodeSession.export(
      other, .init(identity: NodeFixture.profile.radicle, alias: nil, comment: "x"),
      consent: .none)
    try FileManager.default.createDirectory(
      atPath: fixture.path("rad"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.path("rad/keys"), withDestinationPath: fixture.path("other/keys"))
    let radicle = Radicle(home: fixture.path("rad"))
    let before = try Self.snapshot(fixture.path("other"))
    let expected =
      "\(fixture.path("rad/keys")) is a symbolic link; links inside "
      + "\(fixture.path("rad")) are not followed"
    #expect(
      Self.symlinkRefusal { () throws(NodeError) in
        _ = try NodeSession.verify(radicle, against: NodeFixture.profile)
      } == expected)
    #expect(
      Self.symlinkRefusal { () throws(NodeError) in
        _ = try NodeSession.export(
          radicle, .init(identity: NodeFixture.other.radicle, alias: nil, comment: "x"),
          consent: ExportConsent(replacesOtherIdentities: true))
      } == expected)
    #expect(try Self.snapshot(fixture.path("other")) == before)
  }

  @Test func aLinkedKeyFileIsRefusedByName() throws {
    let fixture = try NodeFixture()
    let other = Bee(directory: fixture.path("other"))
    _ = try NodeSession.export(
      other,
      .init(profile: NodeFixture.profile, password: nil, passwordPath: nil, scryptN: 1024),
      consent: .none)
    try FileManager.default.createDirectory(
      atPath: fixture.path("bee/keys"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.path("bee/keys/swarm.key"),
      withDestinationPath: fixture.path("other/keys/swarm.key"))
    let bee = Bee(directory: fixture.path("bee"))
    #expect(
      Self.symlinkRefusal { () throws(NodeError) in
        _ = try NodeSession.verify(bee, against: NodeFixture.profile)
      }
        == "\(fixture.path("bee/keys/swarm.key")) is a symbolic link; links inside "
        + "\(fixture.path("bee")) are not followed")
  }

  @Test func aPasswordFileOutsideTheDirectoryIsStillReadThroughItsLink() throws {
    let fixture = try NodeFixture()
    try fixture.file("secrets/password", "from-a-file\n")
    try FileManager.default.createSymbolicLink(
      atPath: fixture.path("password-link"), withDestinationPath: fixture.path("secrets/password"))
    // Not named ant-data: the fixture's root is no desktop installation enclosing it.
    try fixture.file("antd/config.yaml", "password-file: \(fixture.path("password-link"))\n")
    let antd = Antd(directory: fixture.path("antd"))
    #expect(antd.enclosingDirectories.isEmpty)
    _ = try NodeSession.export(
      antd, .init(profile: NodeFixture.profile, password: nil), consent: .none)
    let findings = try NodeSession.verify(antd, against: NodeFixture.profile)
    #expect(findings.map(\.status) == [.match])
    #expect(findings.map(\.authenticated) == [true])
  }
}

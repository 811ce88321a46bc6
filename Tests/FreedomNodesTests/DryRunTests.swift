import CryptoPrimitives
import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// `NodeSession.dryRun`: the plan an export would apply, found without changing anything.
@Suite("NodeSession.dryRun")
struct DryRunTests {
  /// Every name below `root`, sorted.
  func names(_ root: String) -> [String] {
    (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
  }

  /// Every entry below `root` with its kind, mode and bytes (links not followed).
  func snapshot(_ root: String) throws -> [String: String] {
    var all: [String: String] = [:]
    for name in names(root) {
      let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + name)
      var entry = "\(attributes[.type] ?? "") \(attributes[.posixPermissions] ?? "")"
      if attributes[.type] as? FileAttributeType == .typeRegular {
        entry +=
          " "
          + (try Data(contentsOf: URL(fileURLWithPath: root + "/" + name)))
          .base64EncodedString()
      }
      all[name] = entry
    }
    return all
  }

  /// Issue 26, item 2: a dry run on a directory holding an interrupted change (a kill -9 right
  /// after the state was moved aside, its record and a lock file left) finished or undid it
  /// while saying "nothing was written". Now it tells which it would do and leaves every byte;
  /// the export then does it.
  @Test(arguments: [false, true])
  func anInterruptedChangeIsToldAndLeftAsItIs(committed: Bool) throws {
    let fixture = try NodeFixture()
    let antd = Antd(directory: fixture.path("ant-data"))
    let inputs = Antd.ExportInputs(profile: NodeFixture.profile, password: nil)
    _ = try NodeSession.export(antd, inputs, consent: .none)
    try fixture.file("ant-data/.freedom-keys.old/0/000001.log", "state of the identity")
    let record = try fixture.file(
      "ant-data/.freedom-keys.intent",
      "freedom-keys intent 2\naside 0 statestore\n"
        + (committed ? "backup .freedom-keys.replaced/x\nend\ncommitted\n" : "end\n"))
    #expect(chmod(record, 0o600) == 0)
    try fixture.file("ant-data/.freedom-keys.lock", "")
    let before = try snapshot(fixture.root)

    let planned = try NodeSession.dryRun(antd, inputs, consent: .none)
    #expect(planned.interruptedChanges.map(\.directory) == [antd.directory])
    #expect(planned.interruptedChanges.map(\.record) == [record])
    #expect(planned.interruptedChanges.map(\.finishes) == [committed])
    #expect(planned.changes)
    #expect(try snapshot(fixture.root) == before)

    _ = try NodeSession.export(antd, inputs, consent: .none)
    #expect(!FileManager.default.fileExists(atPath: record))
    let statestore =
      committed ? "ant-data/.freedom-keys.replaced/x/statestore" : "ant-data/statestore"
    #expect(
      (try? String(contentsOfFile: fixture.path(statestore + "/000001.log"), encoding: .utf8))
        == "state of the identity")
  }

  @Test func theDryRunsPlanIsTheOneTheExportApplies() throws {
    let fixture = try NodeFixture()
    let antd = Antd(directory: fixture.path("ant-data"))
    let inputs = Antd.ExportInputs(profile: NodeFixture.profile, password: nil)
    let planned = try NodeSession.dryRun(antd, inputs, consent: .none)
    #expect(!planned.directoryExists)
    #expect(planned.changes)
    #expect(planned.backupDirectory == nil)
    #expect(names(fixture.root).isEmpty)

    let exported = try NodeSession.export(antd, inputs, consent: .none)
    #expect(planned.actions == exported.plan.actions)
    #expect(planned.actions.map(\.kind) == [.create, .create])
  }

  @Test func aReplacementNamesItsBackupAndChangesNothing() throws {
    let fixture = try NodeFixture()
    let antd = Antd(directory: fixture.path("ant-data"))
    _ = try NodeSession.export(
      antd, .init(profile: NodeFixture.other, password: nil), consent: .none)
    let before = names(fixture.root)
    let inputs = Antd.ExportInputs(profile: NodeFixture.profile, password: nil)
    let conflicts = try refusal { () throws(NodeError) in
      _ = try NodeSession.dryRun(antd, inputs, consent: .none)
    }
    #expect(conflicts?.map(\.path) == [antd.keystorePath])
    let forced = try NodeSession.dryRun(
      antd, inputs, consent: ExportConsent(replacesOtherIdentities: true))
    let other = NodeFixture.other.swarm.address.checksummed
    #expect(
      forced.actions.contains {
        $0.path == antd.keystorePath && $0.kind == .replace(before: other)
      })
    let backup = try #require(forced.backupDirectory)
    #expect(backup.hasPrefix(fixture.path("ant-data/.freedom-keys.replaced/")))
    #expect(backup.hasSuffix("-" + other))
    #expect(names(fixture.root) == before)
  }

  @Test func aNodeDirectoryInsideAnInstallationIsNotCreated() throws {
    let fixture = try NodeFixture()
    let userData = fixture.path("Freedom")
    try FileManager.default.createDirectory(atPath: userData, withIntermediateDirectories: true)
    let antd = Antd(directory: userData + "/ant-data")
    #expect(antd.enclosingDirectories.map(\.path) == [userData])
    let planned = try NodeSession.dryRun(
      antd, .init(profile: NodeFixture.profile, password: nil), consent: .none)
    #expect(!planned.directoryExists)
    #expect(planned.actions.first { $0.after != nil }?.kind == .create)
    // The installation was locked for the read and its lock file removed again.
    #expect(names(userData).isEmpty)
  }

  @Test func aMissingKuboRepositoryFailsAsTheExportWould() throws {
    let fixture = try NodeFixture()
    let kubo = Kubo(repository: fixture.path("ipfs"))
    var dryRunError: NodeError?
    do { _ = try NodeSession.dryRun(kubo, NodeFixture.profile, consent: .none) } catch {
      dryRunError = error
    }
    var exportError: NodeError?
    do { _ = try NodeSession.export(kubo, NodeFixture.profile, consent: .none) } catch {
      exportError = error
    }
    let dryRun = try #require(dryRunError)
    #expect(String(describing: dryRun) == String(describing: try #require(exportError)))
    #expect(names(fixture.root).isEmpty)
  }
}

import Foundation
import Testing

/// The JSON object `export … --json` prints, decoded.
struct ExportJSON: Decodable {
  struct Action: Decodable, Equatable {
    let path: String
    let action: String
    let before: String?
    let after: String?
  }
  struct Identities: Decodable {
    let before: [String]
    let after: [String]
  }
  struct KeptAside: Decodable {
    let original: String
    let backup: String
  }
  struct Conflict: Decodable {
    let path: String
    let expected: String
    let found: String
  }

  let command: String
  let dryRun: Bool
  let ok: Bool
  let changed: Bool
  let target: String
  let targetExists: Bool?
  let actions: [Action]?
  let identities: Identities?
  let backupDirectory: String?
  let written: [String]?
  let keptAside: [KeptAside]?
  let conflicts: [Conflict]?

  init(_ run: CLIRun) throws {
    self = try JSONDecoder().decode(ExportJSON.self, from: Data(run.stdout.utf8))
  }
}

@Suite("export --json")
struct ExportJSONTests {
  @Test(arguments: DryRunTarget.all)
  func resultOfAnExport(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let path = fixture.path("node")
    if target.name == "kubo" {
      try makeDirectory(path)
      _ = try fixture.file("node/config", ExportKuboTests.config(peerID: "", privKey: ""))
    }
    let first = try fixture.run(target.arguments(path) + ["--json"])
    #expect(first.status == 0, "\(first.stderr)")
    let wrote = try ExportJSON(first)
    #expect(wrote.command == target.arguments.prefix(2).joined(separator: " "))
    #expect(!wrote.dryRun && wrote.ok && wrote.changed)
    #expect(wrote.target == path)
    #expect(wrote.identities?.before == [])
    #expect(wrote.identities?.after.first == target.expected)
    #expect(wrote.written?.isEmpty == false)
    for file in wrote.written ?? [] { #expect(FileManager.default.fileExists(atPath: file)) }

    let again = try ExportJSON(try fixture.run(target.arguments(path) + ["--json"]))
    #expect(again.ok && !again.changed)
    #expect(again.written == [])
    #expect(again.actions?.allSatisfy { $0.action == "keep" } == true)
  }

  @Test(arguments: DryRunTarget.all)
  func forcedReplacementNamesTheBackup(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let path = fixture.path("node")
    try target.prepareOtherIdentity(fixture, at: path)
    let planned = try ExportJSON(
      try fixture.run(target.arguments(path) + ["--dry-run", "--json", "--force"]))
    #expect(planned.dryRun && planned.ok && planned.changed)
    #expect(planned.targetExists == true)
    #expect(planned.identities?.before.first == target.other)
    #expect(planned.identities?.after.first == target.expected)
    #expect(
      planned.actions?.contains {
        $0.action == "replace" && $0.before == target.other && $0.after == target.expected
      } == true)

    let run = try fixture.run(target.arguments(path) + ["--json", "--force"])
    #expect(run.status == 0, "\(run.stderr)")
    let result = try ExportJSON(run)
    #expect(result.ok && result.changed && !result.dryRun)
    #expect(result.identities?.before.first == target.other)
    guard target.name != "kubo key file" else { return }
    let backup = try #require(result.backupDirectory)
    #expect(backup.hasPrefix(path + "/.freedom-keys.replaced/"))
    #expect(FileManager.default.fileExists(atPath: backup))
    #expect(result.keptAside?.isEmpty == false)
    for kept in result.keptAside ?? [] {
      #expect(kept.backup.hasPrefix(backup + "/"))
      #expect(FileManager.default.fileExists(atPath: kept.backup))
    }
  }

  @Test(arguments: DryRunTarget.all)
  func refusedDryRunListsTheConflicts(target: DryRunTarget) throws {
    let fixture = try ExportFixture()
    let path = fixture.path("node")
    try target.prepareOtherIdentity(fixture, at: path)
    let run = try fixture.run(target.arguments(path) + ["--dry-run", "--json"])
    #expect(run.status == 3)
    let refused = try ExportJSON(run)
    #expect(refused.dryRun && !refused.ok && !refused.changed)
    #expect(refused.conflicts?.first?.found == target.other)
    #expect(refused.conflicts?.first?.expected == target.expected)
    #expect(run.stderr.hasPrefix("freedom-keys: error: "))

    // Asked to write, the refusal is an error: one line on stderr, nothing on stdout.
    let export = try fixture.run(target.arguments(path) + ["--json"])
    #expect(export.status == 1)
    #expect(export.stdout == "")
    #expect(export.stderr.split(separator: "\n").count == 1)
  }
}

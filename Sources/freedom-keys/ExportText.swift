import CommandLineKit
import FreedomNodes
import NodeFiles
import VaultKeys

/// The CLI's rendering of an export's plan and result for `--dry-run` and `--json`: the plan
/// words itself (`ExportSummary`); here it becomes a table or one JSON object.
enum ExportText {
  /// A plan, as a dry run found it or as an export applied it.
  typealias Plan = ExportSummary

  // MARK: - Dry run

  /// Runs `body` (a dry run) and prints its plan; a refusal is exit 3 with the export's own
  /// message (and, with `json`, the conflicts on stdout first), any other error the export's;
  /// `antNonce` is the nonce `export ant` writes, which its refusal names; the refusal's hint
  /// names only what `consent` does not cover yet.
  static func dryRun(
    _ commandPath: String, target: String, json: Bool,
    antNonce: AntIdentity.NonceRule = .zero, consent: ExportConsent = ExportConsent(),
    _ body: () throws(NodeError) -> Plan
  ) throws {
    let plan: Plan
    do {
      plan = try body()
    } catch {
      guard case .refused(let conflicts) = error else {
        throw NodeText.cliError(error, .export, consent: consent)
      }
      if json {
        var object = header(commandPath, dryRun: true, ok: false, changed: false)
        object.append("target", .string(target))
        object.append("conflicts", .array(conflicts.map(Self.json)))
        Output.standardOutput(JSONValue.object(object).rendered() + "\n")
      }
      throw CLIError.mismatch(NodeText.refusal(conflicts, antNonce: antNonce, consent: consent))
    }
    Output.standardOutput(
      json
        ? JSONValue.object(Self.json(plan, commandPath, dryRun: true)).rendered() + "\n"
        : text(plan))
  }

  /// The dry run's report.
  static func text(_ plan: Plan) -> String {
    var report = TextReport()
    report.section(plan.dryRunTitle)
    for row in plan.dryRunRows { report.row(row.action, row.path) }
    return report.rendered + plan.dryRunNotes
  }

  // MARK: - JSON

  /// The result of an export that ran, with what the engine wrote and kept aside.
  static func printResult<P>(
    _ outcome: ExportOutcome<P>, _ commandPath: String, target: String,
    extra: JSONObject = [:]
  ) {
    var object = json(Plan(outcome, target: target), commandPath, dryRun: false)
    object.append("written", .array((outcome.result?.written ?? []).map { .string($0) }))
    object.append(
      "keptAside",
      .array(
        outcome.keptAside.map {
          .object(["original": .string($0.original), "backup": .string($0.backup)])
        }))
    for (key, value) in extra.members { object.append(key, value) }
    Output.standardOutput(JSONValue.object(object).rendered() + "\n")
  }

  /// The plan's object: `ok`, `changed`, the target, the actions, the identities, the backup.
  static func json(_ plan: Plan, _ commandPath: String, dryRun: Bool) -> JSONObject {
    var object = header(commandPath, dryRun: dryRun, ok: true, changed: plan.changes)
    object.append("target", .string(plan.target))
    if dryRun { object.append("targetExists", .bool(plan.targetExists)) }
    object.append("actions", .array(plan.actions.map { .object(json($0)) }))
    object.append(
      "identities",
      .object([
        "before": .array(plan.identitiesBefore.map { .string($0) }),
        "after": .array(plan.identitiesAfter.map { .string($0) }),
      ]))
    if let backup = plan.backupDirectory { object.append("backupDirectory", .string(backup)) }
    appendInterrupted(plan.interruptedChanges, to: &object)
    return object
  }

  /// `interruptedChanges`, the changes a dry run found unfinished, when there are any.
  static func appendInterrupted(
    _ changes: [NodeDirectory.InterruptedChange], to object: inout JSONObject
  ) {
    guard !changes.isEmpty else { return }
    object.append(
      "interruptedChanges",
      .array(
        changes.map {
          .object([
            "directory": .string($0.directory), "record": .string($0.record),
            "finishes": .bool($0.finishes),
          ])
        }))
  }

  private static func header(_ commandPath: String, dryRun: Bool, ok: Bool, changed: Bool)
    -> JSONObject
  {
    [
      "command": .string(commandPath.split(separator: " ").dropFirst().joined(separator: " ")),
      "dryRun": .bool(dryRun), "ok": .bool(ok), "changed": .bool(changed),
    ]
  }

  private static func json(_ action: PlannedAction) -> JSONObject {
    var object: JSONObject = ["path": .string(action.path)]
    switch action.kind {
    case .create: object.append("action", .string("create"))
    case .replace(let before):
      object.append("action", .string("replace"))
      if let before { object.append("before", .string(before)) }
    case .moveAside: object.append("action", .string("moveAside"))
    case .keep: object.append("action", .string("keep"))
    }
    if let after = action.after { object.append("after", .string(after)) }
    return object
  }

  private static func json(_ conflict: NodeConflict) -> JSONValue {
    .object([
      "path": .string(conflict.path), "expected": .string(conflict.expected),
      "found": .string(conflict.found.summary),
    ])
  }
}

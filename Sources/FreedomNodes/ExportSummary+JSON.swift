import NodeFiles
import VaultKeys

/// An export's plan and result as the JSON object `--json` prints.
extension ExportSummary {
  /// The plan's object: `ok`, `changed`, the target, the actions, the identities, the backup;
  /// `command` is the export's name (`export bee`).
  package func json(command: String, dryRun: Bool) -> JSONObject {
    var object = Self.header(command, dryRun: dryRun, ok: true, changed: changes)
    object.append("target", .string(target))
    if dryRun { object.append("targetExists", .bool(targetExists)) }
    object.append("actions", .array(actions.map { .object($0.json) }))
    object.append(
      "identities",
      .object([
        "before": .array(identitiesBefore.map { .string($0) }),
        "after": .array(identitiesAfter.map { .string($0) }),
      ]))
    if let backupDirectory { object.append("backupDirectory", .string(backupDirectory)) }
    NodeDirectory.InterruptedChange.append(interruptedChanges, to: &object)
    return object
  }

  /// The result of an export that ran, with what the engine wrote and kept aside.
  package static func json<P>(_ outcome: ExportOutcome<P>, command: String, target: String)
    -> JSONObject
  {
    var object = ExportSummary(outcome, target: target).json(command: command, dryRun: false)
    object.append("written", .array((outcome.result?.written ?? []).map { .string($0) }))
    object.append("keptAside", .array(outcome.keptAside.map(\.json)))
    return object
  }

  /// A dry run's refusal: every conflict, with what it holds.
  package static func json(refused conflicts: [NodeConflict], command: String, target: String)
    -> JSONObject
  {
    var object = header(command, dryRun: true, ok: false, changed: false)
    object.append("target", .string(target))
    object.append("conflicts", .array(conflicts.map(\.json)))
    return object
  }

  /// The members every export's object starts with.
  package static func header(_ command: String, dryRun: Bool, ok: Bool, changed: Bool)
    -> JSONObject
  {
    [
      "command": .string(command), "dryRun": .bool(dryRun), "ok": .bool(ok),
      "changed": .bool(changed),
    ]
  }
}

extension NodeDirectory.InterruptedChange {
  /// `interruptedChanges`, the changes a dry run found unfinished, when there are any.
  package static func append(_ changes: [Self], to object: inout JSONObject) {
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
}

extension NodeChangeResult.KeptAside {
  /// `{"original": …, "backup": …}`.
  package var json: JSONValue {
    .object(["original": .string(original), "backup": .string(backup)])
  }
}

extension PlannedAction {
  var json: JSONObject {
    var object: JSONObject = ["path": .string(path)]
    switch kind {
    case .create: object.append("action", .string("create"))
    case .replace(let before):
      object.append("action", .string("replace"))
      if let before { object.append("before", .string(before)) }
    case .moveAside: object.append("action", .string("moveAside"))
    case .keep: object.append("action", .string("keep"))
    }
    if let after { object.append("after", .string(after)) }
    return object
  }
}

extension NodeConflict {
  var json: JSONValue {
    .object([
      "path": .string(path), "expected": .string(expected), "found": .string(found.summary),
    ])
  }
}

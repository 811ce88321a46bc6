import CommandLineKit
import FreedomNodes
import NodeFiles
import VaultKeys

/// The CLI's wording of an export's plan and result for `--dry-run` and `--json`: the same typed
/// actions (`PlannedAction`) every node's plan returns, as text or one JSON object.
enum ExportText {
  /// A plan, as a dry run found it or as an export applied it.
  struct Plan {
    /// The directory (or key file) the user named.
    let target: String
    /// What the export does, each path once.
    let actions: [PlannedAction]
    /// Whether anything is (or would be) written.
    let changes: Bool
    /// Whether the target exists (false: the export creates it).
    var targetExists = true
    /// Where what is replaced or moved aside is kept.
    var backupDirectory: String? = nil
    /// The interrupted changes the export would first finish or undo (dry runs only).
    var interruptedChanges: [NodeDirectory.InterruptedChange] = []

    init(target: String, actions: [PlannedAction], changes: Bool) {
      self.target = target
      self.actions = actions
      self.changes = changes
    }

    init<P>(_ dryRun: ExportDryRun<P>, target: String) {
      self.init(target: target, actions: dryRun.actions, changes: dryRun.changes)
      targetExists = dryRun.directoryExists
      backupDirectory = dryRun.backupDirectory
      interruptedChanges = dryRun.interruptedChanges
    }

    /// The plan an export applied: moved aside only what the change did move.
    init<P>(_ outcome: ExportOutcome<P>, target: String) {
      let moved = Set(outcome.removed + outcome.keptAside.map(\.original))
      self.init(
        target: target,
        actions: outcome.plan.actions.filter { $0.kind != .moveAside || moved.contains($0.path) },
        changes: outcome.plan.changes)
      backupDirectory = NodeText.backupDirectories(outcome.keptAside).first?.directory
    }

    /// The identities the target's keys hold before (in plan order, each once; a file replaced
    /// whose identity could not be read adds none).
    var identitiesBefore: [String] {
      unique(
        actions.compactMap { action -> String? in
          guard let after = action.after else { return nil }
          switch action.kind {
          case .keep: return after
          case .replace(let before): return before
          case .create, .moveAside: return nil
          }
        })
    }

    /// The identities they hold after.
    var identitiesAfter: [String] { unique(actions.compactMap(\.after)) }

    private func unique(_ values: [String]) -> [String] {
      var seen: Set<String> = []
      return values.filter { seen.insert($0).inserted }
    }
  }

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
    report.section(
      plan.changes
        ? "Dry run, nothing was written; the export would:"
        : "Dry run, nothing was written; the export would change nothing:")
    for action in plan.actions {
      report.row(name(action.kind), action.path + identity(action))
    }
    var text = report.rendered
    for change in plan.interruptedChanges { text += interrupted(change) + "\n" }
    text +=
      "Identities before: \(list(plan.identitiesBefore)); after: \(list(plan.identitiesAfter))\n"
    if let backup = plan.backupDirectory {
      text +=
        "What it replaces or moves aside would be kept in \(backup) (named by the time of "
        + "the export)\n"
    }
    if !plan.targetExists {
      text += "\(plan.target) does not exist: the export would create it\n"
    }
    return text
  }

  /// "The export would first finish an interrupted change from <record> …".
  static func interrupted(_ change: NodeDirectory.InterruptedChange) -> String {
    change.finishes
      ? "The export would first finish an interrupted change from \(change.record) (its new "
        + "identity is in place); the plan above is for the directory as it is now"
      : "The export would first undo an interrupted change from \(change.record) (the old "
        + "identity back in place); the plan above is for the directory as it is now"
  }

  private static func identity(_ action: PlannedAction) -> String {
    guard let after = action.after else { return "" }
    if case .replace(let before) = action.kind {
      return "  \(before ?? "(no identity read)") → \(after)"
    }
    return "  \(after)"
  }

  private static func name(_ kind: PlannedAction.Kind) -> String {
    switch kind {
    case .create: "create"
    case .replace: "replace"
    case .moveAside: "move aside"
    case .keep: "keep"
    }
  }

  private static func list(_ identities: [String]) -> String {
    identities.isEmpty ? "none" : identities.joined(separator: ", ")
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

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
        let object = ExportSummary.json(
          refused: conflicts, command: command(commandPath), target: target)
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
    var object = ExportSummary.json(outcome, command: command(commandPath), target: target)
    for (key, value) in extra.members { object.append(key, value) }
    Output.standardOutput(JSONValue.object(object).rendered() + "\n")
  }

  /// The plan's object: `ok`, `changed`, the target, the actions, the identities, the backup.
  static func json(_ plan: Plan, _ commandPath: String, dryRun: Bool) -> JSONObject {
    plan.json(command: command(commandPath), dryRun: dryRun)
  }

  /// The command's path without the tool's name, as the JSON's `command` names it.
  private static func command(_ commandPath: String) -> String {
    commandPath.split(separator: " ").dropFirst().joined(separator: " ")
  }
}

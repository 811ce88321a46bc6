import CommandLineKit
import FreedomNodes
import VaultKeys

/// The flow every node export shares: `--dry-run` prints the plan (or the refusal), an export
/// runs in one transaction and prints its result as JSON or as the command's report. A command
/// is left with its options, help, target parsing and report; the plan and result word
/// themselves (`ExportSummary`), here they become a table or one JSON object.
struct ExportFlow {
  let options: ExportOptions
  /// What the user agreed the export may replace.
  var consent: ExportConsent
  /// The nonce `export ant` writes, which its refusal names.
  var antNonce: AntIdentity.NonceRule = .zero

  init(_ options: ExportOptions) {
    self.options = options
    consent = options.consent
  }

  /// The command's path without the tool's name, as the JSON's `command` names it.
  var command: String {
    options.commandPath.split(separator: " ").dropFirst().joined(separator: " ")
  }

  /// Exports `inputs` into `node` at `target`; `json` adds members to the result's object,
  /// `report` words the result for a terminal.
  func run<Node: FreedomNode>(
    _ node: Node, _ inputs: Node.ExportInputs, target: String,
    json: (ExportOutcome<Node.Plan>) throws -> JSONObject = { _ in [:] },
    report: (ExportOutcome<Node.Plan>) throws -> String
  ) throws {
    if options.dryRun {
      return try dryRun(target: target) { () throws(NodeError) in
        ExportSummary(
          try NodeSession.dryRun(node, inputs, consent: consent, events: NodeText.show),
          target: target)
      }
    }
    let outcome: ExportOutcome<Node.Plan>
    do {
      outcome = try NodeSession.export(node, inputs, consent: consent, events: NodeText.show)
    } catch {
      if case .refused(let conflicts) = error {
        throw CLIError.failure(
          NodeText.refusal(conflicts, antNonce: antNonce, consent: consent))
      }
      throw NodeText.cliError(error, .export, consent: consent)
    }
    guard options.json else { return Output.standardOutput(try report(outcome)) }
    var object = ExportSummary.json(outcome, command: command, target: target)
    for (key, value) in try json(outcome).members { object.append(key, value) }
    print(object)
  }

  /// Runs `body` (a dry run) and prints its plan; a refusal is exit 3 with the export's own
  /// message (and, with `--json`, the conflicts on stdout first), any other error the export's;
  /// the refusal's hint names only what `consent` does not cover yet.
  func dryRun(target: String, _ body: () throws(NodeError) -> ExportSummary) throws {
    let plan: ExportSummary
    do {
      plan = try body()
    } catch {
      guard case .refused(let conflicts) = error else {
        throw NodeText.cliError(error, .export, consent: consent)
      }
      if options.json {
        print(ExportSummary.json(refused: conflicts, command: command, target: target))
      }
      throw CLIError.mismatch(NodeText.refusal(conflicts, antNonce: antNonce, consent: consent))
    }
    guard !options.json else { return print(plan.json(command: command, dryRun: true)) }
    Output.standardOutput(TextReport.table(plan.dryRunTitle, plan.dryRunRows) + plan.dryRunNotes)
  }

  /// Prints `object` as the one JSON object on stdout.
  func print(_ object: JSONObject) {
    Output.standardOutput(JSONValue.object(object).rendered() + "\n")
  }
}

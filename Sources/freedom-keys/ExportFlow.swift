import CommandLineKit
import FreedomNodes
import VaultKeys

/// The flow every node export shares: `--dry-run` prints the plan (or the refusal), an export
/// runs in one transaction and prints its result as JSON or as the command's report. A command
/// is left with its options, help, target parsing and report.
struct ExportFlow {
  let commandPath: String
  let options: ExportOptions
  /// What the user agreed the export may replace.
  var consent: ExportConsent
  /// The nonce `export ant` writes, which its refusal names.
  var antNonce: AntIdentity.NonceRule = .zero

  init(_ commandPath: String, _ options: ExportOptions) {
    self.commandPath = commandPath
    self.options = options
    consent = options.consent
  }

  /// Exports `inputs` into `node` at `target`; `json` adds members to the result's object,
  /// `report` words the result for a terminal.
  func run<Node: FreedomNode>(
    _ node: Node, _ inputs: Node.ExportInputs, target: String,
    json: (ExportOutcome<Node.Plan>) throws -> JSONObject = { _ in [:] },
    report: (ExportOutcome<Node.Plan>) throws -> String
  ) throws {
    if options.dryRun {
      return try ExportText.dryRun(
        commandPath, target: target, json: options.json, antNonce: antNonce, consent: consent
      ) { () throws(NodeError) in
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
    if options.json {
      return ExportText.printResult(outcome, commandPath, target: target, extra: try json(outcome))
    }
    Output.standardOutput(try report(outcome))
  }
}

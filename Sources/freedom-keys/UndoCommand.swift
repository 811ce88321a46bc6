import CommandLineKit
import FreedomNodes
import NodeFiles
import VaultKeys

/// `freedom-keys undo DIR`: puts back what the last change of a node directory kept aside
/// (`NodeUndo`), keeping what is in place aside in turn.
struct UndoCommand: ParsableCommand {
  static let directory = Option.value(
    "dir", "dir", help: "The node directory or desktop userData whose last change to undo.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "undo",
      abstract: "Put back what the last change of a node directory kept aside.",
      discussion: """
        An export with --force keeps what it replaces in
        <dir>/\(NodeLayout.replacedName)/<UTC time>-<old identity>/. 'undo' puts the newest
        of those backups back in one transaction under the directory's lock (a kill at
        any instant leaves one whole identity, the next run finishes or undoes it), and
        keeps what is in place now in a new backup, <UTC time>-undo: a second 'undo'
        puts that back. Nothing is deleted. <dir> is a bee, antd or Ant data directory,
        a kubo repository, a Radicle home or a desktop Freedom user data directory, each
        recognised as 'verify' recognises it; a backup holding anything the directory's
        kind does not keep aside is refused. A desktop profile's Radicle home in
        <appRoot>/R/<slot> is put back with its userData. Files the change created
        where there were none stay in place. Stop the node first (a running antd or
        kubo daemon is refused).

        --dry-run prints what would be put back and kept aside and writes nothing;
        --json prints the plan or the result as one JSON object. Exit 0 when done, 1
        when there is nothing to undo or the backup does not match the directory.
        """,
      options: [ExportOptions.dryRun, ExportOptions.json],
      argument: directory)
  }

  let path: String
  let dryRun: Bool
  let json: Bool
  let commandPath: String

  init(_ arguments: ParsedArguments) throws(CLIError) {
    guard let path = arguments.value(Self.directory), !path.isEmpty else {
      throw arguments.usage("missing <dir>")
    }
    self.path = path
    dryRun = arguments.flag(ExportOptions.dryRun)
    json = arguments.flag(ExportOptions.json)
    commandPath = arguments.commandPath
  }

  func run() throws {
    if dryRun {
      let plan = try wording { () throws(NodeError) in
        try NodeUndo.dryRun(path, events: NodeText.show)
      }
      return Output.standardOutput(json ? render(json: plan) : render(plan))
    }
    let outcome = try wording { () throws(NodeError) in
      try NodeUndo.undo(path, events: NodeText.show)
    }
    Output.standardOutput(json ? render(json: outcome) : render(outcome))
  }

  /// Runs `body`, its errors worded for this command.
  private func wording<Result>(_ body: () throws(NodeError) -> Result) throws -> Result {
    do {
      return try body()
    } catch {
      throw NodeText.cliError(error, .export)
    }
  }

  private func render(_ plan: UndoPlan) -> String {
    var report = TextReport()
    let backups = plan.restores.map(\.backup).joined(separator: " and ")
    report.section("Dry run, nothing was written; the undo would put back \(backups):")
    for restore in plan.restores {
      for path in restore.restored { report.row("restore", path) }
      for path in restore.keptAside { report.row("keep aside", path) }
    }
    var text = report.rendered
    for change in plan.interruptedChanges {
      text +=
        "The undo would first \(change.finishes ? "finish" : "undo") an interrupted change "
        + "from \(change.record); the plan above is for the directory as it is now\n"
    }
    for (restore, folder) in zip(plan.restores, plan.keptIn) where !restore.keptAside.isEmpty {
      text += "What is in place would be kept in \(folder) (named by the time of the undo)\n"
    }
    return text
  }

  private func render(_ outcome: UndoOutcome) -> String {
    var report = TextReport()
    let backups = outcome.backups.joined(separator: " and ")
    report.section("Put back \(backups) in the \(outcome.kind) \(outcome.directory):")
    for path in outcome.restored { report.row("restored", path) }
    var text = report.rendered
    for (directory, names) in NodeChangeResult.KeptAside.directories(outcome.keptAside) {
      text +=
        "Kept what was in place in \(directory): \(names.joined(separator: ", ")); "
        + "'freedom-keys undo \(NodeText.shellQuoted(outcome.directory))' puts it back\n"
    }
    return text
  }

  private func render(json plan: UndoPlan) -> String {
    var object = header(changed: true)
    object.append("directory", .string(plan.directory))
    object.append("kind", .string(plan.kind))
    object.append("backups", .array(plan.restores.map { .string($0.backup) }))
    object.append("restored", .array(plan.restores.flatMap(\.restored).map { .string($0) }))
    object.append("keptAside", .array(plan.restores.flatMap(\.keptAside).map { .string($0) }))
    let keptIn = zip(plan.restores, plan.keptIn).filter { !$0.0.keptAside.isEmpty }.map(\.1)
    if !keptIn.isEmpty { object.append("keptIn", .array(keptIn.map { .string($0) })) }
    ExportText.appendInterrupted(plan.interruptedChanges, to: &object)
    return JSONValue.object(object).rendered() + "\n"
  }

  private func render(json outcome: UndoOutcome) -> String {
    var object = header(changed: true)
    object.append("directory", .string(outcome.directory))
    object.append("kind", .string(outcome.kind))
    object.append("backups", .array(outcome.backups.map { .string($0) }))
    object.append("restored", .array(outcome.restored.map { .string($0) }))
    object.append(
      "keptAside",
      .array(
        outcome.keptAside.map {
          .object(["original": .string($0.original), "backup": .string($0.backup)])
        }))
    return JSONValue.object(object).rendered() + "\n"
  }

  private func header(changed: Bool) -> JSONObject {
    [
      "command": .string("undo"), "dryRun": .bool(dryRun), "ok": .bool(true),
      "changed": .bool(changed),
    ]
  }
}

import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys undo DIR`: puts back what the last change of a node directory kept aside
/// (`NodeUndo`), keeping what is in place aside in turn.
struct UndoCommand: Command {
  static let directory = Option.value(
    "dir", "dir", help: "The node directory or desktop userData whose last change to undo.")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "undo",
      abstract: "Put back what the last change of a node directory kept aside.",
      discussion: """
        An export with --force keeps what it replaces in
        <dir>/\(NodeSession.backupFolder)/<UTC time>-<old identity>/. 'undo' puts the newest
        of those backups back in one transaction under the directory's lock (a kill at
        any instant leaves one whole identity, the next run finishes or undoes it), and
        keeps what is in place now in a new backup, <UTC time>-undo: a second 'undo'
        puts that back. Nothing is deleted. <dir> is a bee, antd or Ant data directory,
        a kubo repository, a Radicle home or a desktop Freedom user data directory, each
        recognised as 'verify' recognises it; a backup holding anything the directory's
        kind does not keep aside is refused. A desktop profile's Radicle home in
        <appRoot>/R/<slot> is put back with its userData. Files the change created
        where there were none stay in place. Stop the node first (a running antd or
        kubo daemon is refused). --profile <id> undoes a profile of the app root <dir>
        (its userData is <dir>, or <dir>/Profiles/<id>), as export freedom and verify
        --freedom-dir find it.

        --dry-run prints what would be put back and kept aside and writes nothing;
        --json prints the plan or the result as one JSON object. Exit 0 when done, 1
        when there is nothing to undo or the backup does not match the directory.
        """,
      options: [ExportFreedomCommand.profile, ExportOptions.dryRun, ExportOptions.json],
      argument: directory)
  }

  let path: String
  /// `--profile`: a profile of the app root `path`.
  let profileName: String?
  let dryRun: Bool
  let json: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    guard let path = arguments.value(Self.directory), !path.isEmpty else {
      throw arguments.usage("missing <dir>")
    }
    self.path = path
    profileName = try arguments.nonEmpty(ExportFreedomCommand.profile)
    dryRun = arguments.flag(ExportOptions.dryRun)
    json = arguments.flag(ExportOptions.json)
  }

  func run() throws {
    if dryRun {
      let plan = try NodeText.run(.export) {
        try NodeUndo.dryRun(path, profile: profileName, events: NodeText.show)
      }
      return Output.standardOutput(
        json
          ? JSONValue.object(plan.json).rendered() + "\n"
          : TextReport.table(plan.dryRunTitle, plan.dryRunRows) + plan.dryRunNotes)
    }
    let outcome = try NodeText.run(.export) {
      try NodeUndo.undo(path, profile: profileName, events: NodeText.show)
    }
    Output.standardOutput(
      json
        ? JSONValue.object(outcome.json).rendered() + "\n"
        : TextReport.table(outcome.title, outcome.restored.map { ("restored", $0) })
          + NodeText.render(outcome.notes))
  }
}

import NodeFiles
import VaultKeys
import Wording

/// How an undo words its plan and result: a dry run's rows and notes, what was put back, and
/// the JSON object of both.
extension UndoPlan {
  /// The dry run's title line.
  package var dryRunTitle: String {
    let backups = restores.map(\.backup).joined(separator: " and ")
    return "Dry run, nothing was written; the undo would put back \(backups):"
  }

  /// What would be restored and kept aside, one row a path.
  package var dryRunRows: [(action: String, path: String)] {
    restores.flatMap { restore in
      restore.restored.map { ("restore", $0) } + restore.keptAside.map { ("keep aside", $0) }
    }
  }

  /// The interrupted changes it would first settle, and where what is in place would go.
  package var dryRunNotes: String {
    var text = ""
    for change in interruptedChanges {
      text +=
        "The undo would first \(change.finishes ? "finish" : "undo") an interrupted change "
        + "from \(change.record); the plan above is for the directory as it is now\n"
    }
    for (restore, folder) in zip(restores, keptIn) where !restore.keptAside.isEmpty {
      text += "What is in place would be kept in \(folder) (named by the time of the undo)\n"
    }
    return text
  }

  /// The dry run as `undo --dry-run --json` prints it.
  package var json: JSONObject {
    var object = UndoOutcome.header(dryRun: true)
    object.append("directory", .string(directory))
    object.append("kind", .string(kind))
    object.append("backups", .array(restores.map { .string($0.backup) }))
    object.append("restored", .array(restores.flatMap(\.restored).map { .string($0) }))
    object.append("keptAside", .array(restores.flatMap(\.keptAside).map { .string($0) }))
    let kept = zip(restores, keptIn).filter { !$0.0.keptAside.isEmpty }.map(\.1)
    if !kept.isEmpty { object.append("keptIn", .array(kept.map { .string($0) })) }
    NodeDirectory.InterruptedChange.append(interruptedChanges, to: &object)
    return object
  }
}

extension UndoOutcome {
  /// "Put back <backup> in the <kind> <directory>:".
  package var title: String {
    "Put back \(backups.joined(separator: " and ")) in the \(kind) \(directory):"
  }

  /// Where what was in place went, and how to put it back in turn.
  package var notes: NodeMessage {
    var text: NodeMessage = ""
    for (folder, names) in NodeChangeResult.KeptAside.directories(keptAside) {
      text +=
        "Kept what was in place in \(folder): \(names.joined(separator: ", ")); "
        + "\(remedy: .undo(NodeMessage.shellQuoted(directory))) puts it back\n"
    }
    return text
  }

  /// The result as `undo --json` prints it.
  package var json: JSONObject {
    var object = Self.header(dryRun: false)
    object.append("directory", .string(directory))
    object.append("kind", .string(kind))
    object.append("backups", .array(backups.map { .string($0) }))
    object.append("restored", .array(restored.map { .string($0) }))
    object.append("keptAside", .array(keptAside.map(\.json)))
    return object
  }

  static func header(dryRun: Bool) -> JSONObject {
    [
      "command": .string("undo"), "dryRun": .bool(dryRun), "ok": .bool(true),
      "changed": .bool(true),
    ]
  }
}

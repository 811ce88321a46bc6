import NodeFiles
import Wording

/// An export's plan as a report shows it, whether a dry run found it or an export applied it:
/// the same typed actions (`PlannedAction`) every node's plan returns, with the identities
/// before and after and the backup directory, worded without naming the tool.
package struct ExportSummary: Sendable {
  /// The directory (or key file) the user named.
  package let target: String
  /// What the export does, each path once.
  package let actions: [PlannedAction]
  /// Whether anything is (or would be) written.
  package let changes: Bool
  /// Whether the target exists (false: the export creates it).
  package var targetExists = true
  /// Where what is replaced or moved aside is kept.
  package var backupDirectory: String? = nil
  /// The interrupted changes the export would first finish or undo (dry runs only).
  package var interruptedChanges: [NodeDirectory.InterruptedChange] = []

  package init(target: String, actions: [PlannedAction], changes: Bool) {
    self.target = target
    self.actions = actions
    self.changes = changes
  }

  package init<P>(_ dryRun: ExportDryRun<P>, target: String) {
    self.init(target: target, actions: dryRun.actions, changes: dryRun.changes)
    targetExists = dryRun.directoryExists
    backupDirectory = dryRun.backupDirectory
    interruptedChanges = dryRun.interruptedChanges
  }

  /// The plan an export applied: moved aside only what the change did move.
  package init<P>(_ outcome: ExportOutcome<P>, target: String) {
    let moved = Set(outcome.removed + outcome.keptAside.map(\.original))
    self.init(
      target: target,
      actions: outcome.plan.actions.filter { $0.kind != .moveAside || moved.contains($0.path) },
      changes: outcome.plan.changes)
    backupDirectory = NodeChangeResult.KeptAside.directories(outcome.keptAside).first?.directory
  }

  /// The identities the target's keys hold before (in plan order, each once; a file replaced
  /// whose identity could not be read adds none).
  package var identitiesBefore: [String] {
    Self.unique(
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
  package var identitiesAfter: [String] { Self.unique(actions.compactMap(\.after)) }

  private static func unique(_ values: [String]) -> [String] {
    var seen: Set<String> = []
    return values.filter { seen.insert($0).inserted }
  }

  // MARK: - A dry run's report

  /// The dry run's title line.
  package var dryRunTitle: String {
    changes
      ? "Dry run, nothing was written; the export would:"
      : "Dry run, nothing was written; the export would change nothing:"
  }

  /// One row per action: what it does, and the path with the identities it changes.
  package var dryRunRows: [(action: String, path: String)] {
    actions.map { action in
      var identity = ""
      if let after = action.after {
        if case .replace(let before) = action.kind {
          identity = "  \(before ?? "(no identity read)") → \(after)"
        } else {
          identity = "  \(after)"
        }
      }
      return (action.kind.name, action.path + identity)
    }
  }

  /// The lines after the rows: interrupted changes, the identities, the backup, the target.
  package var dryRunNotes: String {
    var text = ""
    for change in interruptedChanges { text += change.exportNote + "\n" }
    text +=
      "Identities before: \(Self.list(identitiesBefore)); after: "
      + "\(Self.list(identitiesAfter))\n"
    if let backup = backupDirectory {
      text +=
        "What it replaces or moves aside would be kept in \(backup) (named by the time of "
        + "the export)\n"
    }
    if !targetExists { text += "\(target) does not exist: the export would create it\n" }
    return text
  }

  private static func list(_ identities: [String]) -> String {
    identities.isEmpty ? "none" : identities.joined(separator: ", ")
  }
}

extension ExportOutcome {
  /// Where the change kept what it replaced, and how to delete it (`KeptAside.lines`).
  package var keptAsideLines: String { NodeChangeResult.KeptAside.lines(keptAside) }
}

extension NodeDirectory.InterruptedChange {
  /// "The export would first finish an interrupted change from <record> …".
  package var exportNote: String {
    finishes
      ? "The export would first finish an interrupted change from \(record) (its new "
        + "identity is in place); the plan above is for the directory as it is now"
      : "The export would first undo an interrupted change from \(record) (the old "
        + "identity back in place); the plan above is for the directory as it is now"
  }
}

extension PlannedAction.Kind {
  /// The action in a word or two, as a dry run lists it.
  package var name: String {
    switch self {
    case .create: "create"
    case .replace: "replace"
    case .moveAside: "move aside"
    case .keep: "keep"
    }
  }
}

extension NodeChangeResult.KeptAside {
  /// The backup directories `kept` went into, each with what it holds (relative to it).
  package static func directories(_ kept: [Self]) -> [(directory: String, names: [String])] {
    var directories: [(directory: String, names: [String])] = []
    for item in kept {
      let marker = "/" + NodeLayout.replacedName + "/"
      let parts = item.backup.split(separator: marker, maxSplits: 1)
      guard parts.count == 2 else { continue }
      let name = parts[1].prefix { $0 != "/" }
      let directory = String(parts[0]) + marker + name
      let inside = String(parts[1].dropFirst(name.count + 1))
      if let index = directories.firstIndex(where: { $0.directory == directory }) {
        directories[index].names.append(inside)
      } else {
        directories.append((directory, [inside]))
      }
    }
    return directories
  }

  /// The report lines for what a change replaced or removed: where it was kept, and how to
  /// delete it once it is no longer needed (one line per backup directory).
  package static func lines(_ kept: [Self]) -> String {
    directories(kept).map { directory, names in
      "Kept what it replaced in \(directory): \(names.joined(separator: ", ")); delete that "
        + "directory once you no longer need it: rm -r \(NodeMessage.shellQuoted(directory))\n"
    }.joined()
  }

  /// The line for a file that already holds the identity.
  package static func unchanged(_ path: String, _ what: String) -> String {
    "\(path) already holds \(what); nothing to do\n"
  }
}

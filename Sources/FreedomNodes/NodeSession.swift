import NodeFiles
import Recovery
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Something a session tells its caller while it runs (the caller shows it or not).
package enum NodeEvent: Sendable, Equatable {
  /// The engine finished or undid an interrupted change, or has a warning (its own wording).
  case engine(String)
  /// A secret file other users can read; left as it is.
  case sharedSecretFile(path: String, mode: UInt32)
  /// antd's config.yaml names another data directory than the one written.
  case antdDataDirElsewhere(config: String, dataDir: String, directory: String)
  /// A key derivation starts (`encrypting` or `decrypting` the keystore at `path`).
  case keyDerivation(encrypting: Bool, path: String, kdf: Web3Keystore.KDF)
}

/// What an export did.
package struct ExportOutcome<Plan: NodePlan>: Sendable {
  /// The plan that was applied (or found to need nothing).
  package let plan: Plan
  /// What the engine wrote and removed; nil when nothing changed.
  package let result: NodeChangeResult?

  /// Full paths of what the change removed with the old identity.
  package var removed: [String] { result?.removed ?? [] }
  /// Where each old file or directory the change replaced or removed was kept.
  package var keptAside: [NodeChangeResult.KeptAside] { result?.keptAside ?? [] }
}

/// What an export would do, found without changing anything (`NodeSession.dryRun`).
package struct ExportDryRun<Plan: NodePlan>: Sendable {
  /// The plan the export would apply.
  package let plan: Plan
  /// The plan's actions, a move aside only for what is there to move.
  package let actions: [PlannedAction]
  /// Where the export would keep what it replaces or moves aside (the full path; its time is
  /// the dry run's, the export names its own), or nil when it would keep nothing aside.
  package let backupDirectory: String?
  /// Whether the node directory exists; false when the export would create it.
  package let directoryExists: Bool
  /// The changes earlier runs were interrupted in, which the export would first finish or
  /// undo (the dry run leaves them as they are, and plans on the directories as they are).
  package let interruptedChanges: [NodeDirectory.InterruptedChange]

  /// Whether the export would change anything (finishing an interrupted change included).
  package var changes: Bool { plan.changes || !interruptedChanges.isEmpty }
}

/// The one export path, the one verify path and the one target reader that every command uses:
/// lock and recover the directory (through the engine), inspect, then plan and apply, verify,
/// or read the targets, before the lock is released.
package enum NodeSession {
  /// Exports into `node`: inspect → plan → apply, all under the directory's lock. A directory
  /// created for it is removed again when the export fails.
  package static func export<Node: FreedomNode>(
    _ node: Node, _ inputs: Node.ExportInputs, consent: ExportConsent,
    events: (NodeEvent) -> Void = { _ in }
  ) throws(NodeError) -> ExportOutcome<Node.Plan> {
    try requireDirectoryOrAbsent(node.directory)
    try node.requireRightDirectory()
    let directory = try engine { () throws(NodeFileError) in
      try NodeDirectory.open(
        node.directory, layout: node.layout, create: node.createsDirectory,
        enclosing: node.enclosingDirectories,
        nested: node.nestedDirectories)
    }
    report(directory, events)
    var succeeded = false
    defer { directory.close(keep: succeeded) }
    let outcome = try NodeFileAccess.within(directory) { () throws(NodeError) in
      try export(node, inputs, consent: consent, in: directory, events: events)
    }
    succeeded = true
    return outcome
  }

  /// Inspect → plan → apply in the locked `directory`.
  private static func export<Node: FreedomNode>(
    _ node: Node, _ inputs: Node.ExportInputs, consent: ExportConsent,
    in directory: NodeDirectory, events: (NodeEvent) -> Void
  ) throws(NodeError) -> ExportOutcome<Node.Plan> {
    let plan = try node.plan(try node.inspect(), inputs, consent: consent, events: events)
    // Nothing the user had is deleted: what a consented replacement replaces, and any state
    // moved aside, is kept in a backup directory (without consent an export replaces nothing
    // that holds another identity).
    if Self.keepsAside(plan, consent) {
      var existing: [String] = []
      for target in [directory] + directory.nestedDirectories {
        existing += try engine { () throws(NodeFileError) in try target.backups() }
      }
      let backup = backupName(for: plan.actions, existing: existing)
      // The change may be applied in an enclosing directory (a desktop profile's app root).
      for target in directory.enclosingDirectories + [directory] + directory.nestedDirectories {
        target.defaultBackup = backup
      }
    }
    let result = try node.apply(plan, in: directory)
    for warning in result?.warnings ?? [] { events(.engine(warning)) }
    return ExportOutcome(plan: plan, result: result)
  }

  /// What `export` would do to `node`, changing nothing: the directory is opened for reading
  /// and locked, an interrupted change in it found and told (`interruptedChanges`) but left as
  /// it is, inspected and planned, never applied. A directory that does not exist is
  /// planned as empty and not created (an enclosing installation that exists is still locked
  /// and recovered first). Throws what the export would throw before writing, the refusal
  /// naming every conflict included.
  package static func dryRun<Node: FreedomNode>(
    _ node: Node, _ inputs: Node.ExportInputs, consent: ExportConsent,
    events: (NodeEvent) -> Void = { _ in }
  ) throws(NodeError) -> ExportDryRun<Node.Plan> {
    try requireDirectoryOrAbsent(node.directory)
    try node.requireRightDirectory()
    let exists = try engine { () throws(NodeFileError) in
      try FileStatus.following(node.directory) != nil
    }
    let enclosing = node.enclosingDirectories
    var outer: Int?
    for (index, item) in enclosing.enumerated()
    where try engine({ () throws(NodeFileError) in try FileStatus.following(item.path) })?
      .isDirectory == true
    {
      outer = index
    }
    let directory: NodeDirectory?
    if exists || !node.createsDirectory {
      // A node directory an export does not create fails here as the export's open would.
      directory = try engine { () throws(NodeFileError) in
        try NodeDirectory.openForReading(
          node.directory, layout: node.layout, enclosing: enclosing,
          nested: node.nestedDirectories, recovering: false)
      }
    } else if let outer {
      directory = try engine { () throws(NodeFileError) in
        try NodeDirectory.openForReading(
          enclosing[outer].path, layout: enclosing[outer].layout,
          enclosing: Array(enclosing[..<outer]), recovering: false)
      }
    } else {
      directory = nil
    }
    if let directory { report(directory, events) }
    defer { directory?.close() }
    // Read beneath the session's directories, as the export reads them.
    let (plan, actions): (Node.Plan, [PlannedAction])
    if let directory {
      (plan, actions) = try NodeFileAccess.within(directory) { () throws(NodeError) in
        try planned(node, inputs, consent: consent, events: events)
      }
    } else {
      (plan, actions) = try planned(node, inputs, consent: consent, events: events)
    }
    let own = exists ? directory : nil
    // As `export` decides it: a backup when the user consented to replacing or the plan moves
    // state aside, made only when something is there to keep; numbered after the backups
    // there, as the export numbers it.
    let keepsAside =
      keepsAside(plan, consent)
      && actions.contains {
        if case .replace = $0.kind { return true }
        return $0.kind == .moveAside
      }
    var backup: String?
    if Self.keepsAside(plan, consent) {
      var existing: [String] = []
      for target in [own].compactMap({ $0 }) + (own?.nestedDirectories ?? []) {
        existing += try engine { () throws(NodeFileError) in try target.backups() }
      }
      let name = backupName(for: plan.actions, existing: existing)
      if keepsAside { backup = name }
      // The engine checks the folders it would be made in, as the export's apply does.
      if let directory {
        for target in directory.enclosingDirectories + [directory] + directory.nestedDirectories {
          target.defaultBackup = name
        }
      }
    }
    // What the export would fail on before writing (a lock or directory this user may not
    // write, a running daemon, a backup folder that cannot take the backup), found without
    // writing.
    if let own {
      try NodeFileAccess.within(own) { () throws(NodeError) in
        try node.requireApplicable(plan, in: own)
      }
    } else {
      try node.requireApplicable(plan, in: nil)
    }
    return ExportDryRun(
      plan: plan, actions: actions,
      backupDirectory: backup.map { NodePath.join(node.directory, $0) },
      directoryExists: exists, interruptedChanges: directory?.interruptedChanges ?? [])
  }

  /// Verifies `node` against `profile` under its lock, after an interrupted change in it was
  /// finished or undone.
  package static func verify<Node: FreedomNode>(
    _ node: Node, against profile: FreedomProfile, events: (NodeEvent) -> Void = { _ in }
  ) throws(NodeError) -> [NodeFinding] {
    try requireDirectory(node.directory)
    try node.requireRightDirectory()
    let directory = try openForReading(node, events)
    defer { directory.close() }
    var findings = try NodeFileAccess.within(directory) { () throws(NodeError) in
      try node.verify(try node.inspect(), against: profile, events: events)
    }
    // What earlier changes kept aside, one line each: the way back to an older identity.
    for folder in [directory] + directory.nestedDirectories {
      for name in try engine({ () throws(NodeFileError) in try folder.backups() }) {
        findings.append(
          NodeFinding(
            "backup", .note, path: NodePath.join(folder.path, NodeLayout.replacedName + "/" + name),
            reason: .backup(directory: folder.path)))
      }
    }
    return findings
  }

  /// `node`'s directory opened for reading under its lock (finishing or undoing an interrupted
  /// change first), with what opening it found reported.
  private static func openForReading<Node: FreedomNode>(
    _ node: Node, _ events: (NodeEvent) -> Void
  ) throws(NodeError) -> NodeDirectory {
    let directory = try engine { () throws(NodeFileError) in
      try NodeDirectory.openForReading(
        node.directory, layout: node.layout, enclosing: node.enclosingDirectories,
        nested: node.nestedDirectories)
    }
    report(directory, events)
    return directory
  }

  /// The targets `recover` searches for in `node`.
  package static func recoveryTargets<Node: RecoveryTargetSource>(
    _ node: Node, events: (NodeEvent) -> Void = { _ in }
  ) throws(NodeError) -> [RecoveryTarget] {
    try reading(node, events: events) { state throws(NodeError) in
      try node.recoveryTargets(state)
    }
  }

  /// Runs `body` on `node`'s state read under its lock (for reading).
  package static func reading<Node: FreedomNode, Result>(
    _ node: Node, events: (NodeEvent) -> Void = { _ in },
    _ body: (Node.State) throws(NodeError) -> Result
  ) throws(NodeError) -> Result {
    try requireDirectory(node.directory)
    let directory = try openForReading(node, events)
    defer { directory.close() }
    return try NodeFileAccess.within(directory) { () throws(NodeError) in
      try body(try node.inspect())
    }
  }

  /// `node`'s plan for its state, and its actions less what would move aside nothing.
  private static func planned<Node: FreedomNode>(
    _ node: Node, _ inputs: Node.ExportInputs, consent: ExportConsent,
    events: (NodeEvent) -> Void
  ) throws(NodeError) -> (Node.Plan, [PlannedAction]) {
    let plan = try node.plan(try node.inspect(), inputs, consent: consent, events: events)
    var actions: [PlannedAction] = []
    for action in plan.actions {
      if action.kind == .moveAside, try NodeFileAccess.status(action.path) == nil { continue }
      actions.append(action)
    }
    return (plan, actions)
  }

  /// Whether an export of `plan` keeps what it replaces in a backup directory: when the user
  /// consented to replacing something or the plan moves state aside.
  static func keepsAside(_ plan: some NodePlan, _ consent: ExportConsent) -> Bool {
    consent.replacesOtherIdentities || consent.replacesVault
      || plan.actions.contains { $0.kind == .moveAside }
  }

  /// `.freedom-keys.replaced/<UTC time>-<the old identity>`, the backup directory of an export
  /// (the engine makes it only when something is moved there, under the lock): the time to the
  /// second and the first key identity the plan replaces, in file-name-safe characters.
  static func backupName(
    for actions: [PlannedAction], existing: [String] = [], at date: Date = Date()
  ) -> String {
    let replaced = actions.lazy.compactMap { action -> String? in
      guard case .replace(let before?) = action.kind, action.after != nil else { return nil }
      return before
    }.first
    return backupName(label: replaced ?? "replaced", existing: existing, at: date)
  }

  /// `.freedom-keys.replaced/<n>-<UTC time>Z-<label>`: n (four digits or more) one above the
  /// highest sequence number of `existing` (the backups the directories hold), so the newest
  /// backup is always the one with the highest number (`NodeUndo.latest`) whatever the clock
  /// said (a Pi before NTP, a restored VM) and whatever the labels; the time is for the
  /// reader. The engine still adds `-2`, `-3`, … when the name is taken.
  static func backupName(label: String, existing: [String], at date: Date = Date()) -> String {
    // 2026-12-01T10:00:00.000Z → 2026-12-01T10-00-00Z
    let time =
      String(DesktopVault.isoTimestamp(date).prefix(19).map { $0 == ":" ? "-" : $0 }) + "Z"
    let safe = String(label.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    let next = (existing.compactMap { BackupName($0)?.sequence }.max() ?? 0) + 1
    return NodeLayout.replacedName + "/" + BackupName.sequenceText(next) + "-" + time + "-" + safe
  }

  static func report(_ directory: NodeDirectory, _ events: (NodeEvent) -> Void) {
    if let note = directory.recoveryNote { events(.engine(note)) }
    for warning in directory.takeWarnings() { events(.engine(warning)) }
  }

  /// Applies `change` in `node`: a failure that was undone is `changeFailed`.
  static func apply(_ change: NodeChange, in node: NodeDirectory) throws(NodeError)
    -> NodeChangeResult
  {
    do {
      return try node.apply(change)
    } catch {
      if error.code == .recovery { throw .files(error) }
      throw .changeFailed(error, directory: node.path)
    }
  }

  /// Throws what locking `node` and applying `change` there would fail on for want of
  /// permission, changing nothing; with no `node`, what creating the directory `path` would.
  static func requireApplicable(
    _ change: NodeChange?, in node: NodeDirectory?, creating path: String
  )
    throws(NodeError)
  {
    try engine { () throws(NodeFileError) in
      if let node {
        try node.requirePermission(toApply: change)
      } else {
        try NodeDirectory.requirePermission(toCreate: path)
      }
    }
  }

  /// Runs an engine call, its error typed as this library's.
  static func engine<T>(_ body: () throws(NodeFileError) -> T) throws(NodeError) -> T {
    do {
      return try body()
    } catch {
      throw .files(error)
    }
  }

  /// Fails unless `path` is absent or a directory.
  static func requireDirectoryOrAbsent(_ path: String) throws(NodeError) {
    guard let status = try engine({ () throws(NodeFileError) in try FileStatus.following(path) })
    else { return }
    guard status.isDirectory else { throw .notADirectory(path) }
  }

  /// Fails unless `path` is an existing directory.
  static func requireDirectory(_ path: String) throws(NodeError) {
    guard let status = try engine({ () throws(NodeFileError) in try FileStatus.following(path) })
    else { throw .noSuchDirectory(path) }
    guard status.isDirectory else { throw .notADirectory(path) }
  }
}

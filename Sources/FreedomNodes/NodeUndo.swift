import NodeFiles

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What an undo would do, found without changing anything (`NodeUndo.dryRun`).
package struct UndoPlan: Sendable {
  /// The node directory.
  package let directory: String
  /// What it is ("bee data directory").
  package let kind: String
  /// What the engine would put back and keep aside: one plan for the directory, and one for
  /// a desktop installation's Radicle home outside it (`<appRoot>/R/<slot>`) when it holds
  /// the same change's backup.
  package let restores: [NodeRestorePlan]
  /// Where what is in place now would be kept, in each directory (the full paths; the time is
  /// the dry run's, the undo names its own).
  package let keptIn: [String]
  /// The changes earlier runs were interrupted in, which the undo would first finish or undo
  /// (the dry run leaves them as they are).
  package let interruptedChanges: [NodeDirectory.InterruptedChange]
}

/// What an undo did.
package struct UndoOutcome: Sendable {
  /// The node directory.
  package let directory: String
  /// What it is ("bee data directory").
  package let kind: String
  /// The backups that were put back (full paths): the directory's, and that of a desktop
  /// installation's Radicle home outside it when it held the same change's.
  package let backups: [String]
  /// Full paths of what was put back.
  package let restored: [String]
  /// Where each entry that was in place went.
  package let keptAside: [NodeChangeResult.KeptAside]
}

/// Undo: the last backup a change of a node directory kept (`.freedom-keys.replaced/<name>`)
/// put back under the directory's lock, as one transaction of the engine
/// (`NodeDirectory.restore`), what is in place now kept aside in a new backup in turn, so an
/// undo is undone by the next one. The directory's kind (bee, antd, Ant, kubo, Radicle, a
/// desktop installation) is recognised as `verify` and the exports recognise it, and its layout
/// says what a backup may hold.
package enum NodeUndo {
  /// The node whose directory `path` is: a part of a desktop installation by its place (its
  /// ant-data, bee-data, radicle-data, ipfs-data or `R/<slot>`), an installation by desktop's
  /// files, else the node whose files it holds.
  package static func node(at path: String) throws(NodeError) -> any FreedomNode {
    try NodeSession.requireDirectory(path)
    if case .partOfInstallation(let part, _)? = try DesktopDirectory.part(path) {
      switch part {
      case .antData: return Antd(directory: path)
      case .beeData: return Bee(directory: path)
      case .radicleData, .radicleHome: return Radicle(home: path)
      case .ipfsData: return Kubo(repository: path)
      case .identity, .radicleHomes, .profiles: throw .notANodeDirectory(path)
      }
    }
    if try DesktopDirectory.holdsFreedom(path) { return try DesktopInstallation(userData: path) }
    func has(_ name: String) throws(NodeError) -> Bool {
      try NodeFileAccess.status(NodePath.join(path, name)) != nil
    }
    switch try DesktopDirectory.node(path) {
    case .radicle: return Radicle(home: path)
    case .kubo: return Kubo(repository: path)
    case .bee: return Bee(directory: path)
    case .swarmNode: return try has(Antd.configFile) ? Antd(directory: path) : Bee(directory: path)
    case nil:
      if try has(Ant.identityFile) { return Ant(directory: path) }
      if try has(Kubo.configFile) { return Kubo(repository: path) }
      throw .notANodeDirectory(path)
    }
  }

  /// The backup an undo puts back: the newest of `names` by the sequence number
  /// `NodeSession.backupName` gives, never by the clock; names without one (made before
  /// freedom-keys numbered its backups) come before every numbered one, by their time and
  /// counter. Names of another form are no backup of a change.
  static func latest(_ names: [String]) -> String? {
    names.compactMap { name in BackupName(name).map { ($0.order, name) } }
      .max { ($0.0.0, $0.0.1, $0.0.2, $0.1) < ($1.0.0, $1.0.1, $1.0.2, $1.1) }?.1
  }

  /// The node an undo of `path` changes: with `profile`, that profile of the desktop app root
  /// `path` (as an export or verify of it finds it), else `node(at:)`.
  static func node(at path: String, profile: String?) throws(NodeError) -> any FreedomNode {
    guard let profile else { return try node(at: path) }
    return try DesktopInstallation(appRoot: path, profile: profile)
  }

  /// What `undo` would do in `path` (with `profile`, that profile of the app root `path`),
  /// changing nothing (an interrupted change is found and told, and left as it is).
  package static func dryRun(
    _ path: String, profile: String? = nil, events: (NodeEvent) -> Void = { _ in }
  ) throws(NodeError) -> UndoPlan {
    let node = try node(at: path, profile: profile)
    let directory = try NodeSession.engine { () throws(NodeFileError) in
      try NodeDirectory.openForReading(
        node.directory, layout: node.layout,
        enclosing: node.enclosingDirectories,
        nested: node.nestedDirectories, recovering: false)
    }
    NodeSession.report(directory, events)
    defer { directory.close() }
    let (targets, holding, backup, keeping) = try undone(node, directory)
    var plans: [NodeRestorePlan] = []
    for target in targets {
      plans.append(
        try NodeSession.engine { () throws(NodeFileError) in
          try target.requirePermission(toApply: nil)
          return try target.planRestore(backup)
        })
    }
    try requireStopped(node)
    return UndoPlan(
      directory: profile == nil ? path : node.directory, kind: node.layout.name, restores: plans,
      keptIn: holding.map { $0.full(keeping) }, interruptedChanges: directory.interruptedChanges)
  }

  /// Puts back the newest backup of `path` (with `profile`, of that profile of the app root
  /// `path`; see the type), after an interrupted change there
  /// was finished or undone. A desktop profile whose Radicle home lies outside its userData
  /// (`<appRoot>/R/<slot>`) holds the same change's backup there too: both are put back in one
  /// transaction rooted where the export's was (`DesktopInstallation.transactionRoot`); only a
  /// Radicle home outside that too is put back in a second transaction (as the export wrote it).
  package static func undo(
    _ path: String, profile: String? = nil, events: (NodeEvent) -> Void = { _ in }
  ) throws(NodeError) -> UndoOutcome {
    let node = try node(at: path, profile: profile)
    let directory = try NodeSession.engine { () throws(NodeFileError) in
      try NodeDirectory.open(
        node.directory, layout: node.layout, create: false,
        enclosing: node.enclosingDirectories,
        nested: node.nestedDirectories)
    }
    NodeSession.report(directory, events)
    defer { directory.close() }
    let (targets, holding, backup, keeping) = try undone(node, directory)
    try requireStopped(node)
    // kubo's own lock, held through the change as an export holds it.
    let kuboLock = try (node as? Kubo)?.repositoryLock()
    var restored: [String] = []
    var kept: [NodeChangeResult.KeptAside] = []
    for target in targets {
      let result: NodeChangeResult
      do {
        result = try target.restore(backup, keepingCurrentIn: keeping)
      } catch {
        if error.code == .recovery || error.code == .unexpectedFile { throw .files(error) }
        throw .changeFailed(error, directory: target.path)
      }
      for warning in result.warnings { events(.engine(warning)) }
      restored += result.written
      kept += result.keptAside
    }
    withExtendedLifetime(kuboLock) {}
    return UndoOutcome(
      directory: profile == nil ? path : node.directory, kind: node.layout.name,
      backups: holding.map { $0.full(NodeLayout.replacedName + "/" + backup) },
      restored: restored, keptAside: kept)
  }

  /// The directories an undo of `directory` changes, one transaction each (it, and a desktop
  /// installation's Radicle home outside it, each when it holds the backup — or, for a profile
  /// whose transaction spans both, the one directory they lie in), those holding the backup,
  /// the newest backup's name among them, and the name what is in place is kept under
  /// (`<time>Z-undo`, counted above every backup there).
  private static func undone(_ node: any FreedomNode, _ directory: NodeDirectory)
    throws(NodeError) -> ([NodeDirectory], [NodeDirectory], String, String)
  {
    var candidates = [directory]
    if let installation = node as? DesktopInstallation, installation.radicleInside == nil,
      let home = directory.nested(installation.radicleHome)
    {
      candidates.append(home)
    }
    var names: [[String]] = []
    for candidate in candidates {
      names.append(try NodeSession.engine { () throws(NodeFileError) in try candidate.backups() })
    }
    guard let backup = latest(names.flatMap { $0 }) else {
      throw .nothingToUndo(directory: directory.path)
    }
    let holding = zip(candidates, names).filter { $0.1.contains(backup) }.map(\.0)
    var targets = holding
    if let installation = node as? DesktopInstallation, installation.spansProfileFolders {
      // One transaction under the folder both lie in, each putting back its own part.
      targets = [try installation.transactionDirectory(directory)]
    }
    return (
      targets, holding, backup,
      NodeSession.backupName(label: undoLabel, existing: names.flatMap { $0 })
    )
  }

  /// The label of the backup an undo keeps what is in place in.
  static let undoLabel = "undo"

  /// Refuses while antd runs on the directory (its own, or a desktop installation's ant-data).
  private static func requireStopped(_ node: any FreedomNode) throws(NodeError) {
    if let antd = node as? Antd { try antd.requireStopped() }
    if let installation = node as? DesktopInstallation { try installation.antd.requireStopped() }
  }
}

/// A backup's name as `NodeSession.backupName` makes it: `<n>-<UTC time to the second>Z-<label>`,
/// n the directory's sequence number of the change (four digits or more); or, as older versions
/// made it, `<UTC time>Z-<label>`, then `-<n>` (2, 3, …) when an earlier backup of the same
/// second existed. The engine adds `-2`, `-3`, … to either when the name is taken.
struct BackupName {
  /// The change's sequence number, or nil for a name an older version made.
  let sequence: Int?
  /// `2026-12-01T10-00-00Z`.
  let time: String
  /// 1 without a counter.
  let counter: Int

  static let timeLength = 20
  static let sequenceDigits = 4

  /// `n` with leading zeros to `sequenceDigits`.
  static func sequenceText(_ sequence: Int) -> String {
    let digits = String(sequence)
    return String(repeating: "0", count: max(0, sequenceDigits - digits.utf8.count)) + digits
  }

  /// What orders backups: the sequence number first (an older name has none and comes
  /// before), then, for older names only, the time; then the counter.
  var order: (Int, String, Int) { (sequence ?? 0, sequence == nil ? time : "", counter) }

  init?(_ name: String) {
    var rest = Substring(name)
    var sequence: Int?
    if let dash = rest.firstIndex(of: "-") {
      let digits = rest[..<dash]
      if let number = Int(digits), number >= 1, Self.sequenceText(number) == digits,
        Self.time(of: rest[rest.index(after: dash)...]) != nil
      {
        sequence = number
        rest = rest[rest.index(after: dash)...]
      }
    }
    guard let time = Self.time(of: rest) else { return nil }
    self.sequence = sequence
    self.time = time
    let label = rest.split(separator: "-", omittingEmptySubsequences: false).last ?? ""
    if rest.utf8.count > Self.timeLength + 1 + label.utf8.count, let number = Int(label),
      String(number) == label, number >= 2
    {
      counter = number
    } else {
      counter = 1
    }
  }

  /// The time `name` starts with, when a label follows it.
  private static func time(of name: Substring) -> String? {
    let utf8 = Array(name.utf8)
    guard utf8.count > Self.timeLength + 1, utf8[Self.timeLength] == UInt8(ascii: "-") else {
      return nil
    }
    let pattern = Array("0000-00-00T00-00-00Z".utf8)
    for (byte, expected) in zip(utf8, pattern) {
      let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      guard expected == UInt8(ascii: "0") ? isDigit : byte == expected else { return nil }
    }
    return String(decoding: utf8[..<Self.timeLength], as: UTF8.self)
  }
}

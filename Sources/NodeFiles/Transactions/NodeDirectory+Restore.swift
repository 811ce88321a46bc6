import SystemCalls

/// What putting a backup back would do, found without changing anything
/// (`NodeDirectory.planRestore`).
package struct NodeRestorePlan: Sendable, Equatable {
  /// The backup (the full path).
  package let backup: String
  /// Full paths of what is put back from it, in the order it is put back.
  package let restored: [String]
  /// Full paths of what is there now and is kept aside in a new backup: what the backup puts
  /// back replaces, and the state the layout ties to the identity now in place.
  package let keptAside: [String]
}

/// Undo: a backup an earlier change kept (`.freedom-keys.replaced/<name>`, see
/// `NodeChange.backup`) put back as one transaction, with the intent record and commit mark of
/// any change. What is there now is kept aside in a new backup in turn, so an undo is itself
/// undone the same way and nothing is deleted; the backup put back is emptied (its folders
/// left empty are removed, what it still holds stays).
///
/// The layout says what a backup may hold: the identity directory, the layout's files and its
/// identity state, each at its path below the backup. Anything else there, a link, or a file
/// where a directory belongs (or the reverse) is refused before anything is written.
extension NodeDirectory {
  /// One entry of a backup that goes back to its place.
  struct RestoredEntry {
    enum Kind { case identityDirectory, file, state }
    let path: String
    let kind: Kind
    /// What is at `path` now.
    let current: FileStatus?
  }

  /// What restoring the backup `name` (below `.freedom-keys.replaced`) would do; throws what
  /// `restore` would refuse before writing. Writes nothing: a dry run calls it on a directory
  /// opened for reading.
  package func planRestore(_ name: String) throws(NodeFileError) -> NodeRestorePlan {
    let (source, areas) = try restoreSource(name)
    let (entries, others) = try restoredEntries(source, areas: areas)
    var kept = entries.filter { $0.current != nil }.map { full($0.path) }
    kept += others.map(full)
    return NodeRestorePlan(
      backup: full(areas[0]), restored: entries.map { full($0.path) }, keptAside: kept)
  }

  /// Puts the backup `name` (below `.freedom-keys.replaced`) back as one transaction (see the
  /// type's invariants): what is in place now goes into `keepingCurrentIn` (relative, below
  /// `.freedom-keys.replaced`; `-2`, `-3`, … added when it is taken), made before the commit.
  /// On failure every step is undone and the backup is as it was.
  @discardableResult
  package func restore(_ name: String, keepingCurrentIn backup: String) throws(NodeFileError)
    -> NodeChangeResult
  {
    try requireChangeable()
    guard IntentRecord.isBackupPath(backup), backup.hasPrefix(NodeLayout.replacedName + "/")
    else {
      throw NodeFileError(
        .unexpectedFile, "'\(backup)' does not name a backup directory in \(path)")
    }
    let (source, areas) = try restoreSource(name)
    let (entries, others) = try restoredEntries(source, areas: areas)
    var result = NodeChangeResult()
    let staging = NodeLayout.stagingName
    try root.makeDirectory(staging, owner: try root.owner())
    var steps: [IntentRecord.Step] = []
    var keeping: String?
    do throws(NodeFileError) {
      for directory in try missingParents(of: entries.map(\.path), namingLinks: false) {
        steps.append(.init(kind: .mkdir, index: steps.count, path: directory))
      }
      // The current identity's state, and what the backup's state replaces, go aside first.
      let asides = others + entries.filter { $0.kind == .state && $0.current != nil }.map(\.path)
      for relative in asides {
        steps.append(.init(kind: .aside, index: steps.count, path: relative))
      }
      for entry in entries where entry.kind == .state {
        let status = try requireStatus(kept(entry.path, in: source))
        steps.append(
          .init(kind: .restore, index: steps.count, path: entry.path, inode: status.inode))
      }
      // The files, then the identity directory: its swap is the commit point, as in `apply`.
      for entry in entries where entry.kind == .file {
        let staged = NodePath.join(staging, String(steps.count))
        try root.link(kept(entry.path, in: source), staged)
        let status = try requireStatus(staged)
        steps.append(
          .init(
            kind: .file, index: steps.count, path: entry.path, inode: status.inode,
            existed: entry.current != nil))
      }
      for entry in entries where entry.kind == .identityDirectory {
        let origin = kept(entry.path, in: source)
        let originStatus = try requireStatus(origin)
        let staged = NodePath.join(staging, String(steps.count))
        try root.makeDirectory(staged, owner: (originStatus.owner, originStatus.group))
        for file in try root.names(origin) {
          try root.link(NodePath.join(origin, file), NodePath.join(staged, file))
        }
        try root.directory(staged)?.sync()
        let status = try requireStatus(staged)
        steps.append(
          .init(
            kind: .dir, index: steps.count, path: entry.path, inode: status.inode,
            existed: entry.current != nil))
      }
      if steps.contains(where: { $0.oldEntry != nil }) {
        keeping = try prepareBackup(backup, for: steps)
      }
      try root.directory(staging)?.sync()
      try root.sync()
    } catch {
      _ = try? root.removeTree(staging)
      throw error
    }
    result.written = entries.map { full($0.path) }
    try commit(steps, backup: keeping, source: source, into: &result)
    return result
  }

  /// Where the entry `relative` is kept in the backup `source` (see `NodeLayout.parts`).
  private func kept(_ relative: String, in source: String) -> String {
    IntentRecord.location(of: relative, in: source, parts: layout.parts)
  }

  /// `.freedom-keys.replaced/<name>`, checked: one plain name, and it and the folder it is in
  /// real directories (never links) of the directory's owner or this user, writable; with the
  /// folders that hold it (its own, `<part>/.freedom-keys.replaced/<name>` in each part that
  /// has it), at least one.
  private func restoreSource(_ name: String) throws(NodeFileError) -> (String, [String]) {
    let source = NodeLayout.replacedName + "/" + name
    guard !name.isEmpty, !name.contains("/"), IntentRecord.isBackupPath(source) else {
      throw NodeFileError(.unexpectedFile, "'\(name)' does not name a backup in \(path)")
    }
    let owner = try root.owner()
    var areas: [String] = []
    area: for base in [""] + layout.parts {
      for folder in [NodeLayout.replacedName, source] {
        let inArea = base.isEmpty ? folder : base + "/" + folder
        guard let status = try root.status(inArea) else {
          if layout.parts.isEmpty {
            throw NodeFileError(.unexpectedFile, "\(full(inArea)) does not exist")
          }
          continue area
        }
        try requireBackupFolder(inArea, status, owner: owner)
      }
      areas.append(base.isEmpty ? source : base + "/" + source)
    }
    guard !areas.isEmpty else {
      throw NodeFileError(.unexpectedFile, "\(full(source)) does not exist")
    }
    return (source, areas)
  }

  /// The entries of `source` the layout accounts for, in the order they go back, and the
  /// identity state present now that the backup does not replace, in a folder something goes
  /// back to (it goes aside too). Throws
  /// when the backup holds anything else, nothing at all, or an entry of the wrong kind.
  private func restoredEntries(_ source: String, areas: [String]) throws(NodeFileError)
    -> ([RestoredEntry], [String])
  {
    let identity = layout.identityDirectory
    func inIdentity(_ relative: String) -> Bool {
      identity.map { relative.hasPrefix($0 + "/") } ?? false
    }
    var candidates: [(String, RestoredEntry.Kind)] = []
    if let identity { candidates.append((identity, .identityDirectory)) }
    for file in layout.files where !inIdentity(file) { candidates.append((file, .file)) }
    for state in layout.identityState
    where !inIdentity(state) && !layout.files.contains(state) {
      candidates.append((state, .state))
    }
    var found: [String: RestoredEntry.Kind] = [:]
    // Each folder holding the backup is walked for the entries of its own part (or, the
    // directory's own, for those in no part).
    for area in areas {
      let part = area == source ? "" : String(area.dropLast(source.utf8.count + 1))
      func mismatch(_ relative: String, _ reason: String) -> NodeFileError {
        NodeFileError(
          .unexpectedFile,
          "\(full(NodePath.join(area, relative))) \(reason): \(full(area)) does not match a "
            + "\(layout.name) and nothing was changed — put its files back by hand")
      }
      let own: [(String, RestoredEntry.Kind)] = candidates.compactMap { candidate in
        guard (IntentRecord.part(of: candidate.0, parts: layout.parts) ?? "") == part else {
          return nil
        }
        return (
          part.isEmpty ? candidate.0 : String(candidate.0.dropFirst(part.count + 1)), candidate.1
        )
      }
      var folders = [""]
      while let folder = folders.popLast() {
        for name in try root.names(folder.isEmpty ? area : NodePath.join(area, folder)) {
          let relative = folder.isEmpty ? name : folder + "/" + name
          guard let status = try root.status(NodePath.join(area, relative)) else { continue }
          if let kind = own.first(where: { $0.0 == relative })?.1 {
            try requireKind(kind, status, relative, in: area, mismatch: mismatch)
            found[part.isEmpty ? relative : part + "/" + relative] = kind
          } else if status.isDirectory, own.contains(where: { $0.0.hasPrefix(relative + "/") }) {
            folders.append(relative)
          } else {
            throw mismatch(
              relative, "is not something kept aside for a \(layout.name)")
          }
        }
      }
    }
    guard !found.isEmpty else {
      throw NodeFileError(
        .unexpectedFile,
        "\(areas.map(full).joined(separator: " and ")) holds nothing to put back: it does not "
          + "match a \(layout.name) and nothing was changed")
    }
    var entries: [RestoredEntry] = []
    for (relative, kind) in candidates where found[relative] != nil {
      let current = try root.status(relative)
      if let current {
        switch kind {
        case .identityDirectory where !current.isDirectory,
          .file where !current.isRegularFile:
          throw NodeFileError(
            .unexpectedFile,
            "\(full(relative)) is \(current.kindDescription), not what \(full(source)) puts "
              + "back there; nothing was changed — move it away")
        default: break
        }
      }
      entries.append(RestoredEntry(path: relative, kind: kind, current: current))
    }
    // The state of the identity in place beside what goes back (in the same folder, or the
    // directory's own): a desktop vault's quick-unlock.dat stays when only ant-data goes back.
    var others: [String] = []
    for (relative, kind) in candidates where kind == .state && found[relative] == nil {
      let folder = NodePath.parent(relative)
      guard folder == "." || found.keys.contains(where: { $0.hasPrefix(folder + "/") }) else {
        continue
      }
      if try root.status(relative) != nil { others.append(relative) }
    }
    return (entries, others)
  }

  /// A backup's entry is what its kind needs: a regular file; a directory of regular files
  /// (the identity directory); a regular file or a directory (state). Never a link.
  private func requireKind(
    _ kind: RestoredEntry.Kind, _ status: FileStatus, _ inSource: String, in source: String,
    mismatch: (String, String) -> NodeFileError
  ) throws(NodeFileError) {
    let relative = NodePath.join(source, inSource)
    switch kind {
    case .file:
      guard status.isRegularFile else {
        throw mismatch(inSource, "is \(status.kindDescription), not a regular file")
      }
    case .state:
      guard status.isRegularFile || status.isDirectory else {
        throw mismatch(inSource, "is \(status.kindDescription)")
      }
    case .identityDirectory:
      guard status.isDirectory else {
        throw mismatch(inSource, "is \(status.kindDescription), not a directory")
      }
      for name in try root.names(relative) {
        guard let inner = try root.status(NodePath.join(relative, name)), inner.isRegularFile
        else {
          throw mismatch(inSource + "/" + name, "is not a regular file")
        }
      }
    }
  }

  /// What is at `relative`, which must be there.
  private func requireStatus(_ relative: String) throws(NodeFileError) -> FileStatus {
    guard let status = try root.status(relative) else {
      throw .system("inspect", full(relative), Platform.noEntry)
    }
    return status
  }

  /// After an undo is committed: the hard links its backup still holds to files now in place
  /// are removed (the files themselves stay where they are), then its folders left empty.
  /// What it holds that is not in place (an entry rewritten since) stays.
  func removeRestoredLinks(_ record: IntentRecord, _ source: String) throws(NodeFileError) {
    for step in record.steps where step.kind == .file || step.kind == .dir {
      let origin = record.location(of: step.path, in: source)
      guard let kept = try root.status(origin) else { continue }
      if step.kind == .file {
        if let placed = try root.status(step.path), kept.isRegularFile, placed.isSameFile(as: kept)
        {
          try root.remove(origin)
        }
        continue
      }
      guard kept.isDirectory else { continue }
      for name in try root.names(origin) {
        let link = NodePath.join(origin, name)
        guard let linked = try root.status(link), linked.isRegularFile,
          let placed = try root.status(NodePath.join(step.path, name)),
          placed.isSameFile(as: linked)
        else { continue }
        try root.remove(link)
      }
      try root.directory(origin)?.sync()
    }
    removeUnusedBackup(source, parts: record.parts)
    try root.sync()
  }
}

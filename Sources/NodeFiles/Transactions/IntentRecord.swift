/// The journal of one change: what is created, moved aside and replaced by what, so that a
/// later run can finish or undo it after a crash. It lives in `<dir>/.freedom-keys.intent`,
/// written (temporary file, fsync, rename, fsync of the directory) before the first change to
/// the directory and removed after the last one. A text file of one step a line:
///
///     freedom-keys intent 2
///     mkdir 0 radicle-data
///     aside 1 ant-data/statestore
///     file 2 ant-data/config.yaml 1234568 old
///     dir 3 radicle-data/keys 1234567 new
///     backup .freedom-keys.replaced/2026-12-01T10-00-00Z-0xd21d
///     end
///     committed
///
/// `mkdir i path`: the transaction creates the directory path (undone by removing it).
/// `aside i path`: path was (or is being) renamed to `.freedom-keys.old/i`.
/// `file i path inode old|new`: `.freedom-keys.new/i` (that inode) replaces path; `old` when a
/// file was there, kept as a hard link `.freedom-keys.old/i` until the change is finished.
/// `dir i path inode old|new`: `.freedom-keys.new/i` is swapped with the directory path.
/// `restore i path inode`: `<source>/path` (that inode) is renamed to path, which is absent then
/// (an `aside` step moved what was there); an undo (`NodeDirectory.restore`) writes it. It is
/// the one step that may name a path an earlier step names, and only an `aside` step's: what
/// is in place goes aside, then the backup's entry takes its place (undone in reverse order).
/// `backup path`: the old entries go into that directory (`path/<step path>`) when the change
/// is finished, instead of being deleted.
/// `source path`: the backup an undo puts back (`restore` steps rename out of it, `file` and
/// `dir` steps are staged as hard links to its files); once the change is finished, the links
/// it still holds to files now in place are removed, and its folders that are left empty.
/// `part path`: a folder (a nested node directory) that keeps its own backups: an old entry
/// below it goes to `path/<backup>/<the rest of its path>` instead of `<backup>/<step path>`,
/// and a restore step below it renames out of `path/<source>/…` (see `location`). A desktop
/// app root's change of one profile names `Profiles/<id>` and `R/<slot>`, so each keeps its
/// backups where an undo of that folder finds them.
/// `committed`: written (the record rewritten the same way and flushed) once every replacement
/// is in place, before clean-up starts. Recovery finishes the change when it is there, whatever
/// the node's files look like. Without it the change is undone, unless the kill fell between
/// the last replacement and the mark: the commit point is that last rename (a node may already
/// run on the new identity), which recovery tells from the engine's own staging or aside entry
/// of that one step (`NodeDirectory.isLastReplacementDone`), never from the node's files.
///
/// Every path is relative to the node directory and checked (`NodePath.isBeneath`, none of the
/// engine's own `.freedom-keys.*` names), so a record describes itself: recovery needs no
/// layout to act on it.
///
/// Version 1 (freedom-keys before the commit mark) has no `mkdir`, `backup` or `committed`
/// lines; its change counts as committed when every `file` and `dir` path has the recorded
/// inode (the old rule, kept only to recover what an older version left).
struct IntentRecord: Equatable {
  enum Kind: String { case mkdir, aside, file, dir, restore }

  struct Step: Equatable {
    let kind: Kind
    let index: Int
    let path: String
    /// The staged file's or directory's inode (file and dir steps), or the restored entry's
    /// (restore steps).
    let inode: UInt64
    /// Whether something was at `path` before.
    let existed: Bool

    init(kind: Kind, index: Int, path: String, inode: UInt64 = 0, existed: Bool = true) {
      self.kind = kind
      self.index = index
      self.path = path
      self.inode = inode
      self.existed = existed
    }

    /// Whether the step leaves an old entry behind to delete or back up: where it is.
    var oldEntry: String? {
      switch kind {
      case .mkdir, .restore: nil
      case .aside: NodePath.join(NodeLayout.asideName, String(index))
      case .file: existed ? NodePath.join(NodeLayout.asideName, String(index)) : nil
      case .dir: existed ? NodePath.join(NodeLayout.stagingName, String(index)) : nil
      }
    }
  }

  /// 1 (older versions, read only) or 2.
  var version: Int
  var steps: [Step]
  /// Where the old entries go once the change is finished, or nil to delete them.
  var backup: String?
  /// The backup an undo puts back, or nil.
  var source: String?
  /// The folders that keep their own backups (`part` lines).
  var parts: [String]
  /// Every replacement is in place: finish the change.
  var committed: Bool

  /// The largest record read; far above any record a change writes.
  static let maximumByteCount = 64 * 1024
  static let currentVersion = 2

  static func header(_ version: Int) -> String { "freedom-keys intent \(version)" }

  init(
    steps: [Step], backup: String? = nil, source: String? = nil, parts: [String] = [],
    committed: Bool = false, version: Int = 2
  ) {
    self.version = version
    self.steps = steps
    self.backup = backup
    self.source = source
    self.parts = parts
    self.committed = committed
  }

  /// Where the entry `path` is kept in the backup `backup` (relative, below
  /// `.freedom-keys.replaced`): `<part>/<backup>/<rest>` when `path` lies in one of `parts`
  /// (the deepest), else `<backup>/<path>`.
  static func location(of path: String, in backup: String, parts: [String]) -> String {
    guard let part = part(of: path, parts: parts) else { return backup + "/" + path }
    return part + "/" + backup + "/" + String(path.dropFirst(part.count + 1))
  }

  /// The deepest of `parts` that `path` lies in, or nil.
  static func part(of path: String, parts: [String]) -> String? {
    parts.filter { path.hasPrefix($0 + "/") }.max { $0.utf8.count < $1.utf8.count }
  }

  /// Where the entry `path` is kept in the backup `backup`, by this record's parts.
  func location(of path: String, in backup: String) -> String {
    Self.location(of: path, in: backup, parts: parts)
  }

  /// The folders the backup `backup` lies in: its own, then each part's (`<part>/<backup>`).
  static func areas(of backup: String, parts: [String]) -> [String] {
    [backup] + parts.map { $0 + "/" + backup }
  }

  var text: String {
    var lines = [Self.header(version)]
    for step in steps {
      switch step.kind {
      case .mkdir, .aside: lines.append("\(step.kind.rawValue) \(step.index) \(step.path)")
      case .file, .dir:
        lines.append(
          "\(step.kind.rawValue) \(step.index) \(step.path) \(step.inode) "
            + (step.existed ? "old" : "new"))
      case .restore:
        lines.append("\(step.kind.rawValue) \(step.index) \(step.path) \(step.inode)")
      }
    }
    if let backup { lines.append("backup \(backup)") }
    if let source { lines.append("source \(source)") }
    for part in parts { lines.append("part \(part)") }
    lines.append("end")
    if committed { lines.append("committed") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Whether `path` may appear in a record: beneath the directory and none of the engine's
  /// own names.
  static func isStepPath(_ path: String) -> Bool {
    NodePath.isBeneath(path) && !NodePath.namesEngineFile(path)
  }

  /// Whether `path` may be a backup directory: beneath the directory, and no engine name but
  /// `.freedom-keys.replaced` as its first component.
  static func isBackupPath(_ path: String) -> Bool {
    guard NodePath.isBeneath(path) else { return false }
    var components = path.split(separator: "/")
    if components.first == Substring(NodeLayout.replacedName) { components.removeFirst() }
    return !components.isEmpty && !components.contains { $0.hasPrefix(".freedom-keys") }
  }

  /// Parses a record this version or an older one wrote; nil when it is anything else:
  /// truncated, a gap in the steps, a path that is not beneath the directory or names the
  /// engine's own files, one path twice (but an `aside` step's path once more by a later
  /// `restore` step, as an undo writes it).
  init?(text: String) {
    guard text.utf8.count <= Self.maximumByteCount else { return nil }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 3, lines.removeLast() == "" else { return nil }
    if lines.first == Self.header(1) {
      version = 1
    } else if lines.first == Self.header(2) {
      version = 2
    } else {
      return nil
    }
    committed = version == 2 && lines.last == "committed"
    if committed { lines.removeLast() }
    guard lines.count >= 2, lines.removeLast() == "end" else { return nil }
    backup = nil
    source = nil
    parts = []
    var steps: [Step] = []
    /// The kind of the last step that named each path.
    var paths: [String: Kind] = [:]
    for line in lines.dropFirst() {
      let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      if version == 2, fields.count == 2, fields[0] == "backup" {
        guard backup == nil, source == nil, parts.isEmpty, Self.isBackupPath(fields[1])
        else { return nil }
        backup = fields[1]
        continue
      }
      if version == 2, fields.count == 2, fields[0] == "source" {
        guard source == nil, parts.isEmpty, Self.isBackupPath(fields[1]) else { return nil }
        source = fields[1]
        continue
      }
      if version == 2, fields.count == 2, fields[0] == "part" {
        guard Self.isStepPath(fields[1]), !parts.contains(fields[1]) else { return nil }
        parts.append(fields[1])
        continue
      }
      guard backup == nil, source == nil, parts.isEmpty, fields.count >= 3,
        let kind = Kind(rawValue: fields[0]),
        version == 2 || (kind != .mkdir && kind != .restore), let index = Int(fields[1]),
        String(index) == fields[1],
        index == steps.count, Self.isStepPath(fields[2]),
        paths[fields[2]] == nil || (paths[fields[2]] == .aside && kind == .restore)
      else { return nil }
      paths[fields[2]] = kind
      switch kind {
      case .mkdir, .aside:
        guard fields.count == 3 else { return nil }
        steps.append(Step(kind: kind, index: index, path: fields[2]))
      case .restore:
        guard fields.count == 4, let inode = UInt64(fields[3]),
          String(inode) == fields[3]
        else { return nil }
        steps.append(Step(kind: kind, index: index, path: fields[2], inode: inode))
      case .file, .dir:
        guard fields.count == 5, let inode = UInt64(fields[3]), String(inode) == fields[3],
          ["old", "new"].contains(fields[4])
        else { return nil }
        steps.append(
          Step(kind: kind, index: index, path: fields[2], inode: inode, existed: fields[4] == "old")
        )
      }
    }
    // A restore step renames out of the record's source: one without it is no record of ours.
    if steps.contains(where: { $0.kind == .restore }), source == nil { return nil }
    self.steps = steps
  }
}

import CryptoPrimitives
import SystemCalls

/// A node directory held under its lock: opening it waits for any other freedom-keys, then
/// finishes or undoes a change an earlier run was interrupted in (its intent record) and
/// removes the temporary files older versions left. Every read an export bases its decision on
/// happens after `open`, and `apply` writes before `close`, so the check and the write see the
/// same directory.
///
/// The directory is opened once; every file below it is reached relative to that descriptor,
/// never through a symbolic link or `..` (`DirectoryDescriptor`).
///
/// `apply` keeps these true at every instant, kill -9 and power loss included:
/// (a) the files of the identity directory (bee's `keys/`, Radicle's key pair) are all of one
///     identity: the new directory is built beside the old one and the two are swapped with
///     `renameat2(RENAME_EXCHANGE)`;
/// (b) state of the old identity is moved aside (not deleted) before the commit and deleted
///     (or moved into the change's backup directory) only after it;
/// (c) the intent record, flushed before the first change, lets the next `open` undo the
///     change; the last replacement is the commit point, and right after it the record gains a
///     flushed `committed` mark, from which on the next `open` finishes the change and clean-up
///     never looks at the node's files (an editor may have rewritten them);
/// (d) `apply` returns only when the new files are all in place; when it throws, the old ones
///     are all back in place and the directories it created are gone.
///
/// Node directories nest (a desktop installation holds antd's and Radicle's): `enclosing` and
/// `nested` lock them all in one fixed order, outermost first, so two runs never hold halves.
package final class NodeDirectory {
  /// A node directory that encloses, or lies inside, the one opened.
  package struct Enclosing: Sendable {
    /// The directory.
    package let path: String
    /// What it holds.
    package let layout: NodeLayout

    package init(_ path: String, layout: NodeLayout) {
      self.path = path
      self.layout = layout
    }
  }

  /// The directory.
  package let path: String
  /// What it holds.
  package let layout: NodeLayout
  /// Set when `open` finished or undid an interrupted change (here or in an enclosing or
  /// nested directory): a line for the user each.
  package var recoveryNote: String? {
    let all =
      enclosingDirectories.flatMap(\.notes) + notes + nestedDirectories.flatMap(\.notes)
    return all.isEmpty ? nil : all.joined(separator: "\n")
  }
  /// The enclosing node directories that were locked (outermost first).
  package private(set) var enclosingDirectories: [NodeDirectory] = []
  /// A change an earlier run was interrupted in, found by an open that changes nothing
  /// (`openForReading(recovering: false)`) and left as it is.
  package struct InterruptedChange: Sendable, Equatable {
    /// The node directory that holds it.
    package let directory: String
    /// Its intent record (the full path).
    package let record: String
    /// Whether the next run that recovers finishes it (its new identity is in place) or
    /// undoes it (the old identity back).
    package let finishes: Bool
  }
  /// The interrupted changes found here and in the enclosing and nested directories
  /// (outermost first), when the open did not recover them.
  package var interruptedChanges: [InterruptedChange] {
    enclosingDirectories.compactMap(\.interrupted) + (interrupted.map { [$0] } ?? [])
      + nestedDirectories.compactMap(\.interrupted)
  }
  private var interrupted: InterruptedChange?
  /// Where a change that names no backup directory keeps what it replaces or removes
  /// (relative, below `.freedom-keys.replaced`); nil deletes it once the change is committed.
  package var defaultBackup: String?
  /// The nested node directories that were locked, in the order given.
  package private(set) var nestedDirectories: [NodeDirectory] = []

  let root: DirectoryDescriptor
  private var notes: [String] = []
  /// What the user should be told (old files that could not be deleted), not yet taken.
  private var warnings: [String] = []
  /// The locks this value holds, released by `close` in reverse order.
  private var locks: [NodeDirectoryLock] = []
  private var isLocked = false
  /// Why this user could not lock the directory (it was opened for reading only).
  private var lockRefusal: NodeFileError?
  /// The directories `open` created (outermost first), removed again by `close(keep: false)`
  /// when nothing was written.
  private var created: [String] = []
  private var wrote = false
  /// Set when the clean-up of a committed change failed (here, or when `open` finished one):
  /// its old files still wait in the engine's directories and its record stays, so no new
  /// change may start until a run finishes it.
  private var unfinishedCleanUp: NodeFileError?
  /// Tests only: called at each point of `apply` ("record", "step <i>", "commit", "clean-up",
  /// "backup <i>"); a throw is a failure at that point.
  var faultInjection: ((String) throws(NodeFileError) -> Void)?
  /// Tests only: `apply` stops dead at this point, undoing and cleaning up nothing, as a
  /// kill -9 there would leave the directory.
  var killPoint: String?
  private var killed = false

  private func reached(_ point: String) throws(NodeFileError) {
    if point == killPoint {
      killed = true
      throw NodeFileError(.io, "killed at \(point)")
    }
    try faultInjection?(point)
  }

  private init(path: String, layout: NodeLayout, root: DirectoryDescriptor) {
    self.path = path
    self.layout = layout
    self.root = root
  }

  deinit { releaseLocks() }

  /// The warnings collected since the last call, for the caller to show.
  package func takeWarnings() -> [String] {
    var all = enclosingDirectories.flatMap { $0.takeWarnings() }
    all += warnings
    all += nestedDirectories.flatMap { $0.takeWarnings() }
    warnings = []
    return all
  }

  /// The nested directory opened for `path`, to apply a change to under the locks already held.
  package func nested(_ path: String) -> NodeDirectory? {
    nestedDirectories.first { $0.path == path }
  }

  // MARK: - Opening

  /// Locks `path` and recovers it. With `create`, a missing directory is created with mode
  /// 0700 (and removed again if nothing is written); without it, a missing directory fails.
  ///
  /// `enclosing` (outermost first) are locked before `path`, `nested` after it, each only if it
  /// exists, and the same directory only once however often it is named; their records are
  /// recovered in that order too, so a change of an enclosing directory is finished or undone
  /// before the one inside it is read. Every lock is held until `close`.
  package static func open(
    _ path: String, layout: NodeLayout, create: Bool, enclosing: [Enclosing] = [],
    nested: [Enclosing] = [], timeout: Double = NodeDirectoryLock.defaultTimeout
  ) throws(NodeFileError) -> NodeDirectory {
    var group = LockGroup(timeout: timeout, readOnlyIsFine: false)
    var made: [String] = []
    do throws(NodeFileError) {
      // An enclosing directory `path` lies in is created first, to be locked with the others:
      // a change may be applied there (a new desktop profile's app root).
      for item in enclosing where create && path.hasPrefix(item.path + "/") {
        if try DirectoryDescriptor.open(item.path) == nil {
          made += try Self.createDirectory(item.path)
        }
      }
      // An enclosing directory this user cannot write (a shared parent) is read through
      // unlocked, unless it holds an interrupted change; a change applied in it fails then.
      let outer = try group.lock(enclosing, readOnlyIsFine: true)
      if try DirectoryDescriptor.open(path) == nil {
        guard create else {
          throw NodeFileError(.unexpectedFile, "\(path) does not exist; check the directory")
        }
        made += try Self.createDirectory(path)
      }
      guard let directory = try group.lock(path, layout: layout) else {
        throw NodeFileError(.unexpectedFile, "\(path) does not exist; check the directory")
      }
      directory.created = made
      // A nested directory this user cannot write (a root-owned bee-data left beside the
      // installation) is read through unlocked; a change to it fails in `apply`, nothing else.
      let inner = try group.lock(nested, readOnlyIsFine: true)
      for node in outer { try node.recoverIfLocked() }
      try directory.recover()
      for node in inner { try node.recoverIfLocked() }
      directory.enclosingDirectories = outer
      directory.nestedDirectories = inner
      directory.locks = group.locks
      return directory
    } catch {
      group.release()
      for created in made.reversed() { _ = Platform.rmdir(path: created) }
      throw error
    }
  }

  /// Locks `path` (after `enclosing`, outermost first, and before `nested`) for reading and
  /// recovers each when this user may; a directory this user cannot write is read as it is,
  /// unless it holds an interrupted change. The locks are held through the caller's reads,
  /// until `close`.
  ///
  /// With `recovering` false (a dry run) nothing is written at all: an interrupted change is
  /// checked as recovery would check its record (one it would refuse is refused), told in
  /// `interruptedChanges` and left as it is, leftovers stay, and a lock file a killed run left
  /// stays too.
  package static func openForReading(
    _ path: String, layout: NodeLayout, enclosing: [Enclosing] = [], nested: [Enclosing] = [],
    recovering: Bool = true
  ) throws(NodeFileError) -> NodeDirectory {
    var group = LockGroup(
      timeout: NodeDirectoryLock.defaultTimeout, readOnlyIsFine: true,
      leavingNoTrace: !recovering)
    do throws(NodeFileError) {
      let outer = try group.lock(enclosing)
      guard let directory = try group.lock(path, layout: layout) else {
        throw NodeFileError(.unexpectedFile, "\(path) does not exist; check the directory")
      }
      let inner = try group.lock(nested)
      directory.nestedDirectories = inner
      for node in outer + [directory] + inner {
        if recovering {
          try node.recoverIfLocked()
        } else {
          try node.findInterruptedChange()
        }
      }
      directory.enclosingDirectories = outer
      directory.locks = group.locks
      return directory
    } catch {
      group.release()
      throw error
    }
  }

  /// Recovers the directory when this run holds its lock; one it could not lock (read-only to
  /// this user) is read as it is, unless it holds an interrupted change.
  private func recoverIfLocked() throws(NodeFileError) {
    if isLocked {
      try recover()
    } else if try root.status(NodeLayout.intentName) != nil {
      throw cannotFinish
    }
  }

  private var cannotFinish: NodeFileError {
    NodeFileError(
      .recovery,
      "\(path) holds an interrupted change (\(NodeLayout.intentName)) that this user "
        + "cannot finish; the directory's owner must finish it")
  }

  /// What `recover` would do, found without doing it: the record checked as recovery checks
  /// it, and whether it would finish or undo the change.
  private func findInterruptedChange() throws(NodeFileError) {
    guard try root.status(NodeLayout.intentName) != nil else {
      if isLocked { try requireNoOrphanedAside() }
      return
    }
    guard isLocked else { throw cannotFinish }
    let record = try readRecord()
    try requireTransactionDirectories()
    interrupted = InterruptedChange(
      directory: path, record: full(NodeLayout.intentName), finishes: try finishes(record))
  }

  /// Whether recovery finishes the change `record` describes (else it undoes it).
  private func finishes(_ record: IntentRecord) throws(NodeFileError) -> Bool {
    if record.version == 1 { return try isCommittedByInodes(record) }
    if record.committed { return true }
    return try isLastReplacementDone(record)
  }

  /// Releases the locks. With `keep: false` (the run failed), a directory `open` created is
  /// removed again if it is still empty.
  package func close(keep: Bool = true) {
    releaseLocks()
    if !keep, !wrote {
      for directory in created.reversed() { _ = Platform.rmdir(path: directory) }
      created = []
    }
  }

  private func releaseLocks() {
    for lock in locks.reversed() { lock.release() }
    locks = []
    for node in enclosingDirectories + nestedDirectories { node.isLocked = false }
    isLocked = false
  }

  /// The locks of one `open`: each directory once (by device and inode), in the order asked.
  private struct LockGroup {
    let timeout: Double
    let readOnlyIsFine: Bool
    /// Leave a lock file a killed run left (an open that writes nothing).
    var leavingNoTrace = false
    var locks: [NodeDirectoryLock] = []
    var seen: [FileStatus] = []

    /// Opens and locks `path`; nil when it does not exist. A directory already locked in this
    /// group is not locked again.
    mutating func lock(_ path: String, layout: NodeLayout) throws(NodeFileError)
      -> NodeDirectory?
    {
      guard let root = try DirectoryDescriptor.open(path) else { return nil }
      let directory = NodeDirectory(path: path, layout: layout, root: root)
      let status = try root.status()
      if seen.contains(where: { $0.isSameFile(as: status) }) {
        directory.isLocked = true
        return directory
      }
      switch try NodeDirectoryLock.attempt(root, timeout: timeout, leavingNoTrace: leavingNoTrace)
      {
      case .locked(let lock):
        locks.append(lock)
        seen.append(status)
        directory.isLocked = true
      case .readOnly(let refusal):
        guard readOnlyIsFine else { throw refusal }
        directory.lockRefusal = refusal
      }
      return directory
    }

    /// Locks each of `directories` that exists, in order; what is not a directory is no node
    /// directory to lock (the caller's checks report it). With `readOnlyIsFine`, one this user
    /// cannot write is taken unlocked (it is only read through, never changed).
    mutating func lock(_ directories: [Enclosing], readOnlyIsFine: Bool? = nil)
      throws(NodeFileError) -> [NodeDirectory]
    {
      var locked: [NodeDirectory] = []
      var group = self
      if let readOnlyIsFine {
        group = LockGroup(
          timeout: timeout, readOnlyIsFine: readOnlyIsFine, leavingNoTrace: leavingNoTrace)
      }
      group.locks = locks
      group.seen = seen
      for item in directories where try FileStatus.following(item.path)?.isDirectory == true {
        if let directory = try group.lock(item.path, layout: item.layout) {
          locked.append(directory)
        }
      }
      locks = group.locks
      seen = group.seen
      return locked
    }

    mutating func release() {
      for lock in locks.reversed() { lock.release() }
      locks = []
    }
  }

  /// `mkdir -p path` for a node directory the user named: returns what it created, outermost
  /// first, each 0700 and, as root, owned like the directory it was made in.
  private static func createDirectory(_ path: String) throws(NodeFileError) -> [String] {
    do throws(DirectoryPath.Failure) {
      return try DirectoryPath.make(path, mode: 0o700, ownedLikeParent: true)
    } catch {
      throw nodeFileError(error)
    }
  }

  /// A failure of `DirectoryPath`, worded as the engine's.
  private static func nodeFileError(_ failure: DirectoryPath.Failure) -> NodeFileError {
    switch failure {
    case .notADirectory(let prefix): NodeFileError(.unexpectedFile, "\(prefix) is not a directory")
    case .system(let operation, let prefix, let code): .system(operation, prefix, code)
    }
  }

  /// `path/relative`.
  package func full(_ relative: String) -> String { NodePath.join(path, relative) }

  // MARK: - Reading beneath

  /// The bytes of the regular file `relative` (below the directory, no symbolic link followed,
  /// opened without blocking and checked with fstat), or nil when there is none.
  package func read(_ relative: String) throws(NodeFileError) -> SecureBytes? {
    try root.readFile(relative, limit: NodeFileReader.maximumByteCount)?.0
  }

  /// What is at `relative` (below the directory, no symbolic link followed), or nil.
  package func status(_ relative: String) throws(NodeFileError) -> FileStatus? {
    try root.status(relative)
  }

  /// The backups the directory holds, the names below `.freedom-keys.replaced` that are
  /// directories, sorted (none when that folder is absent, or is not a directory: a planted
  /// file or link is never followed).
  package func backups() throws(NodeFileError) -> [String] {
    guard try root.status(NodeLayout.replacedName)?.isDirectory == true else { return [] }
    var backups: [String] = []
    for name in try root.names(NodeLayout.replacedName)
    where try root.status(NodeLayout.replacedName + "/" + name)?.isDirectory == true {
      backups.append(name)
    }
    return backups.sorted()
  }

  // MARK: - Applying a change

  /// Applies `change` as one transaction (see the type's invariants). On failure every step is
  /// undone before this throws; if even the undo fails, the intent record stays for the next
  /// run and the error says so.
  @discardableResult
  package func apply(_ change: NodeChange) throws(NodeFileError) -> NodeChangeResult {
    try requireChangeable()
    var change = change
    if change.backup == nil { change.backup = defaultBackup }
    try validate(change)
    var result = NodeChangeResult()
    let staging = NodeLayout.stagingName
    let identity = layout.identityDirectory
    let owner = try root.owner()

    // 1. Stage every new file in a 0700 directory beside the targets; nothing visible changes.
    //    The backup directory's name is chosen and its folders checked now too, so no step
    //    after the commit needs either (its folders are made right after the record).
    try root.makeDirectory(staging, owner: owner)
    var steps: [IntentRecord.Step] = []
    do throws(NodeFileError) {
      // A file inside the identity directory is placed with it: its parents are the directory's.
      let placed = change.files.map { file in
        identity.flatMap { file.path.hasPrefix($0 + "/") ? $0 : nil } ?? file.path
      }
      for directory in try missingParents(of: placed, namingLinks: true) {
        steps.append(.init(kind: .mkdir, index: steps.count, path: directory))
      }
      for name in change.removing where identity == nil || !name.hasPrefix(identity! + "/") {
        guard try root.status(name) != nil else { continue }
        steps.append(.init(kind: .aside, index: steps.count, path: name))
        result.removed.append(full(name))
      }
      let identityFiles = change.files.filter {
        identity != nil && $0.path.hasPrefix(identity! + "/")
      }
      var identityStaged = false
      for file in change.files {
        // The identity directory takes its place where its first file is listed.
        if let identity, file.path.hasPrefix(identity + "/") {
          guard !identityStaged else { continue }
          identityStaged = true
          let (step, removed) = try stageIdentityDirectory(
            identity, files: identityFiles, removing: change.removing, index: steps.count)
          steps.append(step)
          result.written += identityFiles.map { full($0.path) }
          result.removed += removed
          continue
        }
        let target = try root.status(file.path)
        if let target, !target.isRegularFile {
          throw NodeFileError(
            .unexpectedFile, "\(full(file.path)) is \(target.kindDescription), not a regular file")
        }
        let staged = NodePath.join(staging, String(steps.count))
        var fileOwner = file.owner ?? target.map { ($0.owner, $0.group) }
        if fileOwner == nil { fileOwner = try ownerOfParent(file.path) }
        let status = try root.createFile(staged, file.bytes, mode: file.mode, owner: fileOwner)
        steps.append(
          .init(
            kind: .file, index: steps.count, path: file.path, inode: status.inode,
            existed: target != nil))
        result.written.append(full(file.path))
      }
      if let backup = change.backup, steps.contains(where: { $0.oldEntry != nil }) {
        change.backup = try prepareBackup(backup, for: steps)
      }
      try root.directory(staging)?.sync()
      try root.sync()
    } catch {
      _ = try? root.removeTree(staging)
      throw error
    }

    try commit(steps, backup: change.backup, into: &result)
    return result
  }

  /// A change may start: this run holds the lock and no earlier change waits for its clean-up.
  func requireChangeable() throws(NodeFileError) {
    guard isLocked else { throw lockDenied }
    if let unfinishedCleanUp { throw Self.cleanUpPending(path, unfinishedCleanUp) }
  }

  /// Steps 2 to 4 of a change whose entries are staged: the intent record, the steps, the
  /// commit mark, then the clean-up (old entries into `backup`, whose folders are made right
  /// after the record; with `source`, an undo's, the links left in the backup it put back
  /// removed).
  func commit(
    _ steps: [IntentRecord.Step], backup: String?, source: String? = nil,
    into result: inout NodeChangeResult
  ) throws(NodeFileError) {
    let owner = try root.owner()
    // What was made for the backup, removed again when the change is undone.
    var madeForBackup: [String] = []
    // 2. The intent record: from here on, a crash is undone by the next run.
    var record = IntentRecord(steps: steps, backup: backup, source: source, parts: layout.parts)
    do throws(NodeFileError) {
      try reached("record")
      try writeRecord(record, replacing: false)
    } catch {
      if killed { throw error }
      _ = try? root.removeTree(NodeLayout.stagingName)
      throw error
    }

    // 3. Create the missing parents, move the old state aside, then put each replacement in
    //    place; the identity directory last. Every rename flushes both its directories. Then
    //    the commit mark. Any failure before the mark undoes what was done.
    do throws(NodeFileError) {
      try root.makeDirectory(NodeLayout.asideName, owner: owner)
      if let backup, steps.contains(where: { $0.oldEntry != nil }) {
        madeForBackup += try makeBackupFolders(backup, for: steps)
      }
      for step in steps {
        try reached("step \(step.index)")
        try perform(step, in: record)
      }
      try reached("commit")
      record.committed = true
      try writeRecord(record, replacing: true)
    } catch {
      if killed { throw error }
      // The mark may have reached the disk although a flush after it failed: then the change
      // is committed, and finishing it is the only way that matches the record.
      if (try? readRecord())?.committed != true {
        record.committed = false
        do throws(NodeFileError) {
          try recover(record, finishing: false)
          removeEmptyDirectories(madeForBackup)
        } catch let undo {
          wrote = true
          throw NodeFileError(
            .recovery,
            "\(error.message); undoing the change failed too (\(undo.message)); opening "
              + "\(path) again finishes undoing it")
        }
        throw error
      }
    }
    wrote = true

    // 4. Committed: delete (or back up) the old identity's files and state, then the record.
    do throws(NodeFileError) {
      try reached("clean-up")
      result.keptAside = try recover(record, finishing: true)
    } catch {
      if killed { throw error }
      unfinishedCleanUp = error
      warnings.append(Self.cleanUpFailed(path, error))
    }
    result.warnings += warnings
    warnings = []
  }

  // MARK: - What a change would need

  /// Throws what locking and applying `change` (nil: nothing to change, but an export still
  /// locks) would fail on for want of permission, writing nothing: for a dry run of a
  /// directory opened for reading. It asks the system (`faccessat`, the effective ids) about
  /// each directory `apply` creates names in or moves a directory out of, and each file it
  /// keeps a hard link to; it does not foresee a full disk or a file another run changes
  /// meanwhile.
  package func requirePermission(toApply change: NodeChange?) throws(NodeFileError) {
    guard isLocked else { throw lockRefusal ?? lockDenied }
    if let unfinishedCleanUp { throw Self.cleanUpPending(path, unfinishedCleanUp) }
    guard let change else { return }
    try validate(change)
    var asked: Set<String> = []
    func mayWrite(in relative: String) throws(NodeFileError) {
      guard asked.insert(relative).inserted,
        let code = try root.accessRefusal(relative, Platform.mayWriteIn)
      else { return }
      throw .system("write in", full(relative), code)
    }
    func mayLink(_ relative: String, _ status: FileStatus) throws(NodeFileError) {
      // fs.protected_hardlinks: a link to another user's file needs read and write access.
      guard !Platform.isRoot, status.owner != Platform.effectiveUser,
        let code = try root.accessRefusal(relative, Platform.mayReadAndWrite)
      else { return }
      throw .system("keep", full(relative), code)
    }
    /// Asks about the directory `relative` is created or renamed in: its nearest parent that
    /// exists (one that is no directory `apply` refuses with its own message).
    func mayWrite(inParentOf relative: String) throws(NodeFileError) {
      var parent = NodePath.parent(relative)
      while parent != "." {
        if let status = try root.status(parent) {
          guard status.isDirectory else { return }
          break
        }
        parent = NodePath.parent(parent)
      }
      try mayWrite(in: parent == "." ? "" : parent)
    }

    // The staging and aside directories and the intent record are made in the directory.
    try mayWrite(in: "")
    let identity = layout.identityDirectory
    // Where what is there now would be kept, checked as `apply` checks it before the commit.
    if let backup = change.backup ?? defaultBackup {
      var kept: [String] = []
      for name in change.removing where try root.status(name) != nil { kept.append(name) }
      for file in change.files {
        let path = identity.flatMap { file.path.hasPrefix($0 + "/") ? $0 : nil } ?? file.path
        if !kept.contains(path), try root.status(path) != nil { kept.append(path) }
      }
      try requireBackupFolders(backup, keeping: kept)
    }
    for name in change.removing {
      guard let status = try root.status(name) else { continue }
      try mayWrite(inParentOf: name)
      // A directory moved to another parent has its `..` rewritten.
      if status.isDirectory { try mayWrite(in: name) }
    }
    var identityAsked = false
    for file in change.files {
      if let identity, file.path.hasPrefix(identity + "/") {
        guard !identityAsked else { continue }
        identityAsked = true
        try mayWrite(inParentOf: identity)
        guard let status = try root.status(identity), status.isDirectory else { continue }
        try mayWrite(in: identity)
        // Its other files are linked into the new identity directory, as `apply` stages it.
        let replaced = Set(change.files.map(\.path) + change.removing)
        for name in try root.names(identity)
        where !replaced.contains(identity + "/" + name)
          && !layout.isStaleTemporary(name, in: identity)
        {
          let relative = identity + "/" + name
          if let status = try root.status(relative), status.isRegularFile {
            try mayLink(relative, status)
          }
        }
        continue
      }
      try mayWrite(inParentOf: file.path)
      if let status = try root.status(file.path), status.isRegularFile {
        try mayLink(file.path, status)
      }
    }
  }

  /// Throws what `open(path, create: true)` would fail on when creating the missing directory
  /// `path` (links in it followed, as it follows them), creating nothing.
  package static func requirePermission(toCreate path: String) throws(NodeFileError) {
    do throws(DirectoryPath.Failure) {
      try DirectoryPath.requireCreatable(path)
    } catch {
      throw nodeFileError(error)
    }
  }

  /// The warning when the clean-up after a commit failed: the change stands, the next run
  /// retries the clean-up.
  private static func cleanUpFailed(_ path: String, _ error: NodeFileError) -> String {
    "the new identity is in place, but \(error.message); the next run on \(path) retries"
  }

  /// A new change refused while an earlier one's clean-up is still to do.
  private static func cleanUpPending(_ path: String, _ error: NodeFileError) -> NodeFileError {
    NodeFileError(
      .recovery,
      "\(path) holds a change whose new identity is in place but whose old files are not yet "
        + "kept (\(error.message)); nothing was changed — fix that, and the next run finishes "
        + "the clean-up")
  }

  /// The name of the backup directory `backup` (relative, below `.freedom-keys.replaced`),
  /// chosen before the commit: one no earlier change used (`<backup>-2`, `-3`, … when it is
  /// taken; the lock keeps another run from taking it meanwhile), every existing folder on the
  /// way checked first. Nothing is made yet: `makeBackupFolders` makes it once the intent
  /// record names it, so that a kill before the record leaves no empty backup behind (an undo
  /// would take it for the newest).
  func prepareBackup(_ backup: String, for steps: [IntentRecord.Step]) throws(NodeFileError)
    -> String
  {
    let parts = layout.parts
    try requireBackupFolders(backup, keeping: steps.filter { $0.oldEntry != nil }.map(\.path))
    // A name no area holds yet: one undo puts back all of a change's entries.
    var name = backup
    var counter = 2
    func taken(_ name: String) throws(NodeFileError) -> Bool {
      for area in IntentRecord.areas(of: name, parts: parts) where try root.status(area) != nil {
        return true
      }
      return false
    }
    while try taken(name) {
      name = backup + "-" + String(counter)
      counter += 1
    }
    return name
  }

  /// Makes the backup directory `backup` and the folders the steps' old entries go into;
  /// returns what was created, outermost first.
  private func makeBackupFolders(_ backup: String, for steps: [IntentRecord.Step])
    throws(NodeFileError) -> [String]
  {
    var made: [String] = []
    if layout.parts.isEmpty { made += try root.makeDirectories(backup) }
    for step in steps where step.oldEntry != nil {
      made += try root.makeDirectories(
        NodePath.parent(IntentRecord.location(of: step.path, in: backup, parts: layout.parts)))
    }
    return made
  }

  /// Checks the folders the backup `backup` would be made in, for old entries of `paths`: in
  /// the directory and in each part one of them lies in, every existing folder on the way
  /// (`requireBackupFolder`). Writes nothing: `prepareBackup` and a dry run share it.
  func requireBackupFolders(_ backup: String, keeping paths: [String]) throws(NodeFileError) {
    let owner = try root.owner()
    var areas: [String] = []
    for path in paths {
      let area = IntentRecord.part(of: path, parts: layout.parts) ?? ""
      if !areas.contains(area) { areas.append(area) }
    }
    for area in areas {
      var prefix = area
      for component in backup.split(separator: "/").dropLast() {
        prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
        guard let status = try root.status(prefix) else { break }
        try requireBackupFolder(prefix, status, owner: owner)
      }
    }
  }

  /// A folder that holds backups must be a directory (not a symbolic link) of the directory's
  /// owner or this user, that this user may create names in: what is moved there after the
  /// commit must get there.
  func requireBackupFolder(
    _ relative: String, _ status: FileStatus, owner: DirectoryDescriptor.Owner
  ) throws(NodeFileError) {
    let keeps = "what an export replaces is kept in that directory"
    guard !status.isSymbolicLink else {
      throw NodeFileError(
        .unexpectedFile,
        "\(full(relative)) is a symbolic link; \(keeps), and no link inside \(path) is followed — "
          + "move it away")
    }
    guard status.isDirectory else {
      throw NodeFileError(
        .unexpectedFile,
        "\(full(relative)) is \(status.kindDescription), not a directory; \(keeps) — move it "
          + "away")
    }
    guard status.owner == owner.user || status.owner == Platform.effectiveUser else {
      throw NodeFileError(
        .unexpectedFile,
        "\(full(relative)) is owned by user \(status.owner), not by \(path)'s owner; \(keeps) — "
          + "move it away or give it to the directory's owner")
    }
    if let code = try root.accessRefusal(relative, Platform.mayWriteIn) {
      throw .system("keep the replaced files in", full(relative), code)
    }
  }

  /// Removes each of `directories` (innermost first) that is still an empty directory.
  func removeEmptyDirectories(_ directories: [String]) {
    for directory in directories.reversed() {
      guard (try? root.status(directory))??.isDirectory == true,
        (try? root.names(directory))?.isEmpty == true
      else { continue }
      _ = try? root.remove(directory)
    }
  }

  /// The folders below the backup directory `backup` and it, innermost first, that an undone
  /// change made and nothing was moved into (in the directory and in each of `parts`).
  func removeUnusedBackup(_ backup: String, parts: [String]) {
    for area in IntentRecord.areas(of: backup, parts: parts) { removeUnusedBackup(area) }
  }

  private func removeUnusedBackup(_ backup: String) {
    guard (try? root.status(backup))??.isDirectory == true else { return }
    var directories = [backup]
    var index = 0
    while index < directories.count {
      for name in (try? root.names(directories[index])) ?? []
      where (try? root.status(directories[index] + "/" + name))??.isDirectory == true {
        directories.append(directories[index] + "/" + name)
      }
      index += 1
    }
    removeEmptyDirectories(directories)
  }

  /// A change in a directory this run could not lock.
  private var lockDenied: NodeFileError {
    NodeFileError(
      .io,
      "permission denied: this user cannot lock \(path) to change it; check its owner and "
        + "permissions")
  }

  /// Refuses a change that names a path outside the directory or one of the engine's own.
  private func validate(_ change: NodeChange) throws(NodeFileError) {
    for name in change.files.map(\.path) + change.removing where !IntentRecord.isStepPath(name) {
      throw NodeFileError(.unexpectedFile, "'\(name)' does not name a node file inside \(path)")
    }
    if let backup = change.backup, !IntentRecord.isBackupPath(backup) {
      throw NodeFileError(
        .unexpectedFile, "'\(backup)' does not name a backup directory in \(path)")
    }
    guard Set(change.files.map(\.path)).count == change.files.count else {
      throw NodeFileError(.unexpectedFile, "a change to \(path) lists one file twice")
    }
  }

  /// The parent directories of `paths` that do not exist yet, outermost first; one that is
  /// not a directory is refused, a symbolic link said to be one where `namingLinks` (an
  /// export's change; a restore words it as any other kind of file).
  func missingParents(of paths: [String], namingLinks: Bool) throws(NodeFileError) -> [String] {
    var missing: [String] = []
    for relative in paths {
      var prefix = ""
      for component in relative.split(separator: "/").dropLast() {
        prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
        if missing.contains(prefix) { continue }
        guard let status = try root.status(prefix) else {
          missing.append(prefix)
          continue
        }
        guard status.isDirectory else {
          throw NodeFileError(
            .unexpectedFile,
            namingLinks && status.isSymbolicLink
              ? "\(full(prefix)) is a symbolic link; links inside \(path) are not followed"
              : "\(full(prefix)) is \(status.kindDescription), not a directory")
        }
      }
    }
    return missing
  }

  /// One step of `record`'s change, forward (a restore step renames out of its source).
  private func perform(_ step: IntentRecord.Step, in record: IntentRecord) throws(NodeFileError) {
    let staged = NodePath.join(NodeLayout.stagingName, String(step.index))
    let aside = NodePath.join(NodeLayout.asideName, String(step.index))
    switch step.kind {
    case .mkdir:
      try root.makeDirectory(step.path, owner: try ownerOfParent(step.path))
    case .aside:
      try root.rename(step.path, aside)
    case .file:
      if step.existed { try root.link(step.path, aside) }
      try root.rename(staged, step.path)
    case .dir:
      try root.rename(
        staged, step.path,
        flags: step.existed ? DirectoryDescriptor.exchange : DirectoryDescriptor.noReplace)
    case .restore:
      guard let source = record.source else {
        throw NodeFileError(.recovery, "a restore step without a source")
      }
      try root.rename(
        record.location(of: step.path, in: source), step.path,
        flags: DirectoryDescriptor.noReplace)
    }
  }

  /// Writes the record: a temporary file (0600, the directory's owner), flushed, renamed into
  /// place (without replacing a record unless `replacing`), the directory flushed.
  private func writeRecord(_ record: IntentRecord, replacing: Bool) throws(NodeFileError) {
    let temporary = "." + NodeLayout.intentName + ".tmp-" + DirectoryDescriptor.randomSuffix()
    try root.createFile(
      temporary, Array(record.text.utf8), mode: 0o600, owner: try root.owner())
    do throws(NodeFileError) {
      if replacing {
        try root.rename(temporary, NodeLayout.intentName)
      } else {
        try root.link(temporary, NodeLayout.intentName)
        try root.remove(temporary)
        try root.sync()
      }
    } catch {
      _ = try? root.remove(temporary)
      throw error
    }
  }

  /// Builds the new identity directory: the new files, plus every other file of the current
  /// one (hard links) except those `removing` names and stale temporary files.
  private func stageIdentityDirectory(
    _ identity: String, files: [NodeChange.File], removing: [String], index: Int
  ) throws(NodeFileError) -> (IntentRecord.Step, [String]) {
    let status = try root.status(identity)
    if let status, !status.isDirectory {
      throw NodeFileError(
        .unexpectedFile,
        status.isSymbolicLink
          ? "\(full(identity)) is a symbolic link; links inside \(path) are not followed"
          : "\(full(identity)) is \(status.kindDescription), not a directory")
    }
    let staged = NodePath.join(NodeLayout.stagingName, String(index))
    // Root exporting for a user: the new keys/ is the user's, as the old one (or the directory
    // it is in) was.
    var owner = status.map { ($0.owner, $0.group) }
    if owner == nil { owner = try ownerOfParent(identity) }
    try root.makeDirectory(staged, owner: owner)
    var removed: [String] = []
    let newNames = Set(files.map { String($0.path.dropFirst(identity.count + 1)) })
    if status != nil {
      for name in try root.names(identity) {
        let relative = identity + "/" + name
        if newNames.contains(name) || layout.isStaleTemporary(name, in: identity) { continue }
        if removing.contains(relative) {
          removed.append(full(relative))
          continue
        }
        guard try root.status(relative)?.isRegularFile == true else {
          throw NodeFileError(
            .unexpectedFile,
            "\(full(relative)) is not a regular file; move it out of \(full(identity)) and run "
              + "this again")
        }
        try root.link(relative, NodePath.join(staged, name))
      }
    }
    for file in files {
      let name = String(file.path.dropFirst(identity.count + 1))
      try root.createFile(
        NodePath.join(staged, name), file.bytes, mode: file.mode, owner: file.owner ?? owner)
    }
    try root.directory(staged)?.sync()
    guard let stagedStatus = try root.status(staged) else {
      throw .system("inspect", full(staged), Platform.noEntry)
    }
    let step = IntentRecord.Step(
      kind: .dir, index: index, path: identity, inode: stagedStatus.inode, existed: status != nil)
    return (step, removed)
  }

  /// The owner and group of the directory that holds `relative` (or, when that is still to be
  /// created, of the node directory).
  private func ownerOfParent(_ relative: String) throws(NodeFileError) -> DirectoryDescriptor.Owner
  {
    var parent = NodePath.parent(relative)
    while parent != "." {
      if let status = try root.status(parent), status.isDirectory {
        return (status.owner, status.group)
      }
      parent = NodePath.parent(parent)
    }
    return try root.owner()
  }

  // MARK: - Recovery

  /// Finishes or undoes the change an intent record describes, then removes what freedom-keys
  /// left behind: the staging and aside directories and stale temporary files.
  private func recover() throws(NodeFileError) {
    if try root.status(NodeLayout.intentName) != nil {
      let record = try readRecord()
      try requireTransactionDirectories()
      let finishing = try finishes(record)
      do throws(NodeFileError) {
        try recover(record, finishing: finishing)
      } catch {
        // Committed: the new identity stands whatever the clean-up meets (a backup folder
        // someone changed, a full disk); the record stays for the next run to retry it, and
        // the directory stays readable meanwhile.
        guard finishing else { throw error }
        unfinishedCleanUp = error
        warnings.append(Self.cleanUpFailed(path, error))
      }
      notes.append(
        finishing
          ? "finished an interrupted change in \(path): the new identity is in place"
          : "undid an interrupted change in \(path): the old identity is back in place")
    } else {
      try requireNoOrphanedAside()
      // Without a record (and so without an aside directory, made only once the record is
      // flushed) nothing in these was ever put in place: they are leftovers.
      discard(NodeLayout.stagingName)
      discard(NodeLayout.asideName)
    }
    for name in try root.names() where name.hasPrefix(NodeLayout.trashPrefix) {
      discard(name)
    }
    try removeStaleTemporaries()
  }

  /// The intent record, if it is one this freedom-keys wrote: a regular file (opened without
  /// blocking or following a link), mode 0600, owned by the directory's owner, no larger than
  /// `IntentRecord.maximumByteCount`, well formed (see `IntentRecord`). Anything else is refused and left in place.
  private func readRecord() throws(NodeFileError) -> IntentRecord {
    let recordPath = full(NodeLayout.intentName)
    func refuse(_ reason: String) -> NodeFileError {
      NodeFileError(
        .recovery,
        "\(reason); it was left in place and nothing was changed: only an intent record "
          + "this program wrote is acted on — check \(path) and move the file away")
    }
    let found: (SecureBytes, FileStatus)?
    do {
      found = try root.readFile(NodeLayout.intentName, limit: IntentRecord.maximumByteCount)
    } catch {
      throw refuse(error.message)
    }
    guard let (bytes, status) = found else {
      throw refuse("\(recordPath) vanished while it was read")
    }
    let owner = try root.owner()
    guard status.permissions == 0o600 else {
      throw refuse("\(recordPath) has mode \(String(status.permissions, radix: 8)), not 600")
    }
    // The directory's owner, or this user (who, not root, cannot give the record away when
    // writing into a directory shared with it); never a third user.
    guard status.owner == owner.user || status.owner == Platform.effectiveUser else {
      throw refuse("\(recordPath) is owned by user \(status.owner), not by \(path)'s owner")
    }
    let text = bytes.withUnsafeBytes { String(validating: $0, as: UTF8.self) }
    guard let text, let record = IntentRecord(text: text) else {
      throw refuse("\(recordPath) is not an intent record this version can read")
    }
    return record
  }

  /// Refuses an aside directory that holds anything while no intent record is there. A change
  /// makes it only after its record is flushed, and recovery empties it before removing the
  /// record; one without a record means the record went missing (moved away, say, after it
  /// could not be read), and what the change moved aside — in it, or in the staging directory
  /// (an identity directory swapped out) — may be the only copy of the old identity's files.
  /// Nothing is deleted then: the user decides.
  private func requireNoOrphanedAside() throws(NodeFileError) {
    guard let status = try root.status(NodeLayout.asideName) else { return }
    if status.isDirectory, try root.names(NodeLayout.asideName).isEmpty { return }
    throw NodeFileError(
      .recovery,
      "\(full(NodeLayout.asideName)) holds what an interrupted change moved aside, but its "
        + "intent record (\(full(NodeLayout.intentName))) is missing; nothing was changed or "
        + "deleted — put the record back, or move \(full(NodeLayout.asideName)) and "
        + "\(full(NodeLayout.stagingName)) out of \(path) and put their files back by hand")
  }

  /// The staging and aside directories are real directories (never links), or absent.
  private func requireTransactionDirectories() throws(NodeFileError) {
    for name in [NodeLayout.stagingName, NodeLayout.asideName] {
      if let status = try root.status(name), !status.isDirectory {
        throw NodeFileError(
          .recovery,
          "\(full(name)) is \(status.kindDescription), not a directory this program made; "
            + "\(full(NodeLayout.intentName)) was left in place and nothing was changed — check "
            + "\(path) and move both away")
      }
    }
  }

  /// Deletes a staging or aside directory once nothing in it is needed. What cannot be deleted
  /// (an old key made immutable) is renamed out of the way, `.freedom-keys.trash-<hex>`, with a
  /// warning; later runs try again.
  private func discard(_ name: String) {
    do throws(NodeFileError) {
      try root.removeTree(name)
    } catch {
      var target = name
      if !name.hasPrefix(NodeLayout.trashPrefix) {
        target = NodeLayout.trashPrefix + DirectoryDescriptor.randomSuffix()
        if (try? root.rename(name, target)) == nil { target = name }
      }
      let warning =
        "\(error.message); the old files left in \(full(target)) belong to no identity in use: "
        + "the next run retries, or remove them by hand"
      if !warnings.contains(warning) { warnings.append(warning) }
    }
  }

  /// The commit point is the last replacement: once it is visible the new identity is, and a
  /// kill between it and the commit mark must not take it back (a node may already run on it).
  /// Judged by the engine's own staging or aside entry of that one step, never by the node's
  /// files (which an editor may rewrite); an undo restores that entry first, so a half-done
  /// undo is never mistaken for it. With the mark written, this is never consulted.
  private func isLastReplacementDone(_ record: IntentRecord) throws(NodeFileError) -> Bool {
    guard let last = record.steps.last(where: { $0.kind != .mkdir }) else { return false }
    // The entry put back is the one the source held (its inode), and it left the source.
    if last.kind == .restore, let source = record.source {
      let placed = try root.status(last.path)
      let left = try root.status(record.location(of: last.path, in: source)) == nil
      return placed?.inode == last.inode && left
    }
    guard try root.status(NodeLayout.stagingName)?.isDirectory == true else { return false }
    let staged = try root.status(NodePath.join(NodeLayout.stagingName, String(last.index)))
    switch last.kind {
    case .mkdir, .restore: return false
    case .aside:
      return try root.status(NodePath.join(NodeLayout.asideName, String(last.index))) != nil
    case .file: return staged == nil
    case .dir:
      guard let staged else { return !last.existed }
      return last.existed && staged.isDirectory && staged.inode != last.inode
    }
  }

  /// Version 1 records only: whether every replacement is in place, judged by inodes.
  private func isCommittedByInodes(_ record: IntentRecord) throws(NodeFileError) -> Bool {
    var any = false
    for step in record.steps where step.kind == .file || step.kind == .dir {
      any = true
      guard try root.status(step.path)?.inode == step.inode else { return false }
    }
    return any
  }

  /// Undoes (`finishing` false) or finishes the change, then removes the staging and aside
  /// directories and the record. Finishing moves the old entries into the record's backup
  /// directory, when it names one, and returns where each went.
  @discardableResult
  private func recover(_ record: IntentRecord, finishing: Bool) throws(NodeFileError)
    -> [NodeChangeResult.KeptAside]
  {
    var kept: [NodeChangeResult.KeptAside] = []
    if finishing {
      if let backup = record.backup { kept = try moveIntoBackup(record, backup) }
      if let source = record.source { try removeRestoredLinks(record, source) }
    } else {
      for step in record.steps.reversed() { try undo(step, in: record) }
      if let backup = record.backup { removeUnusedBackup(backup, parts: record.parts) }
      try root.sync()
    }
    // The record goes last, undone or finished: an aside directory is never left without it
    // (see `requireNoOrphanedAside`); a kill before it is removed repeats what was done.
    discard(NodeLayout.asideName)
    if finishing { try reached("discarded aside") }
    discard(NodeLayout.stagingName)
    try root.sync()
    try root.remove(NodeLayout.intentName)
    try root.sync()
    return kept
  }

  /// Undoes one step of `record` if it was done. Each entry is checked (lstat) before it is
  /// renamed.
  private func undo(_ step: IntentRecord.Step, in record: IntentRecord) throws(NodeFileError) {
    let staged = NodePath.join(NodeLayout.stagingName, String(step.index))
    let aside = NodePath.join(NodeLayout.asideName, String(step.index))
    let inPlace = try root.status(step.path)
    switch step.kind {
    case .mkdir:
      // Only if empty: whatever someone else put there stays.
      if inPlace?.isDirectory == true, try root.names(step.path).isEmpty {
        try root.remove(step.path)
        try root.directory(nodeParent(step.path))?.sync()
      }
    case .aside:
      if inPlace == nil, try root.status(aside) != nil { try root.rename(aside, step.path) }
    case .file:
      guard let inPlace, inPlace.isRegularFile, inPlace.inode == step.inode else { return }
      // The new file goes back to its staging name first (see `isLastReplacementDone`).
      if step.existed {
        guard try root.status(aside)?.isRegularFile == true else {
          throw NodeFileError(
            .recovery, "the old \(full(step.path)) was not kept; restore it by hand")
        }
        if try root.status(staged) == nil { try root.link(step.path, staged) }
        try root.rename(aside, step.path)
      } else if try root.status(staged) == nil {
        try root.rename(step.path, staged, flags: DirectoryDescriptor.noReplace)
      } else {
        try root.remove(step.path)
        try root.directory(nodeParent(step.path))?.sync()
      }
    case .dir:
      guard let inPlace, inPlace.isDirectory, inPlace.inode == step.inode else { return }
      if step.existed {
        guard try root.status(staged)?.isDirectory == true else {
          throw NodeFileError(
            .recovery,
            "the old \(full(step.path)) is not in \(full(NodeLayout.stagingName)); restore it by "
              + "hand")
        }
        try root.rename(staged, step.path, flags: DirectoryDescriptor.exchange)
      } else {
        guard try root.status(NodeLayout.stagingName)?.isDirectory == true else {
          try root.removeTree(step.path)
          return
        }
        try root.rename(step.path, staged, flags: DirectoryDescriptor.noReplace)
      }
    case .restore:
      // Back into the backup it came from, if it is the entry that was put back.
      guard let source = record.source, let inPlace, inPlace.inode == step.inode else { return }
      let origin = record.location(of: step.path, in: source)
      guard try root.status(origin) == nil else { return }
      try root.rename(step.path, origin, flags: DirectoryDescriptor.noReplace)
    }
  }

  /// Moves each old entry of a finished change into `backup/<its path>`; what was moved by an
  /// earlier, interrupted clean-up is already there.
  private func moveIntoBackup(_ record: IntentRecord, _ backup: String) throws(NodeFileError)
    -> [NodeChangeResult.KeptAside]
  {
    var kept: [NodeChangeResult.KeptAside] = []
    for step in record.steps {
      guard let source = step.oldEntry, let status = try root.status(source) else { continue }
      if step.kind == .dir, !status.isDirectory || status.inode == step.inode { continue }
      if step.kind == .file, !status.isRegularFile { continue }
      try reached("backup \(step.index)")
      let destination = record.location(of: step.path, in: backup)
      try root.makeDirectories(NodePath.parent(destination))
      try root.rename(source, destination, flags: DirectoryDescriptor.noReplace)
      kept.append(.init(original: full(step.path), backup: full(destination)))
    }
    return kept
  }

  /// The parent of `relative` as `directory(_:)` takes it ("" for the node directory).
  private func nodeParent(_ relative: String) -> String {
    let parent = NodePath.parent(relative)
    return parent == "." ? "" : parent
  }

  /// Removes `.<file>.tmp-<hex>` files that killed runs of this or older versions left; they
  /// can hold private keys.
  private func removeStaleTemporaries() throws(NodeFileError) {
    var directories: [String?] = [nil]
    if let identity = layout.identityDirectory, try root.status(identity)?.isDirectory == true {
      directories.append(identity)
    }
    for subdirectory in directories {
      var removed = false
      for name in try root.names(subdirectory ?? "")
      where layout.isStaleTemporary(name, in: subdirectory) {
        try root.remove(subdirectory.map { $0 + "/" + name } ?? name)
        removed = true
      }
      if removed { try root.directory(subdirectory ?? "")?.sync() }
    }
  }
}

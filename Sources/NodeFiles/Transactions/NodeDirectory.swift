import CryptoPrimitives
import Glibc

/// A node directory held under its lock: opening it waits for any other freedom-keys, then
/// finishes or undoes a change an earlier run was interrupted in (its intent record) and
/// removes the temporary files older versions left. Every read an export bases its decision on
/// happens after `open`, and `apply` writes before `close`, so the check and the write see the
/// same directory.
///
/// `apply` keeps these true at every instant, kill -9 and power loss included:
/// (a) the files of the identity directory (bee's `keys/`, Radicle's key pair) are all of one
///     identity: the new directory is built beside the old one and the two are swapped with
///     `renameat2(RENAME_EXCHANGE)`;
/// (b) state of the old identity is moved aside (not deleted) before the commit and deleted
///     only after it;
/// (c) the intent record, flushed before the first change, lets the next `open` finish the
///     change (when every replacement is in place) or undo it (otherwise);
/// (d) `apply` returns only when the new files are all in place; when it throws, the old ones
///     are all back in place.
public final class NodeDirectory {
  /// The directory.
  public let path: String
  /// What it holds.
  public let layout: NodeLayout
  /// Set when `open` finished or undid an interrupted change: a line for the user.
  public private(set) var recoveryNote: String?
  /// What the user should be told (old files that could not be deleted), not yet taken.
  private var warnings: [String] = []

  /// The warnings collected since the last call, for the caller to show.
  public func takeWarnings() -> [String] {
    defer { warnings = [] }
    return warnings
  }

  private var lock: NodeDirectoryLock?
  /// The directories `open` created (outermost first), removed again by `close(keep: false)`
  /// when nothing was written.
  private var created: [String] = []
  private var wrote = false

  private init(path: String, layout: NodeLayout) {
    self.path = path
    self.layout = layout
  }

  deinit { lock?.release() }

  /// Locks `path` and recovers it. With `create`, a missing directory is created with mode
  /// 0700 (and removed again if nothing is written); without it, a missing directory fails.
  public static func open(
    _ path: String, layout: NodeLayout, create: Bool,
    timeout: Double = NodeDirectoryLock.defaultTimeout
  ) throws(NodeFileError) -> NodeDirectory {
    let directory = NodeDirectory(path: path, layout: layout)
    if let status = try FileStatus.following(path) {
      guard status.isDirectory else {
        throw NodeFileError(.unexpectedFile, "\(path) is not a directory")
      }
    } else {
      guard create else {
        throw NodeFileError(.unexpectedFile, "\(path) does not exist; check the directory")
      }
      directory.created = try Self.missingDirectories(path)
      do {
        try SecureFileWriter.createDirectory(path)
      } catch {
        directory.removeCreated()
        throw NodeFileError(.io, error.description)
      }
    }
    do throws(NodeFileError) {
      directory.lock = try NodeDirectoryLock.acquire(path, timeout: timeout)
      try directory.recover()
    } catch {
      directory.close(keep: false)
      throw error
    }
    return directory
  }

  /// Locks `path` for reading and recovers it when this user may; a directory this user cannot
  /// write is read as it is, unless it holds an interrupted change.
  public static func openForReading(_ path: String, layout: NodeLayout) throws(NodeFileError)
    -> NodeDirectory
  {
    guard let status = try FileStatus.following(path) else {
      throw NodeFileError(.unexpectedFile, "\(path) does not exist; check the directory")
    }
    guard status.isDirectory else {
      throw NodeFileError(.unexpectedFile, "\(path) is not a directory")
    }
    let directory = NodeDirectory(path: path, layout: layout)
    directory.lock = try NodeDirectoryLock.acquire(path, readOnlyIsFine: true)
    if directory.lock == nil {
      if try FileStatus.of(directory.full(NodeLayout.intentName)) != nil {
        throw NodeFileError(
          .recovery,
          "\(path) holds an interrupted change (\(NodeLayout.intentName)) that this user cannot "
            + "finish; run this again as the directory's owner")
      }
      return directory
    }
    try directory.recover()
    return directory
  }

  /// Releases the lock. With `keep: false` (the run failed), a directory `open` created is
  /// removed again if it is still empty.
  public func close(keep: Bool = true) {
    lock?.release()
    lock = nil
    if !keep, !wrote { removeCreated() }
  }

  /// `path/relative`.
  public func full(_ relative: String) -> String { NodePath.join(path, relative) }

  // MARK: - Applying a change

  /// Applies `change` as one transaction (see the type's invariants). On failure every step is
  /// undone before this throws; if even the undo fails, the intent record stays for the next
  /// run and the error says so.
  @discardableResult
  public func apply(_ change: NodeChange) throws(NodeFileError) -> NodeChangeResult {
    precondition(lock != nil, "apply needs the directory's lock")
    var result = NodeChangeResult()
    let staging = full(NodeLayout.stagingName)
    let aside = full(NodeLayout.asideName)
    let identity = layout.identityDirectory

    // 1. Stage every new file in a 0700 directory beside the targets; nothing visible changes.
    try DirectoryIO.makeDirectory(staging)
    var steps: [IntentRecord.Step] = []
    var identityFiles: [NodeChange.File] = []
    do throws(NodeFileError) {
      for name in change.removing where identity == nil || !name.hasPrefix(identity! + "/") {
        guard try FileStatus.of(full(name)) != nil else { continue }
        steps.append(.init(kind: .aside, index: steps.count, path: name, inode: 0, existed: true))
        result.removed.append(full(name))
      }
      if let identity {
        identityFiles = change.files.filter { $0.path.hasPrefix(identity + "/") }
      }
      var identityStaged = false
      for file in change.files {
        // The identity directory takes its place where its first file is listed.
        if let identity, file.path.hasPrefix(identity + "/") {
          guard !identityStaged else { continue }
          identityStaged = true
          let (step, removed) = try stageIdentityDirectory(
            identity, files: identityFiles, removing: change.removing, index: steps.count,
            staging: staging)
          steps.append(step)
          result.written += identityFiles.map { full($0.path) }
          result.removed += removed
          continue
        }
        let target = try FileStatus.of(full(file.path))
        if let target, !target.isRegularFile {
          throw NodeFileError(.unexpectedFile, "\(full(file.path)) is not a regular file")
        }
        let staged = NodePath.join(staging, String(steps.count))
        let directoryOwner = try ownerOfDirectory()
        let owner = file.owner ?? target.map { ($0.owner, $0.group) } ?? directoryOwner
        try DirectoryIO.writeNewFile(file.bytes, to: staged, mode: file.mode, owner: owner)
        steps.append(
          .init(
            kind: .file, index: steps.count, path: file.path,
            inode: try FileStatus.of(staged)!.inode, existed: target != nil))
        result.written.append(full(file.path))
      }
      try DirectoryIO.sync(directory: staging)
      try DirectoryIO.sync(directory: path)
    } catch {
      _ = try? DirectoryIO.removeTree(staging)
      throw error
    }

    // 2. The intent record: from here on, a crash is finished or undone by the next run.
    let record = IntentRecord(steps: steps)
    do {
      try SecureFileWriter.write(
        Array(record.text.utf8), to: full(NodeLayout.intentName), replace: .refuseExisting)
    } catch {
      _ = try? DirectoryIO.removeTree(staging)
      throw NodeFileError(.io, error.description)
    }
    wrote = true

    // 3. Move the old state aside, then put each replacement in place; the identity directory
    //    last. Any failure undoes what was done.
    do throws(NodeFileError) {
      try DirectoryIO.makeDirectory(aside)
      for step in steps {
        let target = full(step.path)
        let stagedPath = NodePath.join(staging, String(step.index))
        let asidePath = NodePath.join(aside, String(step.index))
        switch step.kind {
        case .aside:
          try DirectoryIO.rename(target, asidePath)
          try DirectoryIO.sync(directory: aside)
          try DirectoryIO.sync(directory: NodePath.parent(target))
        case .file:
          if step.existed {
            guard link(target, asidePath) == 0 else { throw NodeFileError.system("keep", target) }
            try DirectoryIO.sync(directory: aside)
          }
          try DirectoryIO.rename(stagedPath, target)
          try DirectoryIO.sync(directory: path)
        case .dir:
          try DirectoryIO.rename(
            stagedPath, target, flags: step.existed ? DirectoryIO.exchange : DirectoryIO.noReplace)
          try DirectoryIO.sync(directory: staging)
          try DirectoryIO.sync(directory: path)
        }
      }
    } catch {
      do throws(NodeFileError) {
        try recover(record, finishing: false)
      } catch let undo {
        throw NodeFileError(
          .recovery,
          "\(error.message); undoing the change failed too (\(undo.message)); the next "
            + "freedom-keys run on \(path) finishes undoing it")
      }
      throw error
    }

    // 4. Committed: delete the old identity's files and state, then the record.
    do throws(NodeFileError) {
      try recover(record, finishing: true)
    } catch {
      warnings.append(
        "the new identity is in place, but \(error.message); the next run on \(path) retries")
    }
    result.warnings += takeWarnings()
    return result
  }

  /// Builds the new identity directory: the new files, plus every other file of the current
  /// one (hard links) except those `removing` names and stale temporary files.
  private func stageIdentityDirectory(
    _ identity: String, files: [NodeChange.File], removing: [String], index: Int, staging: String
  ) throws(NodeFileError) -> (IntentRecord.Step, [String]) {
    let current = full(identity)
    let status = try FileStatus.of(current)
    if let status, !status.isDirectory {
      throw NodeFileError(.unexpectedFile, "\(current) is not a directory")
    }
    let staged = NodePath.join(staging, String(index))
    try DirectoryIO.makeDirectory(staged)
    // Root exporting for a user: the new keys/ is the user's, as the old one (or the node
    // directory) was.
    let directoryOwner = try ownerOfDirectory()
    let owner = status.map { ($0.owner, $0.group) } ?? directoryOwner
    if let (user, group) = owner, getuid() == 0, chown(staged, user, group) != 0 {
      throw NodeFileError.system("set the owner of", staged)
    }
    var removed: [String] = []
    let newNames = Set(files.map { String($0.path.dropFirst(identity.count + 1)) })
    if status != nil {
      for name in try DirectoryIO.names(in: current) {
        let relative = identity + "/" + name
        if newNames.contains(name) || layout.isStaleTemporary(name, in: identity) { continue }
        if removing.contains(relative) {
          removed.append(full(relative))
          continue
        }
        let entry = NodePath.join(current, name)
        guard try FileStatus.of(entry)?.isRegularFile == true else {
          throw NodeFileError(
            .unexpectedFile,
            "\(entry) is not a regular file; move it out of \(current) and run this again")
        }
        guard link(entry, NodePath.join(staged, name)) == 0 else {
          throw NodeFileError.system("keep", entry)
        }
      }
    }
    for file in files {
      let name = String(file.path.dropFirst(identity.count + 1))
      try DirectoryIO.writeNewFile(
        file.bytes, to: NodePath.join(staged, name), mode: file.mode, owner: file.owner ?? owner)
    }
    try DirectoryIO.sync(directory: staged)
    let step = IntentRecord.Step(
      kind: .dir, index: index, path: identity, inode: try FileStatus.of(staged)!.inode,
      existed: status != nil)
    return (step, removed)
  }

  /// The owner and group of the node directory.
  private func ownerOfDirectory() throws(NodeFileError) -> (UInt32, UInt32)? {
    try FileStatus.following(path).map { ($0.owner, $0.group) }
  }

  // MARK: - Recovery

  /// Finishes or undoes the change an intent record describes, then removes what freedom-keys
  /// left behind: the staging and aside directories and stale temporary files.
  private func recover() throws(NodeFileError) {
    let intentPath = full(NodeLayout.intentName)
    if try FileStatus.of(intentPath) != nil {
      let text = try Self.readText(intentPath)
      guard let record = IntentRecord(text: text, layout: layout) else {
        throw NodeFileError(
          .recovery,
          "\(intentPath) is not an intent record this freedom-keys can read; check \(path) and "
            + "move it away")
      }
      let finishing = try isCommitted(record)
      try recover(record, finishing: finishing)
      recoveryNote =
        finishing
        ? "finished an interrupted change in \(path): the new identity is in place"
        : "undid an interrupted change in \(path): the old identity is back in place"
    } else {
      // Without a record nothing in these was ever put in place: they are leftovers.
      discard(full(NodeLayout.stagingName))
      discard(full(NodeLayout.asideName))
    }
    for name in try DirectoryIO.names(in: path) where name.hasPrefix(NodeLayout.trashPrefix) {
      discard(full(name))
    }
    try removeStaleTemporaries()
  }

  /// Deletes a staging or aside directory once nothing in it is needed. What cannot be deleted
  /// (an old key made immutable) is renamed out of the way, `.freedom-keys.trash-<hex>`, with a
  /// warning; later runs try again.
  private func discard(_ directory: String) {
    do throws(NodeFileError) {
      try DirectoryIO.removeTree(directory)
    } catch {
      var target = directory
      if !NodePath.leaf(directory).hasPrefix(NodeLayout.trashPrefix) {
        target = full(NodeLayout.trashPrefix + DirectoryIO.randomSuffix())
        if (try? DirectoryIO.rename(directory, target)) == nil { target = directory }
      }
      let warning =
        "\(error.message); the old files left in \(target) belong to no identity in use: "
        + "the next run retries, or remove them by hand"
      if !warnings.contains(warning) { warnings.append(warning) }
    }
  }

  /// Whether every replacement of `record` is in place.
  private func isCommitted(_ record: IntentRecord) throws(NodeFileError) -> Bool {
    var any = false
    for step in record.steps where step.kind != .aside {
      any = true
      guard try FileStatus.of(full(step.path))?.inode == step.inode else { return false }
    }
    return any
  }

  private func recover(_ record: IntentRecord, finishing: Bool) throws(NodeFileError) {
    let staging = full(NodeLayout.stagingName)
    let aside = full(NodeLayout.asideName)
    if !finishing {
      for step in record.steps.reversed() {
        let target = full(step.path)
        let stagedPath = NodePath.join(staging, String(step.index))
        let asidePath = NodePath.join(aside, String(step.index))
        let inPlace = try FileStatus.of(target)
        switch step.kind {
        case .aside:
          if try FileStatus.of(asidePath) != nil, inPlace == nil {
            try DirectoryIO.rename(asidePath, target)
          }
        case .file where inPlace?.inode == step.inode:
          if step.existed {
            guard try FileStatus.of(asidePath) != nil else {
              throw NodeFileError(.recovery, "the old \(target) was not kept; restore it by hand")
            }
            try DirectoryIO.rename(asidePath, target)
          } else {
            try DirectoryIO.rename(target, stagedPath)
          }
        case .dir where inPlace?.inode == step.inode:
          try DirectoryIO.rename(
            stagedPath, target, flags: step.existed ? DirectoryIO.exchange : DirectoryIO.noReplace)
          if !step.existed { try DirectoryIO.rename(target, stagedPath) }
        case .file, .dir:
          break
        }
      }
      try DirectoryIO.sync(directory: path)
      if let identity = layout.identityDirectory, try FileStatus.of(full(identity)) != nil {
        try DirectoryIO.sync(directory: full(identity))
      }
    }
    discard(aside)
    discard(staging)
    try DirectoryIO.sync(directory: path)
    guard unlink(full(NodeLayout.intentName)) == 0 || errno == ENOENT else {
      throw .system("remove", full(NodeLayout.intentName))
    }
    try DirectoryIO.sync(directory: path)
  }

  /// Removes `.<file>.tmp-<hex>` files that killed runs of this or older versions left; they
  /// can hold private keys.
  private func removeStaleTemporaries() throws(NodeFileError) {
    var directories: [(String, String?)] = [(path, nil)]
    if let identity = layout.identityDirectory,
      try FileStatus.of(full(identity))?.isDirectory == true
    {
      directories.append((full(identity), identity))
    }
    for (directory, subdirectory) in directories {
      var removed = false
      for name in try DirectoryIO.names(in: directory)
      where layout.isStaleTemporary(name, in: subdirectory) {
        guard unlink(NodePath.join(directory, name)) == 0 else {
          throw .system("remove the stale temporary file", NodePath.join(directory, name))
        }
        removed = true
      }
      if removed { try DirectoryIO.sync(directory: directory) }
    }
  }

  private static func readText(_ path: String) throws(NodeFileError) -> String {
    let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { throw .system("read", path) }
    defer { Glibc.close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65536 {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw .system("read", path) }
      if count == 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The directories `mkdir -p path` would create, outermost first.
  private static func missingDirectories(_ path: String) throws(NodeFileError) -> [String] {
    var missing: [String] = []
    var current = path
    while !current.isEmpty, current != "/", current != ".", try FileStatus.of(current) == nil {
      missing.append(current)
      current = NodePath.parent(current)
    }
    return missing.reversed()
  }

  private func removeCreated() {
    for directory in created.reversed() { rmdir(directory) }
    created = []
  }
}

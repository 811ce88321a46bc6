import NodeFiles
import Recovery

/// A search's checkpoint kept in a file the user names, replaced atomically as the search goes
/// (mode 0600): a phrase search's (`RecoveryProgress`) or a password search's
/// (`PasswordCheckpoint`). A checkpoint that cannot be read as one throws the search's own
/// error (`RecoveryCheckpointError`, `PasswordRecoveryError`), which its session also throws for
/// a checkpoint of another search.
package struct CheckpointFile: RecoveryCheckpointStore, PasswordCheckpointStore {
  package let path: String

  package init(path: String) { self.path = path }

  package func load() throws -> RecoveryProgress? {
    try UserFiles.read(path).map { bytes throws(RecoveryCheckpointError) in
      try RecoveryProgress(json: bytes)
    }
  }

  package func load() throws -> PasswordCheckpoint? {
    try UserFiles.read(path).map { bytes throws(PasswordRecoveryError) in
      try PasswordCheckpoint(json: bytes)
    }
  }

  package func save(_ progress: RecoveryProgress) throws { try write(progress.jsonBytes()) }

  package func save(_ checkpoint: PasswordCheckpoint) throws { try write(checkpoint.jsonBytes()) }

  /// Throws why the checkpoint could not be written, asked before the search so that no
  /// search runs for hours towards a file it cannot keep: its directory must exist and be
  /// writable, and the path must not be a directory. A file there already is the search's to
  /// read (`load` says whether it is a checkpoint).
  package func checkWritable() throws(CheckpointFileError) {
    do {
      try SecureFileWriter.requireWritable(path)
    } catch {
      throw CheckpointFileError(path: path, reason: error)
    }
  }

  private func write(_ bytes: [UInt8]) throws(CheckpointFileError) {
    do {
      try UserFiles.write(bytes, to: path, mode: 0o600, replacing: true)
    } catch {
      throw CheckpointFileError(path: path, reason: error)
    }
  }
}

/// A checkpoint that could not be written, and why.
package struct CheckpointFileError: Error, Equatable, Sendable, CustomStringConvertible {
  package let path: String
  package let reason: SecureFileError

  package var description: String { "cannot write the checkpoint \(path): \(reason)" }
}

// MARK: - The checkpoint a search keeps by itself

extension CheckpointFile {
  /// The folder a search keeps its checkpoint in when none is named, so that an interrupted
  /// search is never lost: `$XDG_STATE_HOME/freedom-keys` (an absolute path, as the XDG base
  /// directory specification wants it), else `$HOME/.local/state/freedom-keys`; nil without
  /// either.
  package static func keptFolder(environment: [String: String]) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return NodePath.join(state, "freedom-keys")
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return NodePath.join(home, ".local/state/freedom-keys")
  }

  /// The checkpoint of the search named `name` (hex digits of its public hash: the same
  /// search finds it again) in `keptFolder`, the folder made (mode 0700) when missing. It holds
  /// what a named checkpoint holds: progress and hashes, no word and no password.
  package static func kept(named name: String, environment: [String: String])
    throws(CheckpointFileError) -> CheckpointFile
  {
    guard let folder = keptFolder(environment: environment) else {
      throw CheckpointFileError(path: name + ".json", reason: .invalidPath("~/.local/state"))
    }
    let file = CheckpointFile(path: NodePath.join(folder, name + ".json"))
    do {
      try SecureFileWriter.createDirectory(folder, mode: 0o700)
    } catch {
      throw CheckpointFileError(path: file.path, reason: error)
    }
    try file.checkWritable()
    return file
  }

  /// Removes the checkpoint: its search ended, nothing is left to continue.
  package func remove() throws(CheckpointFileError) {
    do {
      try SecureFileWriter.remove(path)
    } catch {
      throw CheckpointFileError(path: path, reason: error)
    }
  }
}

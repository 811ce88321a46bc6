import NodeFiles
import PhraseRecovery

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

import CommandLineKit
import FreedomNodes
import PhraseRecovery

/// A password search's checkpoint kept in a file (`--resume`), replaced atomically (0600): of
/// the whole search, or of the one part run.
struct PasswordCheckpointFile: PasswordCheckpointStore {
  let path: String
  /// Whether the search is split into parts (the refusal of a checkpoint then names --shard).
  let sharded: Bool

  func load() throws -> PasswordCheckpoint? {
    guard let bytes = try ExportFiles.read(path) else { return nil }
    do {
      return try PasswordCheckpoint(json: bytes.withUnsafeBytes { Array($0) })
    } catch {
      throw refusal(error)
    }
  }

  /// The one line for a checkpoint that cannot be used.
  func refusal(_ error: PasswordRecoveryError) -> CLIError {
    let same = sharded ? "passwords and --shard" : "passwords"
    return .failure(
      "\(path): \(error): give another --resume file, or the same file and \(same) as before")
  }

  func save(_ checkpoint: PasswordCheckpoint) throws {
    do {
      try UserFiles.write(checkpoint.jsonBytes(), to: path, mode: 0o600, replacing: true)
    } catch {
      throw CLIError.failure("cannot write the checkpoint \(path): \(error)")
    }
  }
}

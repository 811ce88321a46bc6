import CommandLineKit
import FreedomNodes
import PhraseRecovery

/// A password search's checkpoint kept in a file (`--resume`), replaced atomically (0600): of
/// the whole search, or of the one part run.
struct PasswordCheckpointFile {
  let path: String
  let search: [UInt8]
  let shard: RecoverShard
  /// The checkpoint the file held, checked against this search and part.
  let saved: PasswordCheckpoint?

  init(path: String, search: [UInt8], shard: RecoverShard) throws {
    self.path = path
    self.search = search
    self.shard = shard
    guard let bytes = try ExportFiles.read(path) else {
      saved = nil
      return
    }
    let checkpoint: PasswordCheckpoint
    do {
      checkpoint = try PasswordCheckpoint(json: bytes.withUnsafeBytes { Array($0) })
      guard checkpoint.search == search else { throw PasswordRecoveryError.otherSearch }
      guard checkpoint.shard == (shard.index, shard.count) else {
        throw PasswordRecoveryError.otherPart(
          index: checkpoint.shard.index, count: checkpoint.shard.count)
      }
    } catch let error as PasswordRecoveryError {
      let same = shard.count > 1 ? "passwords and --shard" : "passwords"
      throw CLIError.failure(
        "\(path): \(error): give another --resume file, or the same file and \(same) as before")
    }
    saved = checkpoint
  }

  func save(doneBelow: Int, found: Int? = nil) throws {
    let bytes = PasswordCheckpoint(
      search: search, doneBelow: doneBelow, found: found, shard: (shard.index, shard.count)
    ).jsonBytes()
    do {
      try UserFiles.write(bytes, to: path, mode: 0o600, replacing: true)
    } catch {
      throw CLIError.failure("cannot write the checkpoint \(path): \(error)")
    }
  }
}

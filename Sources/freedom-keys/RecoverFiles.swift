import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import PhraseRecovery

/// The files `recover` writes: the found phrase or password (`--out`), and what a checkpoint
/// (`--resume`) that cannot be used says.
enum RecoverFiles {
  /// The one line for a checkpoint that cannot be used.
  static func checkpointFailure(_ path: String, _ error: RecoveryCheckpointError) -> CLIError {
    switch error {
    case .otherSearch, .otherOptions, .otherWordsOrPassphrases:
      .failure("\(path): \(error): give another --resume file, or the same options as before")
    case .otherPart:
      .failure(
        "\(path): \(error): give each shard its own --resume file, and the shard its checkpoint "
          + "is of (--shard K/N)")
    case .malformed, .inconsistent, .matchFailsTargets:
      .failure(
        "\(path): \(error); it was changed or damaged: delete it (or give another --resume "
          + "file) to search from the start")
    }
  }

  /// Refuses an --out path before the search, so that a phrase found is never lost to it: the
  /// file must not exist (not even as a dangling symbolic link), its directory must.
  static func checkOutput(_ path: String) throws {
    do {
      try UserFiles.checkNew(path)
    } catch .notADirectory(let directory, _) {
      throw CLIError.failure(
        "\(directory) is not a directory, so --out cannot write \(path): create it first or "
          + "choose another path")
    } catch .notWritable(let directory, _) {
      throw CLIError.failure(
        "\(directory) is not writable, so --out cannot write \(path): choose another directory")
    } catch {
      throw CLIError.failure(error.description)
    }
  }

  /// Writes `bytes` to a new file `path` (mode 0600), never replacing one.
  static func write(_ bytes: SecureBytes, to path: String) throws {
    do {
      try UserFiles.write(bytes, to: path, mode: 0o600, replacing: false)
    } catch .alreadyExists(let path) {
      throw CLIError.failure(NewFileRefusal.exists(path: path).description)
    } catch {
      throw CLIError.failure("cannot write \(path): \(error)")
    }
  }
}

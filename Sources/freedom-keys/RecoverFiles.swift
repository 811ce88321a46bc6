import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import Recovery

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
    case .candidates:
      // Not the checkpoint's fault: the passphrase candidates file changed under the search.
      .failure(error.description)
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

  /// What a search found, written by the one rule (`FoundAnswerFile`): the file asked for,
  /// else a new file beside it, else standard output; the lines that say where, and why it is
  /// not where asked.
  struct Delivery {
    /// "wrote the password to P (mode 0600)", one a file.
    var lines: [String] = []
    /// Why an answer is not where asked, and where it is.
    var failures: [String] = []
    /// The files written, in order.
    var paths: [String] = []

    /// Writes `bytes` (`what`: "the corrected phrase") to a new file `path`, else beside it,
    /// else on standard output as one line.
    mutating func write(_ bytes: SecureBytes, _ what: String, to path: String) throws {
      switch FoundAnswerFile.write(bytes, to: path) {
      case .asked(let path):
        lines.append("wrote \(what) to \(path) (mode 0600)")
        paths.append(path)
      case .beside(let written, let asked, let reason):
        lines.append("wrote \(what) to \(written) (mode 0600), as \(asked) could not be written")
        failures.append("\(what) is in \(written), not in \(asked): \(reason)")
        paths.append(written)
      case .nowhere(let asked, let reason):
        let ends = bytes.withUnsafeBytes { $0.last == UInt8(ascii: "\n") }
        try SecretInput.writeToStandardOutput(
          ends ? bytes : bytes + SecureBytes([0x0A]), as: SecretSource(role: what, path: nil))
        lines.append(
          "printed \(what) above, as neither \(asked) nor a new file beside it could be written")
        failures.append(
          "\(what) is on standard output, not in \(asked): \(reason) (nor could \(asked).1 "
            + "to .\(FoundAnswerFile.besideCount) be written)")
      }
    }

    /// Throws (exit 1) when an answer is not where asked, once it was delivered and said.
    func finish() throws {
      guard !failures.isEmpty else { return }
      throw CLIError.failure(failures.joined(separator: "; "))
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

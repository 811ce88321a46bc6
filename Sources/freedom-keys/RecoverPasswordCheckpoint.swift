import CommandLineKit
import PhraseRecovery

extension RecoverPasswordCommand {
  /// The one line for a `--resume` checkpoint that cannot be used (another search's or
  /// part's, or not one).
  func checkpointRefusal(_ error: PasswordRecoveryError) -> CLIError {
    let same = shard.count > 1 ? "passwords and --shard" : "passwords"
    return .failure(
      "\(resumePath ?? ""): \(error): give another --resume file, or the same file and \(same) "
        + "as before")
  }
}

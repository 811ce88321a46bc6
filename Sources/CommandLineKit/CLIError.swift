/// The ways a command ends other than success, each with its exit status.
package enum CLIError: Error, CustomStringConvertible {
  /// The command line itself is wrong (unknown option, missing value, …): exit 2, with a hint
  /// to `commandPath --help`.
  case usage(String, commandPath: String)
  /// The input was bad or an operation failed (unreadable file, invalid mnemonic, …): exit 1.
  case failure(String)
  /// `verify` found a difference between what was expected and what was derived: exit 3.
  case mismatch(String)
  /// `recover` searched every candidate and none matched the targets: exit 4.
  case notFound(String)
  /// One part of a search divided among machines searched its share without a match: exit 4
  /// as `notFound`, but worded as a result, not an error (another part may hold the match).
  case partWithoutMatch(String)
  /// The user interrupted a long-running command (Ctrl-C): exit 130, as a shell reports SIGINT.
  case interrupted(String)

  /// The process exit status for this error.
  package var exitStatus: Int32 {
    switch self {
    case .usage: 2
    case .failure: 1
    case .mismatch: 3
    case .notFound, .partWithoutMatch: 4
    case .interrupted: 130
    }
  }

  package var description: String {
    switch self {
    case .usage(let message, let commandPath): "\(message) (see '\(commandPath) --help')"
    case .failure(let message), .mismatch(let message), .notFound(let message),
      .partWithoutMatch(let message), .interrupted(let message):
      message
    }
  }
}

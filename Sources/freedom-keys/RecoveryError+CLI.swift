import Recovery

extension RecoveryError: CLIWordedError {
  /// The library's message, each remedy worded as this tool's option (`RemedyFlags`).
  var cliDescription: String { message.rendered(RemedyFlags.words) }
}

extension PasswordRecoveryError: CLIWordedError {
  /// The library's message, each remedy worded as this tool's option (`RemedyFlags`).
  var cliDescription: String { message.rendered(RemedyFlags.words) }
}

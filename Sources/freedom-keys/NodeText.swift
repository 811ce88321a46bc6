import CommandLineKit
import FreedomNodes
import VaultKeys

/// The CLI's wording of what FreedomNodes reports: events as warnings, typed errors as one line
/// with this tool's options, conflicts as one refusal naming every one.
enum NodeText {
  /// Which command an error is worded for.
  enum Context {
    case export
    case verify
    /// `recover`, reading its targets through `option`.
    case recover(Option)

    /// The library's operation.
    var operation: NodeOperation {
      switch self {
      case .export: .export
      case .verify: .verify
      case .recover: .recover
      }
    }
  }

  /// Shows an event on stderr.
  static func show(_ event: NodeEvent) {
    if case .keyDerivation(let encrypting, let path, let kdf) = event {
      return KDFNotice.announce(encrypting ? "encrypting the key" : "decrypting \(path)", kdf)
    }
    event.warning.map(Output.warning)
  }

  /// Runs `body`, a NodeError worded for `context` (a refusal's hint naming only what
  /// `consent` does not cover yet).
  static func run<Result>(
    _ context: Context, consent: ExportConsent = ExportConsent(), _ body: () throws -> Result
  ) throws -> Result {
    do {
      return try body()
    } catch let error as NodeError {
      throw cliError(error, context, consent: consent)
    }
  }

  /// The CLI error for `error`: its message with each remedy worded as this tool's option, a
  /// mismatch (exit 3) where the directory holds nothing of what was to be checked.
  static func cliError(
    _ error: NodeError, _ context: Context, consent: ExportConsent = ExportConsent()
  ) -> CLIError {
    let text = render(error.message(context.operation, consent: consent), context)
    return error.isMismatch(context.operation) ? .mismatch(text) : .failure(text)
  }

  /// `message` with its remedies worded as this tool's options.
  static func render(_ message: NodeMessage, _ context: Context = .export) -> String {
    message.rendered { remedy in
      guard remedy == .targetOption, case .recover(let option) = context else {
        return RemedyFlags.words(remedy)
      }
      return option.synopsis
    }
  }

  /// A refusal, its remedies worded (`export ant` names the nonce it writes).
  static func refusal(
    _ conflicts: [NodeConflict], antNonce: AntIdentity.NonceRule = .zero,
    consent: ExportConsent = ExportConsent()
  ) -> String {
    render(NodeConflict.refusal(conflicts, antNonce: antNonce, consent: consent))
  }

  /// `text` as one word for a POSIX shell.
  static func shellQuoted(_ text: String) -> String { NodeMessage.shellQuoted(text) }
}

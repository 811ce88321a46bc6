import CommandLineKit
import FreedomNodes
import VaultKeys

/// The CLI's wording of what FreedomNodes reports: events as warnings, typed errors as one line
/// with this tool's options, conflicts as one refusal naming every one.
enum NodeText {
  /// Shows an event on stderr.
  static func show(_ event: NodeEvent) {
    if case .keyDerivation(let encrypting, let path, let kdf) = event {
      return KDFNotice.announce(encrypting ? "encrypting the key" : "decrypting \(path)", kdf)
    }
    event.warning.map(Output.warning)
  }

  /// Runs `body`, a NodeError worded for `operation` (`recover` reading its targets through
  /// `targetOption`; a refusal's hint naming only what `consent` does not cover yet).
  static func run<Result>(
    _ operation: NodeOperation, targetOption: Option? = nil,
    consent: ExportConsent = ExportConsent(), _ body: () throws -> Result
  ) throws -> Result {
    do {
      return try body()
    } catch let error as NodeError {
      throw cliError(error, operation, targetOption: targetOption, consent: consent)
    }
  }

  /// The CLI error for `error`: its message with each remedy worded as this tool's option, a
  /// mismatch (exit 3) where the directory holds nothing of what was to be checked.
  static func cliError(
    _ error: NodeError, _ operation: NodeOperation, targetOption: Option? = nil,
    consent: ExportConsent = ExportConsent()
  ) -> CLIError {
    let text = render(error.message(operation, consent: consent), targetOption: targetOption)
    return error.isMismatch(operation) ? .mismatch(text) : .failure(text)
  }

  /// `message` with its remedies worded as this tool's options (`.targetOption` as
  /// `targetOption`, the option `recover` read its targets through).
  static func render(_ message: NodeMessage, targetOption: Option? = nil) -> String {
    message.rendered { remedy in
      guard remedy == .targetOption, let targetOption else { return RemedyFlags.words(remedy) }
      return targetOption.synopsis
    }
  }

  /// A refusal, its remedies worded (`export ant` names the nonce it writes).
  static func refusal(
    _ conflicts: [NodeConflict], antNonce: AntIdentity.NonceRule = .zero,
    consent: ExportConsent = ExportConsent()
  ) -> String {
    render(NodeConflict.refusal(conflicts, antNonce: antNonce, consent: consent))
  }
}

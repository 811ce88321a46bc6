import CommandLineKit
import Wording

/// Writing to the standard streams without buffering surprises: results to stdout, everything
/// meant for the person (prompts, warnings, errors) to stderr.
enum Output {
  /// A file mode as `chmod` takes it: `0600`.
  static func octal(_ mode: UInt32) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// Writes `text` to standard output.
  static func standardOutput(_ text: String) { StandardStreams.process.output(text) }

  /// Writes `text` to standard error.
  static func standardError(_ text: String) { StandardStreams.process.error(text) }

  /// `freedom-keys: warning: …` on standard error.
  static func warning(_ message: String) {
    standardError("freedom-keys: warning: \(TerminalText.oneLine(message))\n")
  }

  /// `freedom-keys: hint: …` on standard error: what may explain a result.
  static func hint(_ message: String) {
    standardError("freedom-keys: hint: \(TerminalText.oneLine(message))\n")
  }
}

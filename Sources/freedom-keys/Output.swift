import SystemCalls

/// Writing to the standard streams without buffering surprises: results to stdout, everything
/// meant for the person (prompts, warnings, errors) to stderr.
enum Output {
  /// A file mode as `chmod` takes it: `0600`.
  static func octal(_ mode: UInt32) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// Writes `text` to standard output.
  static func standardOutput(_ text: String) { writeAll(text, to: Platform.standardOutput) }

  /// Writes `text` to standard error.
  static func standardError(_ text: String) { writeAll(text, to: Platform.standardError) }

  /// `freedom-keys: warning: …` on standard error.
  static func warning(_ message: String) {
    standardError("freedom-keys: warning: \(oneLine(message))\n")
  }

  /// `freedom-keys: hint: …` on standard error: what may explain a result.
  static func hint(_ message: String) {
    standardError("freedom-keys: hint: \(oneLine(message))\n")
  }

  /// `freedom-keys: error: …` on standard error, always exactly one line.
  static func error(_ message: String) {
    standardError("freedom-keys: error: \(oneLine(message))\n")
  }

  /// `message` with control characters (a newline in a file name, say) made visible as '?'.
  static func oneLine(_ message: String) -> String {
    String(
      String.UnicodeScalarView(
        message.unicodeScalars.map {
          $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0
        }
      ))
  }

  private static func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    _ = text.withUTF8 { Platform.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
  }
}

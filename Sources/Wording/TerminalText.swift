/// Text from a file, made safe to show on a terminal: the one rule for every error line,
/// warning, report, table and line that is not JSON (JSON escapes on its own). The command-line
/// framework and the libraries beneath the tool all use it, so it lives beneath both.
package enum TerminalText {
  /// `text` with each control character (C0, DEL, C1: an escape sequence, a carriage return,
  /// a newline, a bell) shown as '?': what a file holds can neither move the cursor nor add
  /// a line of its own.
  package static func oneLine(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
  }

  /// Whether `oneLine` shows `scalar` as '?': a control character (C0, DEL, C1).
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}

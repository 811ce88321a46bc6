/// Text from a file, made safe to show on a terminal: the one rule for every report, table
/// and line that is not JSON (JSON escapes on its own). It is the rule error lines follow
/// (CommandLineKit's `StandardStreams.oneLine`, which cannot import this module).
public enum TerminalText {
  /// `text` with each control character (C0, DEL, C1: an escape sequence, a carriage return,
  /// a newline, a bell) shown as '?': what a file holds can neither move the cursor nor add
  /// a line of its own.
  public static func oneLine(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}

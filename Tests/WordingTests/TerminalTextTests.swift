import Testing
import Wording

/// The one rule that makes text from a file safe on a terminal: every error line, warning,
/// report and table shows a control character as '?' through it.
@Suite struct TerminalTextTests {
  @Test func oneLineShowsControlCharactersAsQuestionMarks() {
    #expect(TerminalText.oneLine("a\nb\u{7}c\u{85}é") == "a?b?c?é")
    #expect(TerminalText.oneLine("\u{1B}[2J\r") == "?[2J?")
    #expect(TerminalText.oneLine("plain text, ünïcode ~") == "plain text, ünïcode ~")
  }

  /// C0, DEL and C1 are control characters; the space, '~' and U+00A0 are not.
  @Test func controlCharactersAreC0DelAndC1() {
    let control: [UInt32] = [0x00, 0x0A, 0x1F, 0x7F, 0x80, 0x9F]
    let shown: [UInt32] = [0x20, 0x7E, 0xA0, 0xE9, 0x2028]
    for value in control {
      #expect(TerminalText.isControl(Unicode.Scalar(value)!), "\(value)")
    }
    for value in shown {
      #expect(!TerminalText.isControl(Unicode.Scalar(value)!), "\(value)")
    }
  }
}

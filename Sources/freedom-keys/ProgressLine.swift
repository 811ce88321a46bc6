import CommandLineKit
import PhraseRecovery
import SystemCalls

/// A search's progress on stderr: one line redrawn in place on a terminal, else lines appended
/// ("progress: …"); any other line clears a drawn one first.
final class ProgressLine {
  let onTerminal: Bool
  private var drawn = false

  init(onTerminal: Bool = Platform.isTerminal(Platform.standardError)) {
    self.onTerminal = onTerminal
  }

  /// Seconds between progress lines when none are given: every second on a terminal.
  var standardInterval: Double { ProgressInterval.standard(redrawn: onTerminal) }

  func show(_ line: String) {
    if onTerminal {
      Output.standardError("\r\u{1B}[K" + line)
      drawn = true
    } else {
      Output.standardError("progress: " + line + "\n")
    }
  }

  /// One line, after clearing a progress line drawn on the terminal.
  func say(_ line: String) {
    clear()
    Output.standardError(line + "\n")
  }

  func clear() {
    if drawn { Output.standardError("\r\u{1B}[K") }
    drawn = false
  }
}

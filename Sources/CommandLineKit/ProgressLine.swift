import SystemCalls

/// A long task's progress on standard error: one line redrawn in place on a terminal, else
/// lines appended ("progress: …"); any other line clears a drawn one first.
package final class ProgressLine {
  package let onTerminal: Bool
  private let streams: StandardStreams
  private var drawn = false

  /// On `streams`' error stream, redrawn when standard error is a terminal (`onTerminal` nil)
  /// or as told.
  package init(onTerminal: Bool? = nil, streams: StandardStreams = .process) {
    self.onTerminal = onTerminal ?? Platform.isTerminal(Platform.standardError)
    self.streams = streams
  }

  /// Shows `line` as the progress: drawn over the last one on a terminal.
  package func show(_ line: String) {
    if onTerminal {
      streams.error("\r\u{1B}[K" + line)
      drawn = true
    } else {
      streams.error("progress: " + line + "\n")
    }
  }

  /// One line, after clearing a progress line drawn on the terminal.
  package func say(_ line: String) {
    clear()
    streams.error(line + "\n")
  }

  /// Clears a progress line drawn on the terminal.
  package func clear() {
    if drawn { streams.error("\r\u{1B}[K") }
    drawn = false
  }
}

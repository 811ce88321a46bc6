import CryptoPrimitives
import Glibc

/// The terminal settings a signal handler puts back if the process is interrupted while echo is
/// off. Written once before the handlers are installed, only read afterwards.
nonisolated(unsafe) private var settingsToRestore = termios()

/// Restores the terminal, then lets the signal do what it would have done.
private func restoreTerminalAndReraise(_ signal: Int32) {
  _ = tcsetattr(STDIN_FILENO, TCSANOW, &settingsToRestore)
  _ = write(STDERR_FILENO, "\n", 1)
  _ = Glibc.signal(signal, SIG_DFL)
  _ = raise(signal)
}

/// Reading a line from the terminal without showing it, like `ssh` asks for a passphrase.
enum TerminalPrompt {
  private static let interruptions = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Shows `prompt` on standard error, turns echo off, reads one line from standard input and
  /// restores the terminal on every path (also on Ctrl-C). Returns the line with its line ending,
  /// or nil if input ended before anything was typed. Reads at most `capacity` bytes.
  static func readHiddenLine(prompt: String, capacity: Int) -> SecureBytes? {
    var original = termios()
    let isTerminal = tcgetattr(STDIN_FILENO, &original) == 0
    var previousHandlers: [sighandler_t?] = []
    var previousMask = sigset_t()
    if isTerminal {
      settingsToRestore = original
      previousHandlers = interruptions.map { signal($0, restoreTerminalAndReraise) }
      // A parent may have started us with these blocked (Foundation's Process does); Ctrl-C
      // must still end the prompt.
      var unblocked = sigset_t()
      sigemptyset(&unblocked)
      for signalNumber in interruptions { sigaddset(&unblocked, signalNumber) }
      pthread_sigmask(SIG_UNBLOCK, &unblocked, &previousMask)
      var hidden = original
      hidden.c_lflag &= ~tcflag_t(ECHO)
      // Discards anything typed ahead: it was shown on the screen before echo went off.
      _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
    }
    defer {
      if isTerminal {
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &original)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        for (signalNumber, handler) in zip(interruptions, previousHandlers) {
          _ = signal(signalNumber, handler)
        }
        Output.standardError("\n")  // the Enter the user pressed was not echoed
      }
    }
    Output.standardError(prompt)

    var filled = 0
    let line = SecureBytes(count: capacity) { raw in
      while filled < raw.count {
        let count = read(STDIN_FILENO, raw.baseAddress! + filled, raw.count - filled)
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return }
        filled += count
        if raw[filled - 1] == UInt8(ascii: "\n") { return }
      }
    }
    return filled == 0 ? nil : line[0..<filled]
  }
}

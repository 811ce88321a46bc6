import CryptoPrimitives
import SystemCalls

/// Reading a line from the terminal without showing it, like `ssh` asks for a passphrase.
enum TerminalPrompt {
  /// Shows `prompt` on standard error, turns echo off, reads one line from standard input and
  /// restores the terminal on every path (also on Ctrl-C). Returns the line with its line ending,
  /// or nil if input ended before anything was typed. Reads at most `capacity` bytes.
  static func readHiddenLine(prompt: String, capacity: Int) -> SecureBytes? {
    Platform.withEchoOff { isTerminal in
      defer {
        if isTerminal { Output.standardError("\n") }  // the Enter the user pressed was not echoed
      }
      Output.standardError(prompt)

      var filled = 0
      let line = SecureBytes(count: capacity) { raw in
        while filled < raw.count {
          let count = Platform.read(
            Platform.standardInput, UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
          if count <= 0 { return }
          filled += count
          if raw[filled - 1] == UInt8(ascii: "\n") { return }
        }
      }
      return filled == 0 ? nil : line[0..<filled]
    }
  }
}

/// Why a candidates file read line by line (`CandidateLines`) cannot be searched. Messages
/// name a line by its number, never by its text, and name no option.
package enum CandidateFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be opened or read: the system's reason.
  case unreadable(String)
  /// The path is not a regular file (a directory, a pipe, a device): it cannot be read twice.
  case notRegularFile
  /// The file holds no line.
  case noLines
  /// Line `line` (1-based) is not UTF-8.
  case invalidUTF8(line: Int)
  /// Line `line` holds a control character other than tab or carriage return.
  case controlCharacter(line: Int)
  /// Line `line` is longer than `limit` bytes.
  case lineTooLong(line: Int, limit: Int)
  /// The file changed since it was counted (its size, time or content): what was read from it
  /// since is not trusted.
  case changed

  package var description: String {
    switch self {
    case .unreadable(let reason): "it cannot be read: \(reason)"
    case .notRegularFile: "it is not a regular file, which a file this large must be"
    case .noLines: "it holds no line"
    case .invalidUTF8(let line): "line \(line) is not valid UTF-8"
    case .controlCharacter(let line):
      "line \(line) holds a control character (other than tab or carriage return)"
    case .lineTooLong(let line, let limit):
      "line \(line) is longer than \(limit >> 10) KiB; one line is one candidate"
    case .changed:
      "it changed while it was searched (its size, time or content differ from when it was "
        + "counted); the search stopped and concluded nothing from it: search it again"
    }
  }
}

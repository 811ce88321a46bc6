import CommandLineKit

/// The command line as text, exactly: `CommandLine.arguments` decodes an argument that is not
/// UTF-8 by replacing its bytes with U+FFFD, so `--data-dir $'node\xff'` would name another
/// directory (`node\u{FFFD}`, bytes `node\xef\xbf\xbd`) and write there. Every argument is read
/// from `CommandLine.unsafeArgv` and validated instead; one that is not UTF-8 is refused, never
/// replaced (paths are opened from their text, so a name that is not UTF-8 cannot be named).
enum CommandLineArguments {
  /// The arguments after the tool's name, or the refusal naming the first that is not UTF-8
  /// (by its option or position; never its bytes, which may be a secret typed in the wrong
  /// place).
  static func validated() -> Result<[String], CLIError> {
    var arguments: [String] = []
    for index in 1..<Int(CommandLine.argc) {
      guard let pointer = CommandLine.unsafeArgv[index] else { break }
      guard let argument = String(validatingCString: pointer) else {
        return .failure(.failure(refusal(for: index, after: arguments)))
      }
      arguments.append(argument)
    }
    return .success(arguments)
  }

  /// "the value of --data-dir is not valid UTF-8 …", "the argument after --data-dir …", or
  /// "argument 3 …".
  private static func refusal(for index: Int, after arguments: [String]) -> String {
    var what = "argument \(index)"
    if let pointer = CommandLine.unsafeArgv[index] {
      // `--name=<value>`: the name is the text before '=', when that part is UTF-8.
      var bytes: [UInt8] = []
      var cursor = pointer
      while cursor.pointee != 0, cursor.pointee != UInt8(ascii: "=") {
        bytes.append(UInt8(bitPattern: cursor.pointee))
        cursor += 1
      }
      if cursor.pointee != 0, bytes.starts(with: Array("--".utf8)),
        let name = String(validating: bytes, as: UTF8.self)
      {
        what = "the value of \(name)"
      } else if let previous = arguments.last, previous.hasPrefix("--"),
        !previous.contains("=")
      {
        what = "the argument after \(previous)"
      }
    }
    return "\(what) is not valid UTF-8: freedom-keys takes file and directory names as UTF-8 "
      + "text only and changed nothing; rename the file or directory to a UTF-8 name"
  }
}

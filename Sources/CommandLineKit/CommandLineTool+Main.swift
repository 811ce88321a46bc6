import SystemCalls
import Wording

extension CommandLineTool {
  /// Runs the tool on the process's command line and exits with its status (`run`). Every
  /// argument is read as its exact UTF-8 text (`arguments(_:)`); `describe` words the errors
  /// that are not a `CLIError` (exit 1).
  package func main(describe: (any Error) -> String = { String(describing: $0) }) -> Never {
    let argv = (1..<Int(CommandLine.argc)).compactMap { index in
      CommandLine.unsafeArgv[index].map { pointer in
        var bytes: [UInt8] = []
        while pointer[bytes.count] != 0 { bytes.append(UInt8(bitPattern: pointer[bytes.count])) }
        return bytes
      }
    }
    switch arguments(argv) {
    case .success(let arguments): Platform.exit(run(arguments, describe: describe))
    case .failure(let error):
      StandardStreams.process.error(errorLine(error.description))
      Platform.exit(error.exitStatus)
    }
  }

  /// Parses `arguments` (without the tool's name) and does what they ask: runs the command or
  /// prints its help, the version, a completion script or the man pages. Returns the exit
  /// status; an error is one line on standard error (`name: error: …`), `describe` wording
  /// those that are not a `CLIError` (exit 1). A function, so every value the command held is
  /// released before the process exits.
  package func run(
    _ arguments: [String], streams: StandardStreams = .process,
    describe: (any Error) -> String = { String(describing: $0) }
  ) -> Int32 {
    do {
      switch try ArgumentReader.parse(arguments, of: self) {
      case .help(let node):
        streams.output(HelpText.render(node))
      case .version:
        streams.output("\(name) \(version)\n")
      case .run(let command):
        try command.run()
      case .missingSubcommand(let node, let error):
        streams.error(HelpText.render(node) + "\n")
        throw error
      case .manualPages(let directory):
        try ManualPages.write(ManualPages.pages(of: self), into: directory)
      case .completionScript(let shell):
        streams.output(CompletionScript.script(for: shell, of: self))
      }
      return 0
    } catch CLIError.partWithoutMatch(let message) {
      streams.error("\(name): \(TerminalText.oneLine(message))\n")
      return CLIError.partWithoutMatch(message).exitStatus
    } catch let error as CLIError {
      streams.error(errorLine(error.description))
      return error.exitStatus
    } catch {
      streams.error(errorLine(describe(error)))
      return 1
    }
  }

  /// `name: error: message`, always exactly one line.
  package func errorLine(_ message: String) -> String {
    "\(name): error: \(TerminalText.oneLine(message))\n"
  }

  /// The command line as text, exactly: `CommandLine.arguments` decodes an argument that is
  /// not UTF-8 by replacing its bytes with U+FFFD, so `--data-dir $'node\xff'` would name
  /// another directory (`node\u{FFFD}`) and write there. Each argument of `argv` (without the
  /// tool's name) is validated instead; the first that is not UTF-8 is refused, named by its
  /// option or position and never by its bytes (a secret typed in the wrong place).
  package func arguments(_ argv: [[UInt8]]) -> Result<[String], CLIError> {
    var arguments: [String] = []
    for bytes in argv {
      guard let argument = String(validating: bytes, as: UTF8.self) else {
        return .failure(.failure(refusal(bytes, position: arguments.count + 1, after: arguments)))
      }
      arguments.append(argument)
    }
    return .success(arguments)
  }

  /// "the value of --data-dir is not valid UTF-8 …", "the argument after --data-dir …", or
  /// "argument 3 …".
  private func refusal(_ bytes: [UInt8], position: Int, after arguments: [String]) -> String {
    var what = "argument \(position)"
    // `--name=<value>`: the name is the text before '=', when that part is UTF-8.
    if let equals = bytes.firstIndex(of: UInt8(ascii: "=")), bytes.starts(with: Array("--".utf8)),
      let name = String(validating: bytes[..<equals], as: UTF8.self)
    {
      what = "the value of \(name)"
    } else if let previous = arguments.last, previous.hasPrefix("--"), !previous.contains("=") {
      what = "the argument after \(previous)"
    }
    return "\(what) is not valid UTF-8: \(name) takes file and directory names as UTF-8 "
      + "text only and changed nothing; rename the file or directory to a UTF-8 name"
  }
}

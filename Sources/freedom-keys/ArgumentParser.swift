/// The options given to one command, after the command line was checked against its configuration.
struct ParsedArguments {
  /// `freedom-keys derive`, for messages and help hints.
  let commandPath: String
  fileprivate var values: [String: String] = [:]
  fileprivate var flags: Set<String> = []

  /// Whether the flag was given.
  func flag(_ option: Option) -> Bool { flags.contains(option.name) }

  /// The option's value, or nil when it was not given.
  func value(_ option: Option) -> String? { values[option.name] }

  /// The option's value as a whole number in `range`, or nil when it was not given.
  func integer<T: FixedWidthInteger>(_ option: Option, in range: ClosedRange<T>) throws(CLIError)
    -> T?
  {
    guard let text = value(option) else { return nil }
    // Digits only: no sign, no spaces, no "0x".
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let number = T(text, radix: 10), range.contains(number)
    else {
      throw usage(
        "\(option.synopsis) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  /// A usage error that points at this command's help.
  func usage(_ message: String) -> CLIError { .usage(message, commandPath: commandPath) }
}

/// What a command line asks for.
enum Invocation {
  /// Print this command's help.
  case help(any ParsableCommand.Type, commandPath: String)
  /// Print the version.
  case version
  /// Run this command.
  case run(any ParsableCommand)
}

/// Turns `CommandLine.arguments` into an `Invocation`: subcommand words first, then options
/// (`--name value`, `--name=value`, flags), `-h`/`--help` anywhere, `--` ends the options.
enum ArgumentParser {
  static let helpNames: Set<String> = ["-h", "--help"]

  static func parse(_ arguments: [String], root: any ParsableCommand.Type) throws(CLIError)
    -> Invocation
  {
    var command = root
    var commandPath = root.configuration.name
    var rest = arguments[...]
    while let word = rest.first, !word.hasPrefix("-"), !command.configuration.subcommands.isEmpty {
      guard
        let sub = command.configuration.subcommands.first(where: { $0.configuration.name == word })
      else { break }
      command = sub
      commandPath += " " + word
      rest = rest.dropFirst()
    }
    if !command.configuration.subcommands.isEmpty, let word = rest.first, !word.hasPrefix("-") {
      // A word that names no command is an error even beside --help: a typo must not look
      // like success to a script.
      throw unexpected(
        Array(rest.prefix { !$0.hasPrefix("-") }), command: command,
        parsed: ParsedArguments(commandPath: commandPath))
    }
    let options = rest.prefix(while: { $0 != "--" })
    if options.contains(where: helpNames.contains) {
      return .help(command, commandPath: commandPath)
    }
    if ObjectIdentifier(command) == ObjectIdentifier(root), options.first == "--version" {
      return .version
    }

    let parsed = try parseOptions(rest, of: command, commandPath: commandPath)
    if !command.configuration.subcommands.isEmpty {
      // A group given no subcommand shows what it offers.
      return .help(command, commandPath: commandPath)
    }
    return .run(try command.init(parsed))
  }

  private static func parseOptions(
    _ arguments: ArraySlice<String>, of command: any ParsableCommand.Type, commandPath: String
  ) throws(CLIError) -> ParsedArguments {
    var parsed = ParsedArguments(commandPath: commandPath)
    var positionals: [String] = []
    var rest = arguments
    while let argument = rest.popFirst() {
      if argument == "--" {
        positionals += rest
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      guard argument.hasPrefix("--") else {
        throw parsed.usage("unknown option '\(argument)'")
      }
      let body = argument.dropFirst(2)
      let name = String(body.prefix(while: { $0 != "=" }))
      let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
      guard let option = command.configuration.options.first(where: { $0.name == name }) else {
        // Only the name: whatever follows '=' could be a secret typed in the wrong place.
        throw parsed.usage("unknown option '--\(name)'")
      }
      guard parsed.values[name] == nil, !parsed.flags.contains(name) else {
        throw parsed.usage("\(option.synopsis) was given more than once")
      }
      if option.valueName == nil {
        guard inlineValue == nil else { throw parsed.usage("--\(name) does not take a value") }
        parsed.flags.insert(name)
      } else if let inlineValue {
        parsed.values[name] = inlineValue
      } else if let next = rest.first, !next.hasPrefix("--") {
        parsed.values[name] = next
        rest = rest.dropFirst()
      } else {
        throw parsed.usage("missing value for \(option.synopsis)")
      }
    }
    if let argument = command.configuration.argument {
      guard let first = positionals.first else {
        throw parsed.usage("missing <\(argument.valueName ?? argument.name)>")
      }
      parsed.values[argument.name] = first
      positionals.removeFirst()
    }
    if !positionals.isEmpty { throw unexpected(positionals, command: command, parsed: parsed) }
    return parsed
  }

  /// The error for arguments no option claimed. Never echoes them where they may be a mnemonic.
  private static func unexpected(
    _ positionals: [String], command: any ParsableCommand.Type, parsed: ParsedArguments
  ) -> CLIError {
    if command.readsMnemonic {
      return parsed.usage(
        "the mnemonic is never accepted on the command line (it would land in shell history and `ps`): "
          + "put it in a file and pass --mnemonic-file PATH, or pipe it with --mnemonic-file -")
    }
    if !command.configuration.subcommands.isEmpty {
      // One word is a mistyped command; several could be a mnemonic, so they are not repeated.
      return parsed.usage(
        positionals.count == 1 ? "unknown command '\(positionals[0])'" : "unknown command")
    }
    return parsed.usage("unexpected argument '\(positionals[0])'")
  }
}

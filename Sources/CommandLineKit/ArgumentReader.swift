/// The options given to one command, after the command line was checked against its definition.
package struct ParsedArguments {
  /// `freedom-keys derive`, for messages and help hints.
  package let commandPath: String
  fileprivate var values: [String: String] = [:]
  fileprivate var flags: Set<String> = []
  /// The name each option was given by (its own or an alias).
  fileprivate var spellings: [String: String] = [:]

  /// Whether the flag was given.
  package func flag(_ option: Option) -> Bool { flags.contains(option.name) }

  /// The option's value, or nil when it was not given.
  package func value(_ option: Option) -> String? { values[option.name] }

  /// The option's value, which must be given and not be empty: "missing --data-dir <dir>".
  package func required(_ option: Option) throws(CLIError) -> String {
    guard let text = value(option), !text.isEmpty else {
      throw usage("missing \(option.synopsis)")
    }
    return text
  }

  /// The option's value, or nil when it was not given; given empty, a usage error.
  package func nonEmpty(_ option: Option) throws(CLIError) -> String? {
    guard let text = value(option) else { return nil }
    guard !text.isEmpty else { throw usage("\(option.synopsis) is empty") }
    return text
  }

  /// The typed option's value, or nil when it was not given; one it cannot read is a usage
  /// error saying what it must be.
  package func value<Value>(_ typed: TypedOption<Value>) throws(CLIError) -> Value? {
    guard let text = value(typed.option) else { return nil }
    guard let value = typed.parse(text) else {
      throw usage("\(typed.option.synopsis) \(typed.requirement)")
    }
    return value
  }

  /// The typed option's value, which must be given.
  package func required<Value>(_ typed: TypedOption<Value>) throws(CLIError) -> Value {
    guard let value = try value(typed) else { throw usage("missing \(typed.option.synopsis)") }
    return value
  }

  /// The option's value as a whole number in `range`, or nil when it was not given.
  package func integer<T: FixedWidthInteger & Sendable>(_ option: Option, in range: ClosedRange<T>)
    throws(CLIError) -> T?
  {
    try value(
      TypedOption<T>.integer(option.name, option.valueName ?? "n", help: option.help, in: range))
  }

  /// A usage error that points at this command's help.
  package func usage(_ message: String) -> CLIError { .usage(message, commandPath: commandPath) }
}

/// What a command line asks for.
package enum Invocation {
  /// Print this command's help.
  case help(CommandNode)
  /// Print the version.
  case version
  /// Run this command.
  case run(any Command)
  /// A group given no subcommand: print its help to standard error, then this usage error.
  case missingSubcommand(CommandNode, CLIError)
  /// Write the man pages (`ManualPages.pages(of:)`) into this directory.
  case manualPages(directory: String)
  /// Print the completion script for this shell (`CompletionScript.script(for:of:)`).
  case completionScript(CompletionScript.Shell)
}

/// Turns `CommandLine.arguments` into an `Invocation`: subcommand words first, then options
/// (`--name value`, `--name=value`, flags), `-h`/`--help` anywhere, `--` ends the options.
package enum ArgumentReader {
  static let helpNames: Set<String> = ["-h", "--help"]

  /// What `arguments` (the command line without the tool's own name) ask `tool` to do.
  package static func parse(_ arguments: [String], of tool: CommandLineTool) throws(CLIError)
    -> Invocation
  {
    var rest = arguments[...]
    let node = try resolve(&rest, from: tool.rootNode)
    let command = node.command
    let commandPath = node.commandPath
    let options = rest.prefix(while: { $0 != "--" })
    if options.contains(where: helpNames.contains) {
      return .help(node)
    }
    if node.isHelp {
      // `help export bee`: the words name the command whose help is shown.
      var words = rest
      let target = try resolve(&words, from: tool.rootNode)
      if let extra = words.first {
        throw extra.hasPrefix("-")
          ? ParsedArguments(commandPath: commandPath).usage("unknown option '\(optionName(extra))'")
          : unexpected(
            [extra], command: tool.rootNode, parsed: ParsedArguments(commandPath: commandPath))
      }
      return .help(target)
    }
    if node.isRoot, let first = options.first {
      if first == "--version" { return .version }
      if let action = try toolAction(first, rest.dropFirst(), commandPath: commandPath) {
        return action
      }
    }

    let parsed = try parseOptions(rest, of: node)
    if node.isGroup, !node.definition.runsWithoutSubcommand {
      // A group given no subcommand is a usage error that lists what it offers.
      return .missingSubcommand(node, parsed.usage("missing subcommand"))
    }
    return .run(try command.init(parsed))
  }

  /// Follows the leading subcommand words from `node`, removing them from `rest`. A word that
  /// names no subcommand of a group is an error even beside --help: a typo must not look like
  /// success to a script.
  private static func resolve(_ rest: inout ArraySlice<String>, from node: CommandNode)
    throws(CLIError) -> CommandNode
  {
    var node = node
    while let word = rest.first, !word.hasPrefix("-"), node.isGroup {
      guard let child = node.children.first(where: { $0.words.last == word }) else {
        throw unexpected(
          Array(rest.prefix { !$0.hasPrefix("-") }), command: node,
          parsed: ParsedArguments(commandPath: node.commandPath))
      }
      node = child
      rest = rest.dropFirst()
    }
    return node
  }

  /// The name part of `--name=value`: whatever follows '=' could be a secret.
  private static func optionName(_ argument: String) -> String {
    String(argument.prefix(while: { $0 != "=" }))
  }

  /// `--generate-manual DIR` and `--generate-completion-script SHELL`, given to the tool
  /// itself; nil for any other option.
  private static func toolAction(
    _ first: String, _ following: ArraySlice<String>, commandPath: String
  ) throws(CLIError) -> Invocation? {
    let parsed = ParsedArguments(commandPath: commandPath)
    let name = optionName(first)
    guard name == "--" + ManualPages.option.name || name == "--" + CompletionScript.option.name
    else { return nil }
    let option =
      name == "--" + ManualPages.option.name ? ManualPages.option : CompletionScript.option
    var following = following
    let value: String
    if first.count > name.count {
      value = String(first.dropFirst(name.count + 1))
    } else if let next = following.popFirst(), !next.hasPrefix("-") {
      value = next
    } else {
      throw parsed.usage("missing value for \(option.synopsis)")
    }
    if let extra = following.first {
      throw extra.hasPrefix("-")
        ? parsed.usage("unknown option '\(optionName(extra))'")
        : parsed.usage("unexpected argument '\(extra)'")
    }
    guard !value.isEmpty else { throw parsed.usage("missing value for \(option.synopsis)") }
    if option == ManualPages.option { return .manualPages(directory: value) }
    guard let shell = CompletionScript.Shell(rawValue: value) else {
      throw parsed.usage("\(option.synopsis) must be bash, zsh or fish")
    }
    return .completionScript(shell)
  }

  private static func parseOptions(_ arguments: ArraySlice<String>, of node: CommandNode)
    throws(CLIError) -> ParsedArguments
  {
    let command = node.command
    var parsed = ParsedArguments(commandPath: node.commandPath)
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
      guard let option = command.definition.options.first(where: { $0.isNamed(name) }) else {
        // Only the name: whatever follows '=' could be a secret typed in the wrong place.
        throw parsed.usage(
          "unknown option '--\(name)'"
            + hint(
              forUnknown: name, command.definition.options, secrets: node.tool.secretOptions))
      }
      if let earlier = parsed.spellings[option.name] {
        guard earlier != name else {
          let given = option.valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
          throw parsed.usage("\(given) was given more than once")
        }
        let what = option.valueName == "dir" ? "directory" : "option"
        throw parsed.usage(
          "--\(option.name) and --\(earlier == option.name ? name : earlier) name the same "
            + "\(what): give one")
      }
      parsed.spellings[option.name] = name
      // Stored under the option's own name, whichever alias gave it.
      if option.valueName == nil {
        guard inlineValue == nil else { throw parsed.usage("--\(name) does not take a value") }
        parsed.flags.insert(option.name)
      } else if let inlineValue {
        parsed.values[option.name] = try Self.path(inlineValue, of: option, given: name, parsed)
      } else if let next = rest.first, !next.hasPrefix("--") {
        parsed.values[option.name] = try Self.path(next, of: option, given: name, parsed)
        rest = rest.dropFirst()
      } else {
        throw parsed.usage("missing value for \(option.synopsis)")
      }
    }
    if let argument = command.definition.argument {
      guard let first = positionals.first else {
        throw parsed.usage("missing <\(argument.valueName ?? argument.name)>")
      }
      parsed.values[argument.name] = first
      positionals.removeFirst()
    }
    if !positionals.isEmpty { throw unexpected(positionals, command: node, parsed: parsed) }
    return parsed
  }

  /// `value` unchanged, unless it is a path (`<path>`, `<file>`, `<dir>`) that begins with a
  /// '~' the shell left alone (after '=', or quoted): then freedom-keys would make a directory
  /// named '~' where the user meant their home.
  private static func path(
    _ value: String, of option: Option, given name: String, _ parsed: ParsedArguments
  ) throws(CLIError) -> String {
    guard ["path", "file", "dir"].contains(option.valueName), value.hasPrefix("~") else {
      return value
    }
    let user = value.dropFirst().prefix { $0 != "/" }
    let home = user.isEmpty ? "$HOME" + value.dropFirst() : "the full path of \(user)'s home"
    throw parsed.usage(
      "--\(name) '\(value)' begins with '~', which the shell did not expand (it does not after "
        + "'=' or in quotes): write \(home), or ./\(value) for a directory named "
        + "'~\(user)'")
  }

  /// What to say after "unknown option '--name'": a secret's option (`--mnemonic`) points to
  /// the file option that reads it; a near miss (`--data-dri`) names the nearest option.
  private static func hint(forUnknown name: String, _ options: [Option], secrets: Set<String>)
    -> String
  {
    if secrets.contains(name), let file = options.first(where: { $0.isNamed(name + "-file") }) {
      return
        ": a secret is never taken on the command line (it would land in shell history and "
        + "`ps`); put it in a file and pass --\(file.name) PATH, or pipe it with --\(file.name) -"
    }
    return didYouMean(name, among: options.flatMap { [$0.name] + $0.aliases }, prefix: "--")
  }

  /// ": did you mean 'x'?" naming the nearest of `names` to `typed`, as recover's word hints
  /// rank them: a small edit distance, or the start of a longer name (`--bee` for
  /// `--bee-dir`); "" when none is near.
  private static func didYouMean(_ typed: String, among names: [String], prefix: String = "")
    -> String
  {
    let letters = Array(typed.lowercased())
    let limit = letters.count <= 4 ? 1 : 2
    let ranked = names.map { name in
      let distance = editDistance(letters, Array(name), limit: limit)
      let extends = letters.count >= 3 && name.hasPrefix(String(letters) + "-")
      return (name: name, distance: extends ? min(distance, 1) : distance)
    }
    guard let best = ranked.map(\.distance).min(), best <= limit else { return "" }
    let nearest = ranked.filter { $0.distance == best }.map { "'\(prefix)\($0.name)'" }
    return ": did you mean \(nearest.joined(separator: " or "))?"
  }

  /// The error for arguments no option claimed. Never echoes them where they may be a mnemonic.
  private static func unexpected(
    _ positionals: [String], command node: CommandNode, parsed: ParsedArguments
  ) -> CLIError {
    let subcommands = node.definition.subcommands.map { $0.definition.name }
    // One word near a subcommand is a mistyped command (`recover colect`), never a mnemonic.
    let nearMiss =
      positionals.count == 1 ? didYouMean(positionals[0], among: subcommands) : ""
    if let secret = node.tool.positionalSecret, node.tool.readsPositionalSecret(node.command),
      nearMiss.isEmpty
    {
      return parsed.usage(
        "the \(secret) is never accepted on the command line (it would land in shell history and "
          + "`ps`): put it in a file and pass --\(secret)-file PATH, or pipe it with "
          + "--\(secret)-file -")
    }
    if !subcommands.isEmpty {
      // One word is a mistyped command; several could be a mnemonic, so they are not repeated.
      guard positionals.count == 1 else { return parsed.usage("unknown command") }
      return parsed.usage("unknown command '\(positionals[0])'" + nearMiss)
    }
    return parsed.usage("unexpected argument '\(positionals[0])'")
  }
}

extension ArgumentReader {
  /// The optimal-string-alignment distance of two option or command names (an exchange of
  /// neighbours is one edit), or `limit + 1` when it is more than `limit`. Names are short, so
  /// the whole table is filled.
  static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in stride(from: 1, through: a.count, by: 1) {
      for j in stride(from: 1, through: b.count, by: 1) {
        let substitution = table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return min(table[a.count][b.count], limit + 1)
  }
}

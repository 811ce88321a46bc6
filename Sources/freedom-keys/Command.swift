/// What a shell offers when completing an option's value.
enum ValueCompletion: Sendable, Hashable {
  /// Free text (a number, a hex string): nothing to offer.
  case none
  /// A file name.
  case file
  /// A directory name.
  case directory
  /// One of these words.
  case choices([String])

  /// The default for a value placeholder: `<path>` and `<file>` are files, `<dir>` directories.
  static func inferred(from valueName: String) -> ValueCompletion {
    switch valueName {
    case "path", "file": .file
    case "dir": .directory
    default: .none
    }
  }
}

/// One option a command understands: a flag (`--json`) or an option with a value
/// (`--wallets N`, also written `--wallets=N`).
struct Option: Sendable, Hashable {
  /// The long name without the leading dashes.
  let name: String
  /// The placeholder shown in help (`<path>`); nil for a flag.
  let valueName: String?
  /// One line for the help text.
  let help: String
  /// What shell completion offers for the value.
  var completion: ValueCompletion = .none
  /// Other names it is also given by (`--user-data` for `--freedom-dir`); giving two of them
  /// is a usage error, and help lists each as "The same as --name.".
  var aliases: [String] = []

  /// A flag: present or absent.
  static func flag(_ name: String, help: String) -> Option {
    Option(name: name, valueName: nil, help: help)
  }

  /// An option that takes one value; completion offers files for `<path>` and `<file>`,
  /// directories for `<dir>`, `choices` when given, else nothing.
  static func value(
    _ name: String, _ valueName: String, help: String, choices: [String]? = nil
  ) -> Option {
    Option(
      name: name, valueName: valueName, help: help,
      completion: choices.map(ValueCompletion.choices) ?? .inferred(from: valueName))
  }

  /// The option, also given by each of `names`.
  func aliased(_ names: String...) -> Option {
    var option = self
    option.aliases += names
    return option
  }

  /// The rows help, man pages and completion list: the option, then each alias.
  var listed: [Option] {
    [self]
      + aliases.map {
        Option(
          name: $0, valueName: valueName, help: "The same as --\(name).", completion: completion)
      }
  }

  /// Whether `--spelling` gives this option.
  func isNamed(_ spelling: String) -> Bool { name == spelling || aliases.contains(spelling) }

  /// `--name` or `--name <value>`, as help and messages show it.
  var synopsis: String {
    valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
  }
}

/// An option whose value is read as a `Value`: declared once with its name, help and parser, so
/// every command that takes it reads and refuses it the same way (`arguments.value(option)`,
/// `arguments.required(option)`).
struct TypedOption<Value>: Sendable {
  /// The option as help, completion and the parser see it.
  let option: Option
  /// The value of the text given, or nil when it is not one.
  let parse: @Sendable (String) -> Value?
  /// What the value must be, for the usage error: "must be zero or derived".
  let requirement: String

  /// One of `choices` (word and value), which completion offers.
  static func choice(
    _ name: String, _ valueName: String, help: String, _ choices: [(String, Value)]
  ) -> TypedOption where Value: Sendable {
    let words = choices.map(\.0)
    return TypedOption(
      option: .value(name, valueName, help: help, choices: words),
      parse: { text in choices.first { $0.0 == text }?.1 },
      requirement: "must be " + Self.list(words))
  }

  /// A whole number in `range`: digits only, no sign, no spaces, no "0x".
  static func integer(
    _ name: String, _ valueName: String, help: String, in range: ClosedRange<Value>
  ) -> TypedOption where Value: FixedWidthInteger & Sendable {
    TypedOption(
      option: .value(name, valueName, help: help),
      parse: { text in
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
          let number = Value(text, radix: 10), range.contains(number)
        else { return nil }
        return number
      },
      requirement: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
  }

  /// "a", "a or b", "a, b or c".
  static func list(_ words: [String]) -> String {
    words.count < 2
      ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
  }
}

/// What a command is called, what it does and which options it takes.
struct CommandConfiguration {
  /// The word that selects the command (`derive`).
  let name: String
  /// One line for the help text and the parent's list of subcommands.
  let abstract: String
  /// Paragraphs printed after the options in the command's help.
  var discussion: String = ""
  /// The options, in the order help lists them.
  var options: [Option] = []
  /// A single positional argument the command requires (`<file>`), read like an option
  /// through `ParsedArguments.value(_:)`; nil for commands that take none.
  var argument: Option? = nil
  /// The commands below this one; a command with subcommands is a group and has no `run()` of its own.
  var subcommands: [any ParsableCommand.Type] = []
  /// What follows the command's words in its synopsis, when the default (`[<options>]`, the
  /// argument, or `<subcommand>`) does not say it.
  var usage: String? = nil
  /// Whether the command runs itself when no subcommand word follows (`recover` searches,
  /// `recover collect` merges); a group without it is a usage error then.
  var runsWithoutSubcommand = false
}

/// Something the command line asks to be done: a command, or one of the tool's own actions
/// (writing man pages, printing a completion script).
protocol Runnable {
  /// Does the work; output goes to standard output, problems are thrown.
  func run() throws
}

/// A command in the shape of swift-argument-parser: a configuration, an initialiser that reads
/// the parsed options (usage errors only), and `run()`. Help, man pages and shell completions
/// are all derived from `configuration`, so a command declared here appears in each of them.
protocol ParsableCommand: Runnable {
  static var configuration: CommandConfiguration { get }
  /// Reads and checks this command's options; throws only usage errors.
  init(_ arguments: ParsedArguments) throws(CLIError)
}

extension ParsableCommand {
  /// Commands read the arguments they need and leave positional ones alone unless they declare them.
  static var readsMnemonic: Bool {
    configuration.options.contains(MnemonicOptions.mnemonicFile)
  }
}

/// One command of the tree with the words that select it (`["export", "bee"]`).
struct CommandNode {
  let command: any ParsableCommand.Type
  /// The subcommand words after the tool's name; empty for the tool itself.
  let words: [String]

  var configuration: CommandConfiguration { command.configuration }
  var isRoot: Bool { words.isEmpty }
  var isGroup: Bool { !configuration.subcommands.isEmpty }
  var isHelp: Bool { ObjectIdentifier(command) == ObjectIdentifier(HelpCommand.self) }
  /// `freedom-keys export bee`.
  var commandPath: String { ([FreedomKeys.configuration.name] + words).joined(separator: " ") }
  /// `freedom-keys-export-bee`, the man page's name.
  var pageName: String { ([FreedomKeys.configuration.name] + words).joined(separator: "-") }

  /// The options help lists for this command, `--help` (and `--version` at the top) included.
  var listedOptions: [Option] {
    configuration.options.flatMap(\.listed) + (isRoot ? [HelpText.versionOption] : [])
      + [HelpText.helpOption]
  }

  /// What follows the command path in USAGE and SYNOPSIS.
  var synopsis: String {
    if let usage = configuration.usage { return usage }
    if isGroup { return "<subcommand>" }
    return "[<options>]" + (configuration.argument.map { " <\($0.valueName ?? $0.name)>" } ?? "")
  }

  var children: [CommandNode] {
    configuration.subcommands.map {
      CommandNode(command: $0, words: words + [$0.configuration.name])
    }
  }

  /// This command and every command below it, parents before children.
  var tree: [CommandNode] { [self] + children.flatMap(\.tree) }

  /// The tool's whole command tree.
  static var root: CommandNode { CommandNode(command: FreedomKeys.self, words: []) }
}

/// One option a command understands: a flag (`--json`) or an option with a value
/// (`--wallets N`, also written `--wallets=N`).
struct Option: Sendable, Hashable {
  /// The long name without the leading dashes.
  let name: String
  /// The placeholder shown in help (`<path>`); nil for a flag.
  let valueName: String?
  /// One line for the help text.
  let help: String

  /// A flag: present or absent.
  static func flag(_ name: String, help: String) -> Option {
    Option(name: name, valueName: nil, help: help)
  }

  /// An option that takes one value.
  static func value(_ name: String, _ valueName: String, help: String) -> Option {
    Option(name: name, valueName: valueName, help: help)
  }

  /// `--name` or `--name <value>`, as help and messages show it.
  var synopsis: String {
    valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
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
}

/// A command in the shape of swift-argument-parser: a configuration, an initialiser that reads
/// the parsed options (usage errors only), and `run()`.
protocol ParsableCommand {
  static var configuration: CommandConfiguration { get }
  /// Reads and checks this command's options; throws only usage errors.
  init(_ arguments: ParsedArguments) throws(CLIError)
  /// Does the work; output goes to standard output, problems are thrown.
  func run() throws
}

extension ParsableCommand {
  /// Commands read the arguments they need and leave positional ones alone unless they declare them.
  static var readsMnemonic: Bool {
    configuration.options.contains(MnemonicOptions.mnemonicFile)
  }
}

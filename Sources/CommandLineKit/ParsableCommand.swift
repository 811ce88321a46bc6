/// What a command is called, what it does and which options it takes.
public struct CommandConfiguration {
  /// The word that selects the command (`derive`).
  public let name: String
  /// One line for the help text and the parent's list of subcommands.
  public let abstract: String
  /// Paragraphs printed after the options in the command's help.
  public var discussion: String
  /// The options, in the order help lists them.
  public var options: [Option]
  /// A single positional argument the command requires (`<file>`), read like an option
  /// through `ParsedArguments.value(_:)`; nil for commands that take none.
  public var argument: Option?
  /// The commands below this one; a command with subcommands is a group and has no `run()` of
  /// its own.
  public var subcommands: [any ParsableCommand.Type]
  /// What follows the command's words in its synopsis, when the default (`[<options>]`, the
  /// argument, or `<subcommand>`) does not say it.
  public var usage: String?
  /// Whether the command runs itself when no subcommand word follows (`recover` searches,
  /// `recover collect` merges); a group without it is a usage error then.
  public var runsWithoutSubcommand: Bool

  public init(
    name: String, abstract: String, discussion: String = "", options: [Option] = [],
    argument: Option? = nil, subcommands: [any ParsableCommand.Type] = [],
    usage: String? = nil, runsWithoutSubcommand: Bool = false
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.options = options
    self.argument = argument
    self.subcommands = subcommands
    self.usage = usage
    self.runsWithoutSubcommand = runsWithoutSubcommand
  }
}

/// Something the command line asks to be done.
public protocol Runnable {
  /// Does the work; output goes to standard output, problems are thrown.
  func run() throws
}

/// A command in the shape of swift-argument-parser: a configuration, an initialiser that reads
/// the parsed options (usage errors only), and `run()`. Help, man pages and shell completions
/// are all derived from `configuration`, so a command declared here appears in each of them.
public protocol ParsableCommand: Runnable {
  static var configuration: CommandConfiguration { get }
  /// Reads and checks this command's options; throws only usage errors.
  init(_ arguments: ParsedArguments) throws(CLIError)
}

/// A tool built of commands: its root command (whose name is the tool's), its version, and the
/// rules the parser applies across commands.
public struct CommandLineTool {
  /// The tool itself: a group whose subcommands do the work.
  public let root: any ParsableCommand.Type
  /// What `--version` prints after the tool's name, and man pages show.
  public let version: String
  /// The `help` subcommand (`tool help export bee`), resolved by the parser itself; nil when
  /// the tool has none.
  public var help: (any ParsableCommand.Type)?
  /// Options whose value is a secret, never taken on the command line: `--password` is
  /// refused pointing at the command's `--password-file`.
  public var secretOptions: Set<String>
  /// A secret that arguments could be (`mnemonic`): a command with its `--<secret>-file`
  /// option refuses positional arguments without repeating them.
  public var positionalSecret: String?
  /// The man pages' EXIT STATUS section, in roff.
  public var exitStatus: String

  public init(
    root: any ParsableCommand.Type, version: String, help: (any ParsableCommand.Type)? = nil,
    secretOptions: Set<String> = [], positionalSecret: String? = nil, exitStatus: String = ""
  ) {
    self.root = root
    self.version = version
    self.help = help
    self.secretOptions = secretOptions
    self.positionalSecret = positionalSecret
    self.exitStatus = exitStatus
  }

  /// The tool's name: its root command's.
  public var name: String { root.configuration.name }

  /// The tool's whole command tree.
  public var rootNode: CommandNode { CommandNode(tool: self, command: root, words: []) }

  /// Whether `command` takes the file option of the positional secret, and so refuses
  /// positional arguments as that secret.
  func readsPositionalSecret(_ command: any ParsableCommand.Type) -> Bool {
    guard let secret = positionalSecret else { return false }
    return command.configuration.options.contains { $0.name == secret + "-file" }
  }
}

/// One command of the tree with the words that select it (`["export", "bee"]`).
public struct CommandNode {
  public let tool: CommandLineTool
  public let command: any ParsableCommand.Type
  /// The subcommand words after the tool's name; empty for the tool itself.
  public let words: [String]

  public var configuration: CommandConfiguration { command.configuration }
  public var isRoot: Bool { words.isEmpty }
  public var isGroup: Bool { !configuration.subcommands.isEmpty }
  public var isHelp: Bool {
    tool.help.map { ObjectIdentifier(command) == ObjectIdentifier($0) } ?? false
  }
  /// `freedom-keys export bee`.
  public var commandPath: String { ([tool.name] + words).joined(separator: " ") }
  /// `freedom-keys-export-bee`, the man page's name.
  public var pageName: String { ([tool.name] + words).joined(separator: "-") }

  /// The options help lists for this command, `--help` (and `--version` at the top) included.
  public var listedOptions: [Option] {
    configuration.options.flatMap(\.listed) + (isRoot ? [HelpText.versionOption] : [])
      + [HelpText.helpOption]
  }

  /// What follows the command path in USAGE and SYNOPSIS.
  public var synopsis: String {
    if let usage = configuration.usage { return usage }
    if isGroup { return "<subcommand>" }
    return "[<options>]" + (configuration.argument.map { " <\($0.valueName ?? $0.name)>" } ?? "")
  }

  public var children: [CommandNode] {
    configuration.subcommands.map {
      CommandNode(tool: tool, command: $0, words: words + [$0.configuration.name])
    }
  }

  /// This command and every command below it, parents before children.
  public var tree: [CommandNode] { [self] + children.flatMap(\.tree) }
}

/// What a command is called, what it does and which options it takes.
package struct CommandDefinition {
  /// The word that selects the command (`derive`).
  package let name: String
  /// One line for the help text and the parent's list of subcommands.
  package let abstract: String
  /// Paragraphs printed after the options in the command's help.
  package var discussion: String
  /// The options, in the order help lists them.
  package var options: [Option]
  /// A single positional argument the command requires (`<file>`), read like an option
  /// through `ParsedArguments.value(_:)`; nil for commands that take none.
  package var argument: Option?
  /// The commands below this one; a command with subcommands is a group and has no `run()` of
  /// its own.
  package var subcommands: [any Command.Type]
  /// What follows the command's words in its synopsis, when the default (`[<options>]`, the
  /// argument, or `<subcommand>`) does not say it.
  package var usage: String?
  /// Whether the command runs itself when no subcommand word follows (`recover` searches,
  /// `recover collect` merges); a group without it is a usage error then.
  package var runsWithoutSubcommand: Bool

  package init(
    name: String, abstract: String, discussion: String = "", options: [Option] = [],
    argument: Option? = nil, subcommands: [any Command.Type] = [],
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
package protocol Runnable {
  /// Does the work; output goes to standard output, problems are thrown.
  func run() throws
}

/// A command in the shape of swift-argument-parser: a definition, an initialiser that reads
/// the parsed options (usage errors only), and `run()`. Help, man pages and shell completions
/// are all derived from `definition`, so a command declared here appears in each of them.
package protocol Command: Runnable {
  static var definition: CommandDefinition { get }
  /// Reads and checks this command's options; throws only usage errors.
  init(_ arguments: ParsedArguments) throws(CLIError)
}

/// A tool built of commands: its root command (whose name is the tool's), its version, and the
/// rules the parser applies across commands.
package struct CommandLineTool {
  /// The tool itself: a group whose subcommands do the work.
  package let root: any Command.Type
  /// What `--version` prints after the tool's name, and man pages show.
  package let version: String
  /// The `help` subcommand (`tool help export bee`), resolved by the parser itself; nil when
  /// the tool has none.
  package var help: (any Command.Type)?
  /// Options whose value is a secret, never taken on the command line: `--password` is
  /// refused pointing at the command's `--password-file`.
  package var secretOptions: Set<String>
  /// A secret that arguments could be (`mnemonic`): a command with its `--<secret>-file`
  /// option refuses positional arguments without repeating them.
  package var positionalSecret: String?
  /// The man pages' EXIT STATUS section, in roff.
  package var exitStatus: String

  package init(
    root: any Command.Type, version: String, help: (any Command.Type)? = nil,
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
  package var name: String { root.definition.name }

  /// The tool's whole command tree.
  package var rootNode: CommandNode { CommandNode(tool: self, command: root, words: []) }

  /// Whether `command` takes the file option of the positional secret, and so refuses
  /// positional arguments as that secret.
  func readsPositionalSecret(_ command: any Command.Type) -> Bool {
    guard let secret = positionalSecret else { return false }
    return command.definition.options.contains { $0.name == secret + "-file" }
  }
}

/// One command of the tree with the words that select it (`["export", "bee"]`).
package struct CommandNode {
  package let tool: CommandLineTool
  package let command: any Command.Type
  /// The subcommand words after the tool's name; empty for the tool itself.
  package let words: [String]

  package var definition: CommandDefinition { command.definition }
  package var isRoot: Bool { words.isEmpty }
  package var isGroup: Bool { !definition.subcommands.isEmpty }
  package var isHelp: Bool {
    tool.help.map { ObjectIdentifier(command) == ObjectIdentifier($0) } ?? false
  }
  /// `freedom-keys export bee`.
  package var commandPath: String { ([tool.name] + words).joined(separator: " ") }
  /// `freedom-keys-export-bee`, the man page's name.
  package var pageName: String { ([tool.name] + words).joined(separator: "-") }

  /// The options help lists for this command, `--help` (and `--version` at the top) included.
  package var listedOptions: [Option] {
    definition.options.flatMap(\.listed) + (isRoot ? [HelpText.versionOption] : [])
      + [HelpText.helpOption]
  }

  /// What follows the command path in USAGE and SYNOPSIS.
  package var synopsis: String {
    if let usage = definition.usage { return usage }
    if isGroup { return "<subcommand>" }
    return "[<options>]" + (definition.argument.map { " <\($0.valueName ?? $0.name)>" } ?? "")
  }

  package var children: [CommandNode] {
    definition.subcommands.map {
      CommandNode(tool: tool, command: $0, words: words + [$0.definition.name])
    }
  }

  /// This command and every command below it, parents before children.
  package var tree: [CommandNode] { [self] + children.flatMap(\.tree) }
}

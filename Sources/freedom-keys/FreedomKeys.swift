import CommandLineKit

/// The `freedom-keys` tool: a group whose subcommands do the work.
struct FreedomKeys: Command {
  static let version = "0.1.0"

  /// The tool as the command-line framework sees it: this tree, and the rules across commands.
  static var tool: CommandLineTool {
    CommandLineTool(
      root: FreedomKeys.self, version: version, help: HelpCommand.self,
      // The secrets read from a `--<name>-file`, never from an option's value.
      secretOptions: ["mnemonic", "passphrase", "password", "vault-password"],
      positionalSecret: "mnemonic",
      exitStatus: """
        0 on success; 1 when the input is bad or an operation fails (an invalid mnemonic, an \
        unreadable file, a wrong password); 2 for a usage error (nothing is read or written); 3 \
        when an export\\(aqs \\-\\-dry\\-run would refuse (it changes nothing), or when
        .B verify
        finds a mismatch; 4 when
        .B recover
        has tried every candidate and none matched; 130 when interrupted (Ctrl-C or SIGINT). \
        Errors are one line on standard error and never contain a secret.
        """)
  }

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "freedom-keys",
      abstract: "Derive the Freedom browser's node identities from one BIP-39 mnemonic.",
      // One entry per command; each type carries its own name, options and help, from which
      // the help text, the man pages and the shell completions are all made.
      subcommands: [
        DeriveCommand.self,
        MnemonicCommand.self,
        ExportCommand.self,
        VerifyCommand.self,
        UndoCommand.self,
        RecoverCommand.self,
        KeystoreCommand.self,
        HelpCommand.self,
      ])
  }

  init(_ arguments: ParsedArguments) {}

  func run() {}
}

/// `freedom-keys help [command …]`: the same text as `freedom-keys [command …] --help`.
/// The parser resolves the words itself; this type gives the command its place in the tree.
struct HelpCommand: Command {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "help",
      abstract: "Show the help of a command ('help export bee').",
      discussion: """
        'freedom-keys help' alone shows the tool's help; 'freedom-keys help export bee'
        the same text as 'freedom-keys export bee --help'.
        """,
      usage: "[<command> ...]")
  }

  init(_ arguments: ParsedArguments) {}

  func run() {}
}

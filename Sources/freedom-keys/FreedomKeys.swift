/// The `freedom-keys` tool: a group whose subcommands do the work.
struct FreedomKeys: ParsableCommand {
  static let version = "0.1.0"

  static var configuration: CommandConfiguration {
    CommandConfiguration(
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
struct HelpCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
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

import CommandLineKit

/// `freedom-keys export`: writes one node's key files from the mnemonic.
struct ExportCommand: Command {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "export",
      abstract: "Write the key files of bee, kubo, Ant, antd, Radicle or Freedom.",
      subcommands: [
        ExportBeeCommand.self, ExportKuboCommand.self, ExportAntCommand.self,
        ExportRadicleCommand.self, ExportAntdCommand.self, ExportFreedomCommand.self,
      ])
  }

  init(_ arguments: ParsedArguments) {}

  func run() {}

  /// The paragraph every export's help ends with.
  static let inputHelp = """
    The mnemonic is read as by 'derive' (--mnemonic-file PATH or -, --vault-file,
    else a hidden prompt), never from the command line. Everything is read and
    checked before anything is written; files are written atomically (temporary
    file, fsync, rename). A file that already holds the mnemonic's identity is left
    alone; one that holds another identity is replaced only with --force, and
    what it replaces or removes is kept in <dir>/.freedom-keys.replaced/<UTC time>-
    <old identity>/, never deleted (the report names it; delete it yourself, or
    put it back with 'freedom-keys undo <dir>').
    """
}

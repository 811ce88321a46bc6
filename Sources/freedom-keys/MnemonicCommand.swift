import CommandLineKit

/// `freedom-keys mnemonic`: create a new mnemonic or check one typed from paper.
struct MnemonicCommand: Command {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "mnemonic",
      abstract: "Generate a new mnemonic or check one before using it.",
      subcommands: [MnemonicGenerateCommand.self, MnemonicCheckCommand.self])
  }

  init(_ arguments: ParsedArguments) {}

  func run() {}
}

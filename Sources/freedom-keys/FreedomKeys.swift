/// The `freedom-keys` tool: a group whose subcommands do the work.
struct FreedomKeys: ParsableCommand {
  static let version = "0.1.0"

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "freedom-keys",
      abstract: "Derive the Freedom browser's node identities from one BIP-39 mnemonic.",
      // One entry per command; each type carries its own name, options and help.
      subcommands: [
        DeriveCommand.self,
        MnemonicCommand.self,
        ExportCommand.self,
        VerifyCommand.self,
        RecoverCommand.self,
        KeystoreCommand.self,
      ])
  }

  init(_ arguments: ParsedArguments) {}

  func run() {}
}

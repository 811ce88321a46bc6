import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys export radicle`: the Radicle key pair, and optionally the node alias
/// (`Radicle`).
struct ExportRadicleCommand: Command {
  static let home = Option.value("home", "dir", help: "The Radicle home (RAD_HOME, ~/.radicle).")
  static let alias = SharedOptions.radicleAlias(
    help: "Set node.alias in \(Radicle.configFile); key comment.")

  /// The key comment when no alias is given.
  static let defaultComment = "freedom-keys"

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "radicle",
      abstract: "Write Radicle's keys for the key m/44'/73404'/0'/0'/0'.",
      discussion: """
        \(Radicle.privateKeyFile) is an unencrypted OpenSSH Ed25519 private key (mode 0600) that
        Radicle's ssh-key parser accepts and that is the same bytes on every export;
        \(Radicle.publicKeyFile) is its 'ssh-ed25519 AAAA… comment' line (mode 0644). The
        comment is the alias, or 'freedom-keys'. --alias must be 1 to 32 bytes without
        whitespace or control characters; only node.alias of \(Radicle.configFile) changes, or
        the file is created with just the alias.
        """ + "\n\n" + ExportCommand.inputHelp + "\n\n" + ExportOptions.discussion,
      options: MnemonicOptions.all + [home, alias]
        + ExportOptions.options(force: "Replace another identity's key."))
  }

  let input: MnemonicOptions
  let directory: String
  let alias: String?
  let export: ExportOptions

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    directory = try arguments.required(Self.home)
    alias = arguments.value(Self.alias)
    if let alias, let problem = RadicleConfig.aliasProblem(alias) {
      throw arguments.usage("invalid --alias: \(problem)")
    }
    export = ExportOptions(arguments)
  }

  func run() throws {
    let identity = try input.readProfile().radicle
    let comment = alias ?? Self.defaultComment
    let radicle = Radicle(home: directory)
    let inputs = Radicle.ExportInputs(identity: identity, alias: alias, comment: comment)
    try ExportFlow(export).run(
      radicle, inputs, target: directory,
      json: { _ in ["sshFingerprint": .string(identity.radicle.sshFingerprint)] },
      report: { outcome in
        radicle.report(outcome, identity: identity, alias: alias)
      })
  }
}

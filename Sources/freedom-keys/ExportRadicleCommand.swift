import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys export radicle`: the Radicle key pair, and optionally the node alias
/// (`Radicle`).
struct ExportRadicleCommand: ParsableCommand {
  static let home = Option.value("home", "dir", help: "The Radicle home (RAD_HOME, ~/.radicle).")
  static let alias = Option.value(
    "alias", "name", help: "Set node.alias in \(Radicle.configFile); key comment.")

  /// The key comment when no alias is given.
  static let defaultComment = "freedom-keys"

  static var configuration: CommandConfiguration {
    CommandConfiguration(
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
  let commandPath: String

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    directory = try arguments.required(Self.home)
    alias = arguments.value(Self.alias)
    if let alias, let problem = RadicleConfig.aliasProblem(alias) {
      throw arguments.usage("invalid --alias: \(problem)")
    }
    export = ExportOptions(arguments)
    commandPath = arguments.commandPath
  }

  func run() throws {
    let (_, seed) = try input.readSeed()
    let identity = try FreedomProfile(seed: seed).radicle
    let comment = alias ?? Self.defaultComment
    let radicle = Radicle(home: directory)
    let inputs = Radicle.ExportInputs(identity: identity, alias: alias, comment: comment)
    if export.dryRun {
      return try ExportText.dryRun(commandPath, target: directory, json: export.json) {
        () throws(NodeError) in
        ExportText.Plan(
          try NodeSession.dryRun(radicle, inputs, consent: export.consent, events: NodeText.show),
          target: directory)
      }
    }
    let outcome = try NodeText.run(.export) {
      try NodeSession.export(radicle, inputs, consent: export.consent, events: NodeText.show)
    }
    if export.json {
      return ExportText.printResult(
        outcome, commandPath, target: directory,
        extra: ["sshFingerprint": .string(identity.radicle.sshFingerprint)])
    }
    let plan = outcome.plan
    let expected = plan.expected
    var text = ""
    if plan.privateKey == .keep {
      text += NodeText.unchanged(radicle.privateKeyPath, "the Radicle key \(expected)")
    }
    if plan.publicKey == .keep {
      text += NodeText.unchanged(radicle.publicKeyPath, "its public key")
    }
    if plan.config == .keep { text += NodeText.unchanged(radicle.configPath, "the alias") }
    if plan.privateKey != .keep {
      text += "Wrote \(radicle.privateKeyPath): the Radicle key \(expected) (mode 0600)\n"
    }
    if plan.publicKey != .keep {
      text += "Wrote \(radicle.publicKeyPath): its public key (mode 0644)\n"
    }
    if let config = plan.config, config != .keep, let alias {
      text += "Set node.alias to \(JSONValue.quoted(alias)) in \(radicle.configPath)\n"
    }
    text += NodeText.keptAsideLines(outcome.keptAside)
    text += "SSH fingerprint: \(identity.radicle.sshFingerprint)\n"
    if plan.privateKey != .keep { text += "Check it with: RAD_HOME=\(directory) rad self\n" }
    Output.standardOutput(text)
  }
}

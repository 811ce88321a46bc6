import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys export ant`: the Swarm key as Ant's identity file (`Ant`).
struct ExportAntCommand: Command {
  static let dataDir = SharedOptions.dataDir(help: "Ant's data directory.")
  static let nonce = TypedOption<AntIdentity.NonceRule>.choice(
    "nonce", "rule", help: "Overlay nonce: zero (iOS, default) or derived.",
    [("zero", .zero), ("derived", .derivedFromKey)])

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "ant",
      abstract: "Write Ant's \(Ant.identityFile) for the Swarm key m/44'/60'/0'/0/1.",
      discussion: """
        <dir>/\(Ant.identityFile) holds the Swarm signing key (hex) and an overlay nonce;
        mode 0600, <dir> 0700 if created. --nonce zero (the default) writes an all-zero
        nonce, byte for byte as Freedom's iOS app writes it, so Ant has the same overlay
        address as bee and desktop Freedom. --nonce derived writes
        keccak256("ant-ffi/overlay-nonce/v1" ‖ address), the nonce Ant's library gives
        an identity it restores from the key (ant_identity_from_key): use it to keep
        the overlay of a node restored that way. A file with the same key that antd
        would refuse (a 0x prefix) is rewritten; one with the other rule's nonce (its
        overlay differs), any other nonce or another libp2p_keypair only with --force.
        """ + "\n\n" + ExportCommand.inputHelp + "\n\n" + ExportOptions.discussion,
      options: MnemonicOptions.all + [dataDir, nonce.option]
        + ExportOptions.options(force: "Replace another identity's key."))
  }

  let input: MnemonicOptions
  let directory: String
  let nonceRule: AntIdentity.NonceRule
  let export: ExportOptions

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    directory = try arguments.required(Self.dataDir)
    nonceRule = try arguments.value(Self.nonce) ?? .zero
    export = ExportOptions(arguments)
  }

  func run() throws {
    let profile = try input.readProfile()
    let ant = Ant(directory: directory, nonce: nonceRule)
    var flow = ExportFlow(export)
    flow.antNonce = nonceRule
    try flow.run(
      ant, profile, target: directory,
      json: ant.json, report: { ant.report($0, profile: profile) })
  }
}

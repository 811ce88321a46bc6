import FreedomNodes
import VaultKeys

/// `freedom-keys export ant`: the Swarm key as Ant's identity file (`Ant`).
struct ExportAntCommand: ParsableCommand {
  static let dataDir = Option.value("data-dir", "dir", help: "Ant's data directory.")
  static let force = Option.flag("force", help: "Replace another identity's key.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "ant",
      abstract: "Write Ant's \(Ant.identityFile) for the Swarm key m/44'/60'/0'/0/1.",
      discussion: """
        <dir>/\(Ant.identityFile) holds the Swarm signing key (hex) and an all-zero overlay
        nonce, byte for byte as Freedom's iOS app writes it, so Ant has the same overlay
        address as bee and desktop Freedom; mode 0600, <dir> 0700 if created. A file
        with the same key that Ant would refuse (a 0x prefix) is rewritten; one with a
        non-zero nonce or another libp2p_keypair only with --force.
        """ + "\n\n" + ExportCommand.inputHelp,
      options: MnemonicOptions.all + [dataDir, force])
  }

  let input: MnemonicOptions
  let directory: String
  let forced: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    guard let directory = arguments.value(Self.dataDir), !directory.isEmpty else {
      throw arguments.usage("missing --data-dir <dir>")
    }
    self.directory = directory
    forced = arguments.flag(Self.force)
  }

  func run() throws {
    let (_, seed) = try input.readSeed()
    let profile = try FreedomProfile(seed: seed)
    let ant = Ant(directory: directory)
    let outcome = try NodeText.run(.export) {
      try NodeSession.export(
        ant, profile, consent: ExportConsent(replacesOtherIdentities: forced),
        events: NodeText.show)
    }
    let expected = profile.swarm.address.checksummed
    guard outcome.plan.change != nil else {
      Output.standardOutput(NodeText.unchanged(ant.identityPath, "the Swarm key \(expected)"))
      return
    }
    var text = "Wrote \(ant.identityPath): Swarm key \(expected), overlay nonce 0 (mode 0600)\n"
    for repaired in outcome.plan.repairs { text += "Repaired: \(repaired)\n" }
    text += "Overlay on mainnet: \(try profile.swarmOverlay().hex)\n"
    Output.standardOutput(text)
  }
}

import FreedomNodes
import VaultKeys

/// `freedom-keys export ant`: the Swarm key as Ant's identity file (`Ant`).
struct ExportAntCommand: ParsableCommand {
  static let dataDir = Option.value("data-dir", "dir", help: "Ant's data directory.")
  static let nonce = Option.value(
    "nonce", "rule", help: "Overlay nonce: zero (iOS, default) or derived.",
    choices: ["zero", "derived"])
  static let force = Option.flag("force", help: "Replace another identity's key.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
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
        """ + "\n\n" + ExportCommand.inputHelp,
      options: MnemonicOptions.all + [dataDir, nonce, force])
  }

  let input: MnemonicOptions
  let directory: String
  let nonceRule: AntIdentity.NonceRule
  let forced: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    guard let directory = arguments.value(Self.dataDir), !directory.isEmpty else {
      throw arguments.usage("missing --data-dir <dir>")
    }
    self.directory = directory
    switch arguments.value(Self.nonce) {
    case nil, "zero": nonceRule = .zero
    case "derived": nonceRule = .derivedFromKey
    default: throw arguments.usage("--nonce <rule> must be zero or derived")
    }
    forced = arguments.flag(Self.force)
  }

  func run() throws {
    let (_, seed) = try input.readSeed()
    let profile = try FreedomProfile(seed: seed)
    let ant = Ant(directory: directory, nonce: nonceRule)
    let outcome = try NodeText.run(.export) {
      do {
        return try NodeSession.export(
          ant, profile, consent: ExportConsent(replacesOtherIdentities: forced),
          events: NodeText.show)
      } catch NodeError.refused(let conflicts) {
        throw CLIError.failure(NodeText.refusal(conflicts, antNonce: nonceRule))
      }
    }
    let expected = profile.swarm.address.checksummed
    let rule =
      switch nonceRule {
      case .zero: "overlay nonce 0"
      case .derivedFromKey: "the overlay nonce Ant's library derives from the key"
      }
    guard outcome.plan.change != nil else {
      let what =
        nonceRule == .zero ? "the Swarm key \(expected)" : "the Swarm key \(expected) with \(rule)"
      Output.standardOutput(NodeText.unchanged(ant.identityPath, what))
      return
    }
    var text = "Wrote \(ant.identityPath): Swarm key \(expected), \(rule) (mode 0600)\n"
    for repaired in outcome.plan.repairs { text += "Repaired: \(repaired)\n" }
    text += NodeText.keptAsideLines(outcome.keptAside)
    text += "Overlay on mainnet: \(outcome.plan.overlay.hex)"
    text += nonceRule == .zero ? "\n" : " (not the zero-nonce overlay bee and desktop compute)\n"
    Output.standardOutput(text)
  }
}

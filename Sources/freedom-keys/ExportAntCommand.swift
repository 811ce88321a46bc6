import CryptoPrimitives
import NodeFiles
import VaultKeys

/// `freedom-keys export ant`: the Swarm key as Ant's `identity.json`.
struct ExportAntCommand: ParsableCommand {
  static let dataDir = Option.value("data-dir", "dir", help: "Ant's data directory.")
  static let force = Option.flag("force", help: "Replace another identity's key.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "ant",
      abstract: "Write Ant's identity.json for the Swarm key m/44'/60'/0'/0/1.",
      discussion: """
        <dir>/identity.json holds the Swarm signing key (hex) and an all-zero overlay
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
    let identity = try AntIdentity(signingKey: profile.swarm.privateKey)

    try ExportFiles.requireDirectoryOrAbsent(directory)
    try NodeDirectoryAccess.changing(directory, layout: .ant, create: true) { node in
      try export(profile: profile, identity: identity, node: node)
    }
  }

  /// Reads, checks and writes under the directory's lock.
  private func export(profile: FreedomProfile, identity: AntIdentity, node: NodeDirectory) throws {
    let expected = profile.swarm.address.checksummed
    let path = ExportFiles.join(directory, "identity.json")
    let existing = try StoredFile.read(path) { try AntIdentityFile(json: $0) }
    var repairs: [AntIdentityProblem] = []
    switch existing {
    case .absent:
      break
    case .present(let stored)
    where stored.identity.signingKey.rawRepresentation == identity.signingKey.rawRepresentation:
      // The same key: nothing to do unless Ant would refuse the file (rewritten at once: the
      // identity stays) or run it with another overlay or PeerID (only with --force).
      let changes = stored.problems.filter { !$0.antRefusesIt }
      if !changes.isEmpty, !forced {
        throw CLIError.failure(
          "\(path) holds the Swarm key \(expected), but "
            + changes.map(\.description).joined(separator: "; ")
            + "; nothing was written (--force writes the file afresh with a zero nonce and no "
            + "libp2p_keypair)")
      }
      repairs = stored.problems
      if repairs.isEmpty {
        ExportFiles.warnIfShared(path)
        Output.standardOutput(ExportCommand.unchanged(path, "the Swarm key \(expected)"))
        return
      }
    case .present(let stored):
      guard forced else {
        let found = EthereumAddress(publicKey: stored.identity.signingKey.publicKey).checksummed
        throw ExportCommand.refusal(path, holds: "the key of \(found)", expected: expected)
      }
    case .unreadable(let problem):
      guard forced else { throw ExportCommand.refusal(problem) }
    }

    _ = try NodeDirectoryAccess.apply(
      NodeChange(files: [.init("identity.json", SecureBytes(identity.json))]), in: node)
    let overlay = try profile.swarmOverlay()
    var text = "Wrote \(path): Swarm key \(expected), overlay nonce 0 (mode 0600)\n"
    for repaired in repairs { text += "Repaired: \(repaired)\n" }
    text += "Overlay on mainnet: \(overlay.hex)\n"
    Output.standardOutput(text)
  }
}

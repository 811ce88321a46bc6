import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys export kubo`: the IPFS key into a kubo repository's config, or as a key file
/// for `ipfs key import`.
struct ExportKuboCommand: Command {
  static let repo = Option.value(
    "repo", "dir", help: "Set the Identity in <dir>/config (IPFS_PATH).")
  static let keyFile = Option.value(
    "key-file", "path", help: "Write the libp2p private key protobuf to <path>.")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "kubo",
      abstract: "Put the IPFS key m/44'/73405'/0'/0'/0' into a kubo repo.",
      discussion: """
        --repo <dir> edits only Identity.PeerID and Identity.PrivKey of <dir>/config;
        every other byte and the file's mode stay as they were. The repository must
        exist (run 'ipfs init' first) and its daemon must be stopped: a running
        daemon holds <dir>/repo.lock and keeps the old identity in memory.
        --key-file <path> writes the raw PrivateKey protobuf (mode 0600) for
        'ipfs key import NAME <path>'. kubo refuses to import a key named 'self', so
        choose another name; to replace the node's own identity use --repo with the
        daemon stopped. Delete the key file after importing it.
        """ + "\n\n" + ExportCommand.inputHelp + "\n\n" + ExportOptions.discussion,
      options: MnemonicOptions.all + [repo, keyFile]
        + ExportOptions.options(force: "Replace another identity's key."))
  }

  /// Where the key goes.
  enum Target {
    case repository(String)
    case keyFile(String)
  }

  let input: MnemonicOptions
  let target: Target
  let export: ExportOptions

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    switch (arguments.value(Self.repo), arguments.value(Self.keyFile)) {
    case (let repository?, nil) where !repository.isEmpty: target = .repository(repository)
    case (nil, let path?) where !path.isEmpty: target = .keyFile(path)
    case (nil, nil): throw arguments.usage("give --repo <dir> or --key-file <path>")
    case (.some, .some): throw arguments.usage("--repo and --key-file cannot be combined")
    default: throw arguments.usage("the path given to --repo or --key-file is empty")
    }
    export = ExportOptions(arguments)
  }

  func run() throws {
    let profile = try input.readProfile()
    let identity = profile.ipfs
    switch target {
    case .repository(let repository): try exportIntoRepository(repository, profile: profile)
    case .keyFile(let path): try exportKeyFile(path, identity: identity)
    }
  }

  private func exportIntoRepository(_ repository: String, profile: FreedomProfile) throws {
    let kubo = Kubo(repository: repository)
    try ExportFlow(export).run(
      kubo, profile, target: repository,
      json: { outcome in
        outcome.plan.afterWriting.forEach(NodeText.show)
        return [:]
      },
      report: { outcome in
        if outcome.plan.change != nil { outcome.plan.afterWriting.forEach(NodeText.show) }
        return kubo.report(outcome)
      })
  }

  private func exportKeyFile(_ path: String, identity: Ed25519Identity) throws {
    let flow = ExportFlow(export)
    if export.dryRun {
      return try flow.dryRun(target: path) { () throws(NodeError) in
        try Kubo.dryRunKeyFile(path, identity: identity, consent: export.consent)
      }
    }
    let done = try NodeText.run(.export) {
      try Kubo.exportKeyFile(path, identity: identity, consent: export.consent)
    }
    guard !export.json else { return flow.print(done.json(command: flow.command)) }
    Output.standardOutput(done.report)
  }
}

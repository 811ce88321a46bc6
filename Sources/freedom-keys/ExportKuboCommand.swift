import CryptoPrimitives
import Glibc
import NodeFiles
import VaultKeys

/// `freedom-keys export kubo`: the IPFS key into a kubo repository's config, or as a key file
/// for `ipfs key import`.
struct ExportKuboCommand: ParsableCommand {
  static let repo = Option.value(
    "repo", "dir", help: "Set the Identity in <dir>/config (IPFS_PATH).")
  static let keyFile = Option.value(
    "key-file", "path", help: "Write the libp2p private key protobuf to <path>.")
  static let force = Option.flag("force", help: "Replace another identity's key.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
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
        """ + "\n\n" + ExportCommand.inputHelp,
      options: MnemonicOptions.all + [repo, keyFile, force])
  }

  /// Where the key goes.
  enum Target {
    case repository(String)
    case keyFile(String)
  }

  let input: MnemonicOptions
  let target: Target
  let forced: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    switch (arguments.value(Self.repo), arguments.value(Self.keyFile)) {
    case (let repository?, nil) where !repository.isEmpty: target = .repository(repository)
    case (nil, let path?) where !path.isEmpty: target = .keyFile(path)
    case (nil, nil): throw arguments.usage("give --repo <dir> or --key-file <path>")
    case (.some, .some): throw arguments.usage("--repo and --key-file cannot be combined")
    default: throw arguments.usage("the path given to --repo or --key-file is empty")
    }
    forced = arguments.flag(Self.force)
  }

  func run() throws {
    let (_, seed) = try input.readSeed()
    let identity = try FreedomProfile(seed: seed).ipfs
    switch target {
    case .repository(let repository): try exportIntoRepository(repository, identity: identity)
    case .keyFile(let path): try exportKeyFile(path, identity: identity)
    }
  }

  private func exportIntoRepository(_ repository: String, identity: Ed25519Identity) throws {
    try ExportFiles.requireDirectory(repository)
    try NodeDirectoryAccess.changing(repository, layout: .kubo, create: false) { node in
      try exportIntoRepository(node, identity: identity)
    }
  }

  /// Reads, checks and edits the config under the repository's lock.
  private func exportIntoRepository(_ node: NodeDirectory, identity: Ed25519Identity) throws {
    let repository = node.path
    let expected = identity.peerID.base58
    let configPath = ExportFiles.join(repository, "config")
    guard let status = try ExportFiles.status(configPath) else {
      throw CLIError.failure(
        "\(configPath) does not exist; create the repository first with "
          + "'IPFS_PATH=\(repository) ipfs init', then run this again")
    }
    guard status.isRegularFile else {
      throw CLIError.failure(
        "\(configPath) is not a regular file\(status.isSymbolicLink ? " (a symbolic link)" : "");"
          + " give --repo the directory that holds the config itself")
    }
    guard let bytes = try ExportFiles.read(configPath) else {
      throw CLIError.failure("\(configPath) disappeared while it was read")
    }
    let config: KuboConfig
    do {
      config = try KuboConfig(json: bytes)
    } catch {
      throw CLIError.failure("\(configPath): \(error)")
    }

    let expectedPrivKey = identity.privKeyBase64
    let storedPeerID = config.peerID ?? ""
    let storedPrivKey = config.privateKey ?? SecureBytes(count: 0) { _ in }
    if storedPeerID == expected, storedPrivKey == expectedPrivKey {
      Output.standardOutput(ExportCommand.unchanged(configPath, "the IPFS identity \(expected)"))
      return
    }
    let hasIdentity = !storedPeerID.isEmpty || storedPrivKey.count > 0
    if hasIdentity, !forced {
      let found =
        storedPeerID.isEmpty
        ? "a private key without PeerID"
        : storedPeerID == expected
          ? "PeerID \(storedPeerID) with another private key" : "PeerID \(storedPeerID)"
      throw ExportCommand.refusal(configPath, holds: found, expected: expected)
    }
    let updated = try config.settingIdentity(peerID: expected, privateKey: expectedPrivKey)

    // Held until the new config is in place, so a daemon cannot start in between; a config
    // changed before the lock was taken is not overwritten with an edit of its old content.
    let lock = try KuboRepoLock.acquire(repository: repository)
    guard let current = try ExportFiles.read(configPath), current == bytes else {
      throw CLIError.failure("\(configPath) changed while it was being checked; run this again")
    }
    // A config edited by root for another user stays that user's.
    let owner = (status.owner != 0 || status.group != 0) ? (status.owner, status.group) : nil
    _ = try NodeDirectoryAccess.apply(
      NodeChange(files: [
        .init("config", SecureBytes(updated), mode: status.permissions, owner: owner)
      ]),
      in: node)
    ExportFiles.warnIfShared(configPath)
    withExtendedLifetime(lock) {}

    var text = "Wrote \(configPath): Identity.PeerID \(expected) and its PrivKey"
    text += " (mode \(Output.octal(status.permissions)))\n"
    if hasIdentity { text += "Replaced PeerID \(storedPeerID.isEmpty ? "(none)" : storedPeerID)\n" }
    text += "Start the node with: IPFS_PATH=\(repository) ipfs daemon\n"
    Output.standardOutput(text)
  }

  private func exportKeyFile(_ path: String, identity: Ed25519Identity) throws {
    let expected = identity.peerID.base58
    let existing = try StoredFile.read(path) { try Libp2pPrivateKey.decode(protobuf: $0) }
    switch existing {
    case .absent:
      break
    case .present(let key) where key.rawRepresentation == identity.privateKey.rawRepresentation:
      Output.standardOutput(ExportCommand.unchanged(path, "the IPFS key of \(expected)"))
      return
    case .present(let key):
      guard forced else {
        let found = "the key of \(Libp2pPeerID(publicKey: key.publicKey).base58)"
        throw ExportCommand.refusal(path, holds: found, expected: expected)
      }
    case .unreadable(let problem):
      guard forced else { throw ExportCommand.refusal(problem) }
    }
    let protobuf = Libp2pPrivateKey.protobuf(identity.privateKey)
    do {
      try SecureFileWriter.write(
        protobuf, to: path, mode: 0o600, replace: existing.isPresent ? .replace : .refuseExisting)
    } catch {
      throw CLIError.failure(error.description)
    }
    var text = "Wrote \(path): the libp2p private key of \(expected) (mode 0600)\n"
    text += "Import it with: ipfs key import NAME \(path)   (NAME must not be 'self')\n"
    text += "Then delete \(path): it holds the private key unencrypted.\n"
    Output.standardOutput(text)
  }
}

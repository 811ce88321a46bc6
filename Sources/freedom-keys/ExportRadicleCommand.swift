import CryptoPrimitives
import FoundationEssentials
import NodeFiles
import VaultKeys

/// `freedom-keys export radicle`: the Radicle key as `keys/radicle` and `keys/radicle.pub`, and
/// optionally the node alias in `config.json`.
struct ExportRadicleCommand: ParsableCommand {
  static let home = Option.value("home", "dir", help: "The Radicle home (RAD_HOME, ~/.radicle).")
  static let alias = Option.value(
    "alias", "name", help: "Set node.alias in config.json; key comment.")
  static let force = Option.flag("force", help: "Replace another identity's key.")

  /// The key comment when no alias is given.
  static let defaultComment = "freedom-keys"

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "radicle",
      abstract: "Write Radicle's keys for the key m/44'/73404'/0'/0'/0'.",
      discussion: """
        keys/radicle is an unencrypted OpenSSH Ed25519 private key (mode 0600) that
        Radicle's ssh-key parser accepts and that is the same bytes on every export;
        keys/radicle.pub is its 'ssh-ed25519 AAAA… comment' line (mode 0644). The
        comment is the alias, or 'freedom-keys'. --alias must be 1 to 32 bytes without
        whitespace or control characters; only node.alias of config.json changes, or
        the file is created with just the alias.
        """ + "\n\n" + ExportCommand.inputHelp,
      options: MnemonicOptions.all + [home, alias, force])
  }

  let input: MnemonicOptions
  let directory: String
  let alias: String?
  let forced: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    guard let directory = arguments.value(Self.home), !directory.isEmpty else {
      throw arguments.usage("missing --home <dir>")
    }
    self.directory = directory
    alias = arguments.value(Self.alias)
    if let alias, let problem = RadicleConfig.aliasProblem(alias) {
      throw arguments.usage("invalid --alias: \(problem)")
    }
    forced = arguments.flag(Self.force)
  }

  func run() throws {
    let (_, seed) = try input.readSeed()
    let identity = try FreedomProfile(seed: seed).radicle
    let comment = alias ?? Self.defaultComment

    try ExportFiles.requireDirectoryOrAbsent(directory)
    try NodeDirectoryAccess.changing(directory, layout: .radicle, create: true) { node in
      try export(identity: identity, comment: comment, node: node)
    }
  }

  /// Reads, checks and writes under the home's lock.
  private func export(identity: Ed25519Identity, comment: String, node: NodeDirectory) throws {
    let expected = identity.radicle.did
    let keysDirectory = ExportFiles.join(directory, "keys")
    try ExportFiles.requireDirectoryOrAbsent(keysDirectory)
    let keyPath = ExportFiles.join(keysDirectory, "radicle")
    let publicKeyPath = ExportFiles.join(keysDirectory, "radicle.pub")

    let storedKey = try StoredFile.read(keyPath) {
      try OpenSSHEd25519PrivateKey.parse(pem: $0).0.publicKey
    }
    let keyIsCurrent = try check(
      storedKey, at: keyPath, expected: identity.publicKey, did: expected)
    let storedLine = try StoredFile.read(publicKeyPath) { try Self.publicKey(inLine: $0) }
    let lineIsCurrent = try check(
      storedLine, at: publicKeyPath, expected: identity.publicKey, did: expected)

    // The config is never replaced wholesale, not even with --force: it is the user's.
    let configPath = ExportFiles.join(directory, "config.json")
    var newConfig: (bytes: [UInt8], mode: UInt32, exists: Bool)?
    if let alias {
      if let bytes = try ExportFiles.read(configPath) {
        let config: RadicleConfig
        do {
          config = try RadicleConfig(json: bytes.withUnsafeBytes { Array($0) })
        } catch {
          throw CLIError.failure("cannot set the alias in \(configPath): \(error)")
        }
        if config.alias != alias {
          let mode = try ExportFiles.status(configPath)?.permissions ?? 0o644
          newConfig = (try config.settingAlias(alias), mode, true)
        }
      } else {
        newConfig = (try RadicleConfig.new(alias: alias), 0o644, false)
      }
    }

    if keyIsCurrent { ExportFiles.warnIfShared(keyPath) }
    var text = ""
    if keyIsCurrent { text += ExportCommand.unchanged(keyPath, "the Radicle key \(expected)") }
    if lineIsCurrent { text += ExportCommand.unchanged(publicKeyPath, "its public key") }
    if alias != nil, newConfig == nil { text += ExportCommand.unchanged(configPath, "the alias") }

    // config.json first, the key pair last: one swap puts both keys in place together.
    var change = NodeChange()
    if let newConfig {
      change.files.append(.init("config.json", SecureBytes(newConfig.bytes), mode: newConfig.mode))
    }
    if !keyIsCurrent {
      let pem = OpenSSHEd25519PrivateKey.pem(privateKey: identity.privateKey, comment: comment)
      change.files.append(.init("keys/radicle", pem))
      text += "Wrote \(keyPath): the Radicle key \(expected) (mode 0600)\n"
    }
    if !lineIsCurrent {
      let line = OpenSSH.authorizedKeyLine(identity.publicKey, comment: comment) + "\n"
      change.files.append(.init("keys/radicle.pub", SecureBytes(utf8: line), mode: 0o644))
      text += "Wrote \(publicKeyPath): its public key (mode 0644)\n"
    }
    if newConfig != nil, let alias {
      text += "Set node.alias to \(JSONValue.quoted(alias)) in \(configPath)\n"
    }
    if !change.files.isEmpty { _ = try NodeDirectoryAccess.apply(change, in: node) }
    text += "SSH fingerprint: \(identity.radicle.sshFingerprint)\n"
    if !keyIsCurrent { text += "Check it with: RAD_HOME=\(directory) rad self\n" }
    Output.standardOutput(text)
  }

  /// Whether a stored key file already holds `expected`; throws the refusal when it holds
  /// something else and --force was not given.
  private func check(
    _ stored: StoredFile<Ed25519.PublicKey>, at path: String, expected: Ed25519.PublicKey,
    did: String
  ) throws -> Bool {
    switch stored {
    case .absent:
      return false
    case .present(let key) where key.rawRepresentation == expected.rawRepresentation:
      return true
    case .present(let key):
      guard forced else {
        throw ExportCommand.refusal(
          path, holds: "the key \(RadicleIdentity(publicKey: key).did)", expected: did)
      }
      return false
    case .unreadable(let problem):
      guard forced else { throw ExportCommand.refusal(problem) }
      return false
    }
  }

  /// The key of an `ssh-ed25519 AAAA… [comment]` line.
  static func publicKey(inLine bytes: SecureBytes) throws -> Ed25519.PublicKey {
    let text = bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline })
    guard fields.count >= 2, fields[0] == Substring(OpenSSH.ed25519KeyType),
      let blob = Data(base64Encoded: String(fields[1])),
      let key = try? Ed25519.PublicKey(rawRepresentation: Array(blob.suffix(32))),
      Array(blob) == OpenSSH.publicKeyBlob(key)
    else {
      throw CLIError.failure("it is not an 'ssh-ed25519 AAAA…' public key line")
    }
    return key
  }
}

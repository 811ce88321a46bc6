import CryptoPrimitives
import Glibc
import NodeFiles
import VaultKeys

/// `freedom-keys export antd`: the Swarm wallet as antd's `keys/swarm.key`, opened by the
/// password in `config.yaml` — what desktop Freedom's `ant-data` holds.
struct ExportAntdCommand: ParsableCommand {
  static let dataDir = Option.value(
    "data-dir", "dir", help: "antd's data directory (desktop: ant-data).")
  static let passwordFile = Option.value(
    "password-file", "path", help: "Password when config.yaml has none.")
  static let force = Option.flag("force", help: "Replace another identity; remove its state.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "antd",
      abstract: "Write antd's keys/swarm.key for the Swarm wallet m/44'/60'/0'/0/1.",
      discussion: """
        The keystore is opened by the password: line of <dir>/config.yaml, as antd and
        desktop Freedom read it. That password is kept when there is one; else the
        file named by config.yaml's password-file:, else --password-file (trailing
        CR/LF removed, as antd reads it), else 32 random bytes as hex; a new password
        is written into config.yaml's password: line, every other line kept byte for
        byte (the file is created if absent). A keystore of the mnemonic that the
        password does not open is rewritten. antd's own identity.json and signing.key
        are removed with the change (antd would keep using them otherwise); one that
        holds another key, like a keystore of another address, needs --force, which
        also removes the old identity's statestore, localstore, kademlia-metrics,
        stamperstore, keys/libp2p_v2.key and keys/pss.key. Stop antd (close Freedom).
        """ + "\n\n" + ExportCommand.inputHelp,
      options: MnemonicOptions.all + [dataDir, passwordFile, force])
  }

  let input: MnemonicOptions
  let directory: String
  let passwordPath: String?
  let forced: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    guard let directory = arguments.value(Self.dataDir), !directory.isEmpty else {
      throw arguments.usage("missing --data-dir <dir>")
    }
    self.directory = directory
    passwordPath = arguments.value(Self.passwordFile)
    if passwordPath == "" { throw arguments.usage("--password-file <path> is empty") }
    try KeystorePassword.checkStandardInput(
      passwordPath: passwordPath, input: input, arguments: arguments)
    forced = arguments.flag(Self.force)
  }

  func run() throws {
    let (_, seed) = try input.readSeed()
    let profile = try FreedomProfile(seed: seed)
    let givenPassword = try passwordPath.map { try AntdExport.readPasswordFile($0) }
    try ExportFiles.requireDirectoryOrAbsent(directory)
    try NodeDirectoryAccess.changing(directory, layout: .antd, create: true) { node in
      let plan = try AntdExport.plan(
        directory: directory, profile: profile, givenPassword: givenPassword, forced: forced)
      guard let change = plan.change else {
        Output.standardOutput(plan.report)
        return
      }
      let result = try NodeDirectoryAccess.apply(change, in: node)
      Output.standardOutput(plan.report + AntdExport.removedLine(result))
    }
  }
}

/// What `export antd` (and `export freedom` for `ant-data`) decides for one antd data
/// directory: the files to write, what to remove, and the lines to report.
enum AntdExport {
  struct Plan {
    /// Nil when the directory already holds the identity and a password that opens it.
    var change: NodeChange?
    var report: String
  }

  /// A password file as antd reads `password-file`: trailing CR and LF removed.
  static func readPasswordFile(_ path: String) throws -> SecureBytes {
    let content = try SecretInput.read(SecretSource(role: "keystore password", path: path))
    let password = AntdConfig.passwordFromFile(content)
    guard password.count > 0 else { throw CLIError.failure("the password file \(path) is empty") }
    return password
  }

  /// Everything is read and checked here, under the caller's lock; nothing is written.
  /// `prefix` is prepended to the change's paths (`ant-data/` when the transaction covers a
  /// whole desktop installation).
  static func plan(
    directory: String, profile: FreedomProfile, givenPassword: SecureBytes?, forced: Bool,
    prefix: String = ""
  ) throws -> Plan {
    try requireStopped(directory)
    let expected = profile.swarm.address
    let keyPath = ExportFiles.join(directory, "keys/swarm.key")
    let configPath = ExportFiles.join(directory, "config.yaml")
    try ExportFiles.requireDirectoryOrAbsent(ExportFiles.join(directory, "keys"))

    // 1. The password antd will use, and whether config.yaml must change to hold it.
    let config: AntdConfig?
    do {
      config = try ExportFiles.read(configPath).map { try AntdConfig(yaml: $0) }
    } catch let error as AntdConfigError {
      throw CLIError.failure("\(configPath): \(error); nothing was written")
    }
    var lines: [String] = []
    let password: SecureBytes
    var newConfig: SecureBytes?
    if let stored = config?.password {
      if let givenPassword, givenPassword != stored {
        throw CLIError.failure(
          "\(configPath) holds another password than --password-file gives; antd and desktop "
            + "use config.yaml's: nothing was written (leave out --password-file)")
      }
      password = stored
      lines.append("Password: the one in \(configPath) (kept)")
    } else if let file = config?.passwordFile {
      let stored = try readPasswordFile(file)
      if let givenPassword, givenPassword != stored {
        throw CLIError.failure(
          "\(configPath) names password-file \(file), which holds another password than "
            + "--password-file gives: nothing was written")
      }
      password = stored
      lines.append("Password: the one in \(file), as config.yaml's password-file names it (kept)")
    } else {
      password = givenPassword ?? AntdConfig.generatePassword()
      do {
        newConfig =
          try config?.settingPassword(password) ?? AntdConfig.fresh(password: password)
      } catch {
        throw CLIError.failure("\(configPath): \(error); nothing was written")
      }
      lines.append(
        (givenPassword == nil ? "Wrote a new random password" : "Wrote the password given")
          + " into \(configPath)'s password: line (mode 0600)")
    }
    if let dataDir = config?.dataDir, realPath(dataDir) != realPath(directory) {
      Output.warning(
        "\(configPath) sets data-dir: \(dataDir); antd started with this config uses that "
          + "directory, not \(directory) (desktop Freedom rewrites it at start)")
    }

    // 2. The keystore: the mnemonic's and opened by the password, or to be written.
    let existing = try StoredFile.read(keyPath) {
      try Web3Keystore(json: $0.withUnsafeBytes { Array($0) })
    }
    var writeKeystore = true
    var replacing = false
    switch existing {
    case .absent:
      break
    case .present(let keystore) where keystore.address == expected:
      if newConfig == nil,
        let key = try? keystore.decrypt(password: password),
        key.rawRepresentation == profile.swarm.privateKey.rawRepresentation
      {
        writeKeystore = false
      } else {
        lines.append(
          "Rewrote \(keyPath) with that password: it holds the mnemonic's key but did not "
            + "open with it")
      }
    case .present(let keystore):
      let found = keystore.address.map { "the key of \($0.checksummed)" } ?? "a key without address"
      guard forced else {
        throw ExportCommand.refusal(keyPath, holds: found, expected: expected.checksummed)
      }
      replacing = true
      lines.append("Replaced \(found)")
    case .unreadable(let problem):
      guard forced else { throw ExportCommand.refusal(problem) }
      replacing = true
    }

    // 3. antd's self-made identity: removed, as desktop does; another key's only with --force.
    var removing: [String] = []
    for name in NodeLayout.antdSelfMadeIdentity {
      let path = ExportFiles.join(directory, name)
      guard try ExportFiles.status(path) != nil else { continue }
      let holder = try selfMadeKey(path, name: name)
      if holder != expected {
        guard forced else {
          throw CLIError.failure(
            "\(path) holds \(holder.map { "the key of \($0.checksummed)" } ?? "a key that cannot be read"), "
              + "antd's own identity, not the mnemonic's \(expected.checksummed); nothing was "
              + "written (--force removes it)")
        }
      }
      removing.append(name)
    }
    if replacing { removing = NodeLayout.antd.identityState }

    guard writeKeystore || newConfig != nil || !removing.isEmpty else {
      ExportFiles.warnIfShared(keyPath)
      return Plan(
        change: nil,
        report: ExportCommand.unchanged(
          keyPath, "the Swarm key \(expected.checksummed), opened by config.yaml's password"))
    }
    var change = NodeChange(removing: removing.map { prefix + $0 })
    if let newConfig { change.files.append(.init(prefix + "config.yaml", newConfig)) }
    if writeKeystore {
      let keyFile = try Web3Keystore.encrypt(
        privateKey: profile.swarm.privateKey, password: password)
      change.files.append(.init(prefix + "keys/swarm.key", SecureBytes(keyFile)))
    }
    var report =
      writeKeystore
      ? "Wrote \(keyPath): Swarm key \(expected.checksummed) (scrypt n=\(Web3Keystore.beeScryptN), mode 0600)\n"
      : "\(keyPath) already holds the Swarm key \(expected.checksummed)\n"
    report += lines.map { $0 + "\n" }.joined()
    report += "Start antd with: antd --config=\(configPath)\n"
    report +=
      "Overlay on mainnet (antd uses nonce 0 with a keystore): \(try profile.swarmOverlay().hex)\n"
    return Plan(change: change, report: report)
  }

  /// The report line for what a change removed.
  static func removedLine(_ result: NodeChangeResult) -> String {
    result.removed.isEmpty
      ? "" : "Removed the old identity's files: " + result.removed.joined(separator: ", ") + "\n"
  }

  /// The address of antd's self-made `identity.json` or `signing.key` (64 hex digits), or nil
  /// when it cannot be read.
  private static func selfMadeKey(_ path: String, name: String) throws -> EthereumAddress? {
    guard let bytes = try ExportFiles.read(path) else { return nil }
    if name == "identity.json" {
      guard let file = try? AntIdentity(json: bytes) else { return nil }
      return EthereumAddress(publicKey: file.signingKey.publicKey)
    }
    let key = bytes.withUnsafeBytes { raw -> SecureBytes? in
      let digits = raw.prefix { $0 != 0x0A && $0 != 0x0D }
      guard digits.count == 64, let decoded = Hex.decode(String(decoding: digits, as: UTF8.self))
      else { return nil }
      return SecureBytes(decoded)
    }
    guard let key, let parsed = try? Secp256k1.PrivateKey(rawRepresentation: key) else {
      return nil
    }
    return EthereumAddress(publicKey: parsed.publicKey)
  }

  /// Refuses while antd runs on `directory`: it holds an exclusive flock on `antd.lock`.
  static func requireStopped(_ directory: String) throws {
    let path = ExportFiles.join(directory, "antd.lock")
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
    guard descriptor >= 0 else { return }  // never ran here, or not readable: nothing to ask
    defer { close(descriptor) }
    if flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK {
      throw CLIError.failure(
        "antd is running on \(directory) (it holds \(path)); stop it (close Freedom) and run "
          + "this again; nothing was written")
    }
    _ = flock(descriptor, LOCK_UN)
  }

  private static func realPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}

import CryptoPrimitives
import NodeFiles
import VaultKeys

/// `freedom-keys export bee`: the Swarm wallet as bee's `keys/swarm.key`.
struct ExportBeeCommand: ParsableCommand {
  static let dataDir = Option.value("data-dir", "dir", help: "bee's data directory (--data-dir).")
  static let passwordFile = Option.value(
    "password-file", "path", help: "Read the keystore password from <path>.")
  static let scryptN = Option.value(
    "scrypt-n", "n", help: "scrypt cost, a power of two (default 32768).")
  static let force = Option.flag(
    "force", help: "Replace another identity; remove its bee state.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "bee",
      abstract: "Write bee's keys/swarm.key for the Swarm wallet m/44'/60'/0'/0/1.",
      discussion: """
        The key file is a Web3 Secret Storage (v3) keystore as bee writes it: scrypt
        (n=32768, r=8, p=1; --scrypt-n 262144 for geth's cost), AES-128-CTR,
        Keccak-256 MAC, mode 0600 in keys/ (0700). The password file is read as bee
        reads --password-file: leading and trailing newlines are not part of it.
        Without --password-file, <dir>/password is used if it exists, else 32 random
        bytes are written there as hex (0600); start bee with
        --password-file <dir>/password.
        With --force, a key of another identity is replaced and what bee kept for it
        is removed: keys/libp2p_v2.key, keys/pss.key, statestore, localstore,
        kademlia-metrics, stamperstore.
        """ + "\n\n" + ExportCommand.inputHelp,
      options: MnemonicOptions.all + [dataDir, passwordFile, scryptN, force])
  }

  /// The scrypt costs accepted: below 2^10 protects nothing, above 2^22 the keystore reader refuses.
  static let scryptNRange: ClosedRange<UInt64> = 1024...Web3Keystore.maximumBeeScryptN

  let input: MnemonicOptions
  let directory: String
  let passwordPath: String?
  let scryptCost: UInt64
  let forced: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    guard let directory = arguments.value(Self.dataDir), !directory.isEmpty else {
      throw arguments.usage("missing --data-dir <dir>")
    }
    self.directory = directory
    passwordPath = arguments.value(Self.passwordFile)
    try KeystorePassword.checkStandardInput(
      passwordPath: passwordPath, input: input, arguments: arguments)
    let cost = try arguments.integer(Self.scryptN, in: Self.scryptNRange) ?? Web3Keystore.beeScryptN
    guard cost & (cost - 1) == 0 else {
      throw arguments.usage("--scrypt-n <n> must be a power of two, such as 32768 or 262144")
    }
    scryptCost = cost
    forced = arguments.flag(Self.force)
  }

  func run() throws {
    let (_, seed) = try input.readSeed()
    let profile = try FreedomProfile(seed: seed)
    let givenPassword = try passwordPath.map { try KeystorePassword.read($0) }
    try ExportFiles.requireDirectoryOrAbsent(directory)
    try NodeDirectoryAccess.changing(directory, layout: .bee, create: true) { node in
      try export(profile: profile, givenPassword: givenPassword, node: node)
    }
  }

  /// Reads, checks and writes under the directory's lock.
  private func export(profile: FreedomProfile, givenPassword: SecureBytes?, node: NodeDirectory)
    throws
  {
    let expected = profile.swarm.address
    let keysDirectory = ExportFiles.join(directory, "keys")
    try ExportFiles.requireDirectoryOrAbsent(keysDirectory)
    let keyPath = ExportFiles.join(keysDirectory, "swarm.key")
    let existing = try StoredFile.read(keyPath) {
      try Web3Keystore(json: $0.withUnsafeBytes { Array($0) })
    }
    var replacedAddress: EthereumAddress?
    switch existing {
    case .absent:
      break
    case .present(let keystore) where keystore.address == expected:
      ExportFiles.warnIfShared(keyPath)
      Output.standardOutput(
        ExportCommand.unchanged(keyPath, "the Swarm key \(expected.checksummed)"))
      return
    case .present(let keystore):
      let found = keystore.address.map { "the key of \($0.checksummed)" } ?? "a key without address"
      guard forced else {
        throw ExportCommand.refusal(keyPath, holds: found, expected: expected.checksummed)
      }
      replacedAddress = keystore.address
    case .unreadable(let problem):
      guard forced else { throw ExportCommand.refusal(problem) }
    }

    // The password: given, kept from an earlier export, or new. DIR/password and the key it
    // opens never disagree: a given password that differs from DIR/password is refused.
    let passwordFilePath = ExportFiles.join(directory, "password")
    let storedPassword =
      try ExportFiles.status(passwordFilePath) != nil
      ? try KeystorePassword.read(passwordFilePath) : nil
    let password: SecureBytes
    var newPasswordFile: SecureBytes?
    if let givenPassword {
      if let storedPassword, storedPassword != givenPassword, passwordPath != passwordFilePath {
        throw CLIError.failure(
          "\(passwordFilePath) holds another password than the one given, and would not open "
            + "the new key; nothing was written (remove \(passwordFilePath), or give "
            + "--password-file \(passwordFilePath))")
      }
      password = givenPassword
    } else if let storedPassword {
      password = storedPassword
    } else {
      password = KeystorePassword.generate()
      newPasswordFile = password + SecureBytes(utf8: "\n")
    }
    KDFNotice.announce(
      "encrypting the key",
      .scrypt(n: scryptCost, r: Web3Keystore.beeScryptR, p: Web3Keystore.beeScryptP))
    let keyFile = try Web3Keystore.encrypt(
      privateKey: profile.swarm.privateKey, password: password, scryptN: scryptCost)

    // The key before a new password: interrupted in between, bee finds a key it cannot open
    // and stops, rather than a password beside no key, with which it would make its own.
    var change = NodeChange(files: [.init("keys/swarm.key", SecureBytes(keyFile))])
    if let newPasswordFile { change.files.append(.init("password", newPasswordFile)) }
    if existing.isPresent { change.removing = NodeLayout.bee.identityState }
    let result = try NodeDirectoryAccess.apply(change, in: node)
    try report(
      profile: profile, keyPath: keyPath, passwordFilePath: passwordFilePath,
      newPassword: newPasswordFile != nil, replaced: replacedAddress,
      removed: NodeLayout.bee.identityState.map { node.full($0) }.filter(result.removed.contains))
  }

  private func report(
    profile: FreedomProfile, keyPath: String, passwordFilePath: String, newPassword: Bool,
    replaced: EthereumAddress?, removed: [String]
  ) throws {
    let overlay = try profile.swarmOverlay()
    var text = "Wrote \(keyPath): Swarm key \(profile.swarm.address.checksummed)"
    text += " (scrypt n=\(scryptCost), mode 0600)\n"
    if let replaced { text += "Replaced the key of \(replaced.checksummed)\n" }
    if !removed.isEmpty {
      text += "Removed the old identity's state: "
      text += removed.joined(separator: ", ") + "\n"
    }
    if newPassword {
      text += "Wrote \(passwordFilePath): a new random password (mode 0600)\n"
    }
    if passwordPath == "-" {
      text += "Start bee with: bee start --data-dir \(directory) and the password you gave\n"
    } else {
      let passwordHint = passwordPath ?? passwordFilePath
      text +=
        "Start bee with: bee start --data-dir \(directory) --password-file \(passwordHint)\n"
    }
    text += "Overlay with nonce 0 on mainnet: \(overlay.hex)\n"
    text += "On mainnet bee may mine another overlay nonce (its neighbourhood suggester);\n"
    text += "the overlay then differs from the one above.\n"
    Output.standardOutput(text)
  }
}

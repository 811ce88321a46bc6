import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// `freedom-keys export antd`: the Swarm wallet as antd's keystore, opened by the password
/// antd reads — what desktop Freedom's ant-data holds (`Antd`).
struct ExportAntdCommand: ParsableCommand {
  static let dataDir = SharedOptions.dataDir(help: "antd's data directory (desktop: ant-data).")
  static let passwordFile = SharedOptions.passwordFile(
    help: "Password when \(Antd.configFile) has none.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "antd",
      abstract: "Write antd's \(Antd.keystoreFile) for the Swarm wallet m/44'/60'/0'/0/1.",
      discussion: """
        The keystore is opened by the password: line of <dir>/\(Antd.configFile), as antd and
        desktop Freedom read it. That password is kept when there is one; else the
        file named by \(Antd.configFile)'s password-file:, else --password-file (trailing
        CR/LF removed, as antd reads it), else 32 random bytes as hex; a new password
        is written into \(Antd.configFile)'s password: line, every other line kept byte for
        byte (the file is created if absent). A keystore of the mnemonic that the
        password does not open is rewritten. antd's own \(Antd.ownIdentityFile) and \(Antd.ownSigningKeyFile)
        are moved out of antd's way with the change (antd would keep using them
        otherwise); one that holds another key, like a keystore of another address,
        needs --force, which also moves aside the old identity's statestore,
        localstore, kademlia-metrics, stamperstore, keys/libp2p_v2.key and
        keys/pss.key. Stop antd (close Freedom).
        """ + "\n\n" + ExportCommand.inputHelp + "\n\n" + ExportOptions.discussion,
      options: MnemonicOptions.all + [dataDir, passwordFile]
        + ExportOptions.options(force: "Replace another identity; keep its state aside."))
  }

  let input: MnemonicOptions
  let directory: String
  let passwordPath: String?
  let export: ExportOptions
  let commandPath: String

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    directory = try arguments.required(Self.dataDir)
    passwordPath = try arguments.nonEmpty(Self.passwordFile)
    try KeystorePassword.checkStandardInput(
      passwordPath: passwordPath, input: input, arguments: arguments)
    export = ExportOptions(arguments)
    commandPath = arguments.commandPath
  }

  func run() throws {
    let (_, seed) = try input.readSeed()
    let profile = try FreedomProfile(seed: seed)
    let givenPassword = try passwordPath.map { try Self.readPasswordFile($0) }
    let antd = Antd(directory: directory)
    let inputs = Antd.ExportInputs(profile: profile, password: givenPassword)
    if export.dryRun {
      return try ExportText.dryRun(commandPath, target: directory, json: export.json) {
        () throws(NodeError) in
        ExportText.Plan(
          try NodeSession.dryRun(antd, inputs, consent: export.consent, events: NodeText.show),
          target: directory)
      }
    }
    let outcome = try NodeText.run(.export) {
      try NodeSession.export(antd, inputs, consent: export.consent, events: NodeText.show)
    }
    if export.json {
      return ExportText.printResult(
        outcome, commandPath, target: directory,
        extra: ["overlay": .string(try profile.swarmOverlay().hex)])
    }
    Output.standardOutput(
      try Self.report(outcome.plan, profile: profile) + NodeText.keptAsideLines(outcome.keptAside))
  }

  /// A password file as antd reads `password-file`: trailing CR and LF removed.
  static func readPasswordFile(_ path: String) throws -> SecureBytes {
    let content = try SecretInput.read(SecretSource(role: "keystore password", path: path))
    let password = AntdConfig.passwordFromFile(content)
    guard password.count > 0 else { throw CLIError.failure("the password file \(path) is empty") }
    return password
  }

  /// The lines `export antd` (and `export freedom` for its antd part) prints for `plan`.
  /// The report; `startsAntd` false when antd is desktop's (Freedom starts it).
  static func report(_ plan: Antd.Plan, profile: FreedomProfile, startsAntd: Bool = true) throws
    -> String
  {
    let expected = plan.expected.checksummed
    guard plan.change != nil else {
      return NodeText.unchanged(
        plan.keystorePath, "the Swarm key \(expected), opened by \(Antd.configFile)'s password")
    }
    var report =
      plan.keystore == .keep
      ? "\(plan.keystorePath) already holds the Swarm key \(expected)\n"
      : "Wrote \(plan.keystorePath): Swarm key \(expected) (scrypt n=\(Web3Keystore.beeScryptN), mode 0600)\n"
    switch plan.password {
    case .keptFromConfig: report += "Password: the one in \(plan.configPath) (kept)\n"
    case .keptFromPasswordFile(let file):
      report +=
        "Password: the one in \(file), as \(Antd.configFile)'s password-file names it (kept)\n"
    case .wroteRandom:
      report += "Wrote a new random password into \(plan.configPath)'s password: line (mode 0600)\n"
    case .wroteGiven:
      report += "Wrote the password given into \(plan.configPath)'s password: line (mode 0600)\n"
    }
    switch plan.keystore {
    case .rewrite(nil):
      report +=
        "Rewrote \(plan.keystorePath) with that password: it holds the mnemonic's key but did "
        + "not open with it\n"
    case .rewrite(let refusal?):
      report += "Rewrote \(plan.keystorePath) as antd reads it: \(refusal)\n"
    case .replace(.key(let key)): report += "Replaced the key of \(key)\n"
    case .replace(.keyWithoutAddress): report += "Replaced a key without address\n"
    default: break
    }
    if startsAntd { report += "Start antd with: antd --config=\(plan.configPath)\n" }
    report +=
      "Overlay on mainnet (antd uses nonce 0 with a keystore): \(try profile.swarmOverlay().hex)\n"
    return report
  }
}

import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// `freedom-keys export antd`: the Swarm wallet as antd's keystore, opened by the password
/// antd reads — what desktop Freedom's ant-data holds (`Antd`).
struct ExportAntdCommand: Command {
  static let dataDir = SharedOptions.dataDir(help: "antd's data directory (desktop: ant-data).")
  static let passwordFile = SharedOptions.passwordFile(
    help: "Password when \(Antd.configFile) has none.")

  static var definition: CommandDefinition {
    CommandDefinition(
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

  init(_ arguments: ParsedArguments) throws(CLIError) {
    passwordPath = try arguments.nonEmpty(Self.passwordFile)
    input = try MnemonicOptions(
      arguments, alsoReading: [(Self.passwordFile, passwordPath, "password")])
    directory = try arguments.required(Self.dataDir)
    export = ExportOptions(arguments)
  }

  func run() throws {
    let profile = try input.readProfile()
    let givenPassword = try passwordPath.map { path in
      let content = try SecretInput.read(
        SecretSource(role: "keystore password", path: path, isNew: export.passwordsAreNew))
      return try NodeText.run(.export) { try Antd.password(fromFile: content, path: path) }
    }
    let antd = Antd(directory: directory)
    let inputs = Antd.ExportInputs(profile: profile, password: givenPassword)
    try ExportFlow(export).run(
      antd, inputs, target: directory,
      json: { _ in ["overlay": .string(try profile.swarmOverlay().hex)] },
      report: { outcome in
        try outcome.plan.report(profile: profile)
          + outcome.keptAsideLines
      })
  }
}

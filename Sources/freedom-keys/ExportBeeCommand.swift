import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys export bee`: the Swarm wallet as bee's keystore (`Bee`).
struct ExportBeeCommand: Command {
  static let dataDir = SharedOptions.dataDir(help: "bee's data directory (--data-dir).")
  static let passwordFile = SharedOptions.passwordFile(
    help: "Read the keystore password from <path>.")
  /// The scrypt costs accepted: below 2^10 protects nothing, above 2^22 the keystore reader refuses.
  static let scryptN = TypedOption<UInt64>.integer(
    "scrypt-n", "n", help: "scrypt cost, a power of two (default 32768).",
    in: 1024...Web3Keystore.maximumBeeScryptN)

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "bee",
      abstract: "Write bee's \(Bee.keystoreFile) for the Swarm wallet m/44'/60'/0'/0/1.",
      discussion: """
        The key file is a Web3 Secret Storage (v3) keystore as bee writes it: scrypt
        (n=\(Web3Keystore.beeScryptN), r=8, p=1; --scrypt-n 262144 for geth's cost), AES-128-CTR,
        Keccak-256 MAC, mode 0600 in keys/ (0700). The password file is read as bee
        reads --password-file: leading and trailing newlines are not part of it.
        Without --password-file, <dir>/\(Bee.passwordFile) is used if it exists, else 32 random
        bytes are written there as hex (0600); start bee with
        --password-file <dir>/\(Bee.passwordFile).
        """ + "\n"
          + HelpText.wrapped(
            "With --force, a key of another identity is replaced and what bee kept for it is moved "
              + "into the backup: \(Bee.layout.identityState.joined(separator: ", ")).")
          + "\n\n" + ExportCommand.inputHelp + "\n\n" + ExportOptions.discussion,
      options: MnemonicOptions.all + [dataDir, passwordFile, scryptN.option]
        + ExportOptions.options(force: "Replace another identity; keep its state aside."))
  }

  let input: MnemonicOptions
  let directory: String
  let passwordPath: String?
  let scryptCost: UInt64
  let export: ExportOptions

  init(_ arguments: ParsedArguments) throws(CLIError) {
    passwordPath = arguments.value(Self.passwordFile)
    input = try MnemonicOptions(
      arguments, alsoReading: [(Self.passwordFile, passwordPath, "password")])
    directory = try arguments.required(Self.dataDir)
    let cost = try arguments.value(Self.scryptN) ?? Web3Keystore.beeScryptN
    guard cost & (cost - 1) == 0 else {
      throw arguments.usage("--scrypt-n <n> must be a power of two, such as 32768 or 262144")
    }
    scryptCost = cost
    export = ExportOptions(arguments)
  }

  func run() throws {
    let profile = try input.readProfile()
    let givenPassword = try passwordPath.map {
      try KeystorePassword.read($0, isNew: export.passwordsAreNew)
    }
    let bee = Bee(directory: directory)
    let inputs = Bee.ExportInputs(
      profile: profile, password: givenPassword, passwordPath: passwordPath, scryptN: scryptCost)
    try ExportFlow(export).run(
      bee, inputs, target: directory,
      json: { _ in ["overlay": .string(try profile.swarmOverlay().hex)] },
      report: { outcome in
        try bee.report(
          outcome, profile: profile, scryptN: scryptCost,
          passwordFile: passwordPath == "-" ? nil : passwordPath ?? bee.passwordFilePath)
      })
  }
}

import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys keystore`: tools for Web3 Secret Storage key files.
struct KeystoreCommand: Command {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "keystore",
      abstract: "Inspect Web3 Secret Storage (v3) key files, such as swarm.key.",
      subcommands: [KeystoreInspectCommand.self])
  }

  init(_ arguments: ParsedArguments) {}

  func run() {}
}

/// `freedom-keys keystore inspect FILE`: what a v3 key file says, and with a password whether it
/// opens and whose key it holds. The private key is never printed.
struct KeystoreInspectCommand: Command {
  static let file = Option.value("file", "file", help: "The key file (JSON).")
  static let passwordFile = SharedOptions.passwordFile(
    help: "Check the MAC with the password in <path>.")
  static let json = SharedOptions.json(help: "Print JSON instead of a summary.")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "inspect",
      abstract: "Print a keystore's address and KDF; with a password, check it.",
      discussion: """
        Reads any version 3 key file (bee, geth, clef, swarm-cli): scrypt or PBKDF2,
        'crypto' or 'Crypto'. With --password-file the MAC is checked ('wrong
        password' exits with 1) and the address of the decrypted key is printed. The
        password file is read as bee reads it (leading and trailing newlines
        removed); an empty file is the empty password, which a keystore may have.
        The private key is never printed. No mnemonic is involved.
        """,
      options: [passwordFile, json],
      argument: file)
  }

  let path: String
  let passwordPath: String?
  let printsJSON: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    guard let path = arguments.value(Self.file), !path.isEmpty else {
      throw arguments.usage("missing <file>")
    }
    self.path = path
    passwordPath = arguments.value(Self.passwordFile)
    printsJSON = arguments.flag(Self.json)
  }

  func run() throws {
    let password = try passwordPath.map { try KeystorePassword.read($0, allowsEmpty: true) }
    let opened = try UserFiles.keystore(path, password: password, events: NodeText.show)
    let report = opened.keystore.report(
      keyAddress: opened.keyAddress, uncheckedPassword: "not checked (--password-file checks it)")
    Output.standardOutput(
      printsJSON ? JSONValue.object(report.json).rendered() + "\n" : report.text.rendered)
  }
}

import CommandLineKit
import CryptoPrimitives
import VaultKeys

/// `freedom-keys keystore`: tools for Web3 Secret Storage key files.
struct KeystoreCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "keystore",
      abstract: "Inspect Web3 Secret Storage (v3) key files, such as swarm.key.",
      subcommands: [KeystoreInspectCommand.self])
  }

  init(_ arguments: ParsedArguments) {}

  func run() {}
}

/// `freedom-keys keystore inspect FILE`: what a v3 key file says, and with a password whether it
/// opens and whose key it holds. The private key is never printed.
struct KeystoreInspectCommand: ParsableCommand {
  static let file = Option.value("file", "file", help: "The key file (JSON).")
  static let passwordFile = SharedOptions.passwordFile(
    help: "Check the MAC with the password in <path>.")
  static let json = SharedOptions.json(help: "Print JSON instead of a summary.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "inspect",
      abstract: "Print a keystore's address and KDF; with a password, check it.",
      discussion: """
        Reads any version 3 key file (bee, geth, clef, swarm-cli): scrypt or PBKDF2,
        'crypto' or 'Crypto'. With --password-file the MAC is checked ('wrong
        password' exits with 1) and the address of the decrypted key is printed. The
        password file is read as bee reads it (leading and trailing newlines
        removed). The private key is never printed. No mnemonic is involved.
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
    let password = try passwordPath.map { try KeystorePassword.read($0) }
    guard let bytes = try ExportFiles.read(path) else {
      throw CLIError.failure("\(path) does not exist")
    }
    let keystore: Web3Keystore
    do {
      keystore = try Web3Keystore(json: bytes)
    } catch {
      throw CLIError.failure("\(path): \(error)")
    }
    var keyAddress: EthereumAddress?
    if let password {
      do {
        KDFNotice.announce("decrypting \(path)", keystore.kdf)
        keyAddress = EthereumAddress(publicKey: try keystore.decrypt(password: password).publicKey)
      } catch .wrongPassword {
        throw CLIError.failure("wrong password for \(path): its MAC does not match")
      } catch {
        throw CLIError.failure("\(path): \(error)")
      }
    }

    var object: JSONObject = [:]
    var report = TextReport()
    report.section("")
    func add(_ key: String, _ label: String, _ value: JSONValue) {
      object.append(key, value)
      report.row(label, value.plainText)
    }
    if let address = keystore.address {
      add("address", "Address", .string(address.checksummed))
    } else {
      report.row("Address", "(none stated)")
    }
    if let id = keystore.id { add("id", "ID", .string(id)) }
    add("cipher", "Cipher", .string("aes-128-ctr"))
    add("kdf", "KDF", .string(keystore.kdfName))
    var parameters: JSONObject = [:]
    switch keystore.kdf {
    case .scrypt(let n, let r, let p):
      parameters = ["n": .number(n), "r": .number(UInt64(r)), "p": .number(UInt64(p))]
      report.row("KDF parameters", "n=\(n) (2^\(n.trailingZeroBitCount)), r=\(r), p=\(p)")
    case .pbkdf2(let iterations):
      parameters = ["prf": .string("hmac-sha256"), "c": .number(UInt64(iterations))]
      report.row("KDF parameters", "prf=hmac-sha256, c=\(iterations)")
    }
    parameters.append("dklen", .number(UInt64(Web3Keystore.derivedKeyByteCount)))
    parameters.append("salt", .string(Hex.encode(keystore.salt)))
    object.append("kdfparams", .object(parameters))
    report.row("Salt", Hex.encode(keystore.salt))
    object.append("passwordChecked", .bool(keyAddress != nil))
    if let keyAddress {
      // decrypt() refuses a key whose address differs from a stated one, so here they agree.
      report.row("Password", "correct (the MAC matches)")
      add("keyAddress", "Key address", .string(keyAddress.checksummed))
      if keystore.address != nil {
        object.append("addressMatches", .bool(true))
        report.row("", "the same as the file's address")
      }
    } else {
      report.row("Password", "not checked (--password-file checks it)")
    }
    Output.standardOutput(
      printsJSON ? JSONValue.object(object).rendered() + "\n" : report.rendered)
  }
}

extension JSONValue {
  /// The value as a summary shows it: strings without quotes.
  fileprivate var plainText: String {
    if case .string(let text) = self { return text }
    return rendered()
  }
}

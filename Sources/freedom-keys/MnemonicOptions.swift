import CryptoPrimitives
import VaultKeys

/// The options of every command that reads a mnemonic: where the words and the BIP-39
/// passphrase come from, and which wordlist to use.
struct MnemonicOptions {
  static let mnemonicFile = Option.value(
    "mnemonic-file", "path",
    help: "Read the mnemonic from <path> ('-': standard input).")
  static let passphraseFile = Option.value(
    "passphrase-file", "path",
    help: "Read the BIP-39 passphrase from <path>.")
  static let language = Option.value(
    "language", "name",
    help: "Use this wordlist instead of detecting it.")
  /// The options in help order.
  static let all = [mnemonicFile, passphraseFile, language]

  /// The mnemonic file; "-" is standard input, nil asks at the terminal.
  let mnemonicPath: String?
  /// The passphrase file; "-" is standard input, nil is the empty passphrase.
  let passphrasePath: String?
  /// The wordlist the user forced, if any.
  let language: Wordlist.Language?
  /// The command, for the hint of a usage error found while reading.
  private let commandPath: String

  init(_ arguments: ParsedArguments) throws(CLIError) {
    commandPath = arguments.commandPath
    mnemonicPath = arguments.value(Self.mnemonicFile)
    passphrasePath = arguments.value(Self.passphraseFile)
    if mnemonicPath == "-", passphrasePath == "-" {
      throw arguments.usage(
        "--mnemonic-file and --passphrase-file cannot both read standard input")
    }
    if mnemonicPath == nil, passphrasePath == "-" {
      throw arguments.usage(
        "--passphrase-file - needs --mnemonic-file PATH: the mnemonic cannot be asked for while standard input carries the passphrase"
      )
    }
    language = try arguments.value(Self.language).map { name throws(CLIError) in
      guard let language = Self.language(named: name) else {
        throw arguments.usage(
          "unknown language '\(name)'; expected one of "
            + Wordlist.Language.allCases.map(\.rawValue).joined(separator: ", "))
      }
      return language
    }
  }

  /// `english`, `chinese_simplified`, also written `chinese-simplified`.
  static func language(named name: String) -> Wordlist.Language? {
    Wordlist.Language(rawValue: String(name.lowercased().map { $0 == "-" ? "_" : $0 }))
  }

  /// The mnemonic text, from the file, standard input or the hidden prompt.
  func readPhrase() throws -> SecureBytes {
    let isTerminal = SecretInput.standardInputIsTerminal
    if let mnemonicPath, !(mnemonicPath == "-" && isTerminal) {
      return try SecretInput.read(SecretSource(role: "mnemonic", path: mnemonicPath))
    }
    guard isTerminal else {
      throw CLIError.usage(
        "standard input is not a terminal, so the mnemonic cannot be asked for: "
          + "pass --mnemonic-file PATH, or pipe it with --mnemonic-file -", commandPath: commandPath
      )
    }
    return try SecretInput.prompt(
      "Enter your mnemonic (input hidden; or use --mnemonic-file PATH): ",
      for: SecretSource(role: "mnemonic", path: nil))
  }

  /// The BIP-39 passphrase: the file's content minus one trailing line ending, or empty.
  func readPassphrase() throws(SecretInputError) -> SecureBytes {
    guard let passphrasePath else { return SecureBytes(count: 0) { _ in } }
    let content = try SecretInput.read(SecretSource(role: "passphrase", path: passphrasePath))
    return SecretInput.droppingLineEnding(content)
  }
}

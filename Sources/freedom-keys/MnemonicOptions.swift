import CommandLineKit
import CryptoPrimitives
import VaultKeys

/// The options of every command that reads a mnemonic: where the words (or desktop Freedom's
/// vault holding them) and the BIP-39 passphrase come from, and which wordlist to use.
struct MnemonicOptions {
  static let mnemonicFile = Option.value(
    "mnemonic-file", "path",
    help: "Read the mnemonic from <path> ('-': stdin).")
  static let vaultFile = Option.value(
    "vault-file", "path",
    help: "Or open it from desktop Freedom's vault <path>.")
  /// `--metamask-vault`: MetaMask's vault, worded by each command that takes it.
  static func metamaskVault(help: String) -> Option {
    Option.value("metamask-vault", "path", help: help)
  }
  static let metamaskVaultFile = metamaskVault(help: "Or open it from MetaMask's vault <path>.")
  static let vaultPasswordFile = Option.value(
    "vault-password-file", "path",
    help: "Read the vault password from <path>.")
  static let passphraseFile = Option.value(
    "passphrase-file", "path",
    help: "Read the BIP-39 passphrase from <path>.")
  static let language = SharedOptions.language(help: "Use this wordlist instead of detecting it.")
  /// The options in help order.
  static let all = [mnemonicFile, vaultFile, vaultPasswordFile, passphraseFile, language]
  /// `derive`'s: the same, and MetaMask's vault as another source of the words.
  static let withMetaMask = [
    mnemonicFile, vaultFile, metamaskVaultFile, vaultPasswordFile, passphraseFile, language,
  ]
  /// The options of a command that reads the words but derives nothing (no passphrase).
  static let phraseOnly = [mnemonicFile, vaultFile, vaultPasswordFile, language]

  /// Help text for the commands that take these options.
  static let discussion = """
    The mnemonic is never read from the command line: without --mnemonic-file or
    --vault-file it is asked for with echo off; scripts pass --mnemonic-file PATH or
    pipe it with --mnemonic-file -. --vault-file reads desktop Freedom's
    identity-vault.json; its password comes from --vault-password-file or is asked
    for with echo off. A password or passphrase file loses one trailing newline,
    nothing else. English words may be written as their first four letters.
    """

  /// The mnemonic file; "-" is standard input, nil asks at the terminal (or reads the vault).
  let mnemonicPath: String?
  /// Desktop Freedom's `identity-vault.json`, which holds the mnemonic encrypted.
  let vaultPath: String?
  /// MetaMask's vault, which holds the mnemonic encrypted (only commands that declare it).
  let metamaskVaultPath: String?
  /// The vault password file; nil asks at the terminal.
  let vaultPasswordPath: String?
  /// The passphrase file; "-" is standard input, nil is the empty passphrase.
  let passphrasePath: String?
  /// The wordlist the user forced, if any.
  let language: Wordlist.Language?
  /// The command, for the hint of a usage error found while reading.
  private let commandPath: String

  /// With `passwordAlsoWritesVault` (`export freedom`), `--vault-password-file` without
  /// `--vault-file` is the password of the vault the command writes, not a mnemonic source.
  /// With `phraseReadElsewhere` (`recover --damage-file`), the mnemonic is not asked for.
  /// `alsoReading` are the command's other secrets (`--password-file`), held to the same rule
  /// for standard input: named first, with what they hold.
  init(
    _ arguments: ParsedArguments, passwordAlsoWritesVault: Bool = false,
    phraseReadElsewhere: Bool = false,
    alsoReading others: [(option: Option, path: String?, role: String)] = []
  ) throws(CLIError) {
    commandPath = arguments.commandPath
    mnemonicPath = arguments.value(Self.mnemonicFile)
    vaultPath = arguments.value(Self.vaultFile)
    metamaskVaultPath = arguments.value(Self.metamaskVaultFile)
    let anyVault = vaultPath ?? metamaskVaultPath
    vaultPasswordPath =
      passwordAlsoWritesVault && anyVault == nil ? nil : arguments.value(Self.vaultPasswordFile)
    passphrasePath = arguments.value(Self.passphraseFile)
    if vaultPath != nil, metamaskVaultPath != nil {
      throw arguments.usage(
        "--vault-file and --metamask-vault cannot be combined: each holds the mnemonic")
    }
    if mnemonicPath != nil, anyVault != nil {
      let vault = metamaskVaultPath != nil ? "--metamask-vault" : "--vault-file"
      throw arguments.usage(
        "--mnemonic-file and \(vault) cannot be combined: the vault holds the mnemonic")
    }
    if vaultPasswordPath != nil, anyVault == nil {
      throw arguments.usage("--vault-password-file needs --vault-file")
    }

    // A pipe can carry one thing, and nothing while a prompt needs the terminal. (On a
    // terminal, "-" is answered at a hidden prompt, one after the other.)
    // The password of the vault `export freedom` writes is read from standard input too.
    let writtenVaultPassword =
      passwordAlsoWritesVault && anyVault == nil ? arguments.value(Self.vaultPasswordFile) : nil
    let fromStandardInput =
      (others + [
        (Self.mnemonicFile, mnemonicPath, "mnemonic"), (Self.vaultFile, vaultPath, "vault"),
        (Self.metamaskVaultFile, metamaskVaultPath, "vault"),
        (Self.vaultPasswordFile, vaultPasswordPath ?? writtenVaultPassword, "vault password"),
        (Self.passphraseFile, passphrasePath, "passphrase"),
      ]).filter {
        $0.path == "-"
          && !(SecretInput.standardInputIsTerminal && $0.option != Self.vaultFile
            && $0.option != Self.metamaskVaultFile)
      }
    if fromStandardInput.count > 1 {
      throw arguments.usage(
        "--\(fromStandardInput[0].option.name) and --\(fromStandardInput[1].option.name) "
          + "cannot both read standard input")
    }
    if let piped = fromStandardInput.first {
      let prompted: (option: Option, role: String)? =
        if mnemonicPath == nil && anyVault == nil && !phraseReadElsewhere {
          (Self.mnemonicFile, "mnemonic")
        } else if anyVault != nil && vaultPasswordPath == nil {
          (Self.vaultPasswordFile, "vault password")
        } else { nil }
      if let prompted {
        throw arguments.usage(
          "--\(piped.option.name) - needs --\(prompted.option.name) PATH: the "
            + "\(prompted.role) cannot be asked for while standard input carries the \(piped.role)")
      }
    }
    language = try Self.language(arguments.value(Self.language), arguments: arguments)
  }

  /// The language `name` names, or nil if `name` is nil; an unknown name is a usage error.
  static func language(_ name: String?, arguments: ParsedArguments) throws(CLIError)
    -> Wordlist.Language?
  {
    guard let name else { return nil }
    guard let language = language(named: name) else {
      throw arguments.usage(
        "unknown language '\(name)'; expected one of "
          + Wordlist.Language.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return language
  }

  /// `english`, `chinese_simplified`, also written `chinese-simplified`.
  static func language(named name: String) -> Wordlist.Language? {
    Wordlist.Language(rawValue: String(name.lowercased().map { $0 == "-" ? "_" : $0 }))
  }

  // MARK: - Reading

  /// The mnemonic text, from the file, standard input, the hidden prompt or the vault.
  func readPhrase() throws -> SecureBytes {
    if let metamaskVaultPath { return try readMetaMaskVault(at: metamaskVaultPath) }
    if let vaultPath { return try readVault(at: vaultPath) }
    return try readSecret(
      role: "mnemonic", path: mnemonicPath, option: Self.mnemonicFile,
      prompt: "Enter your mnemonic (input hidden; or use --mnemonic-file PATH): ")
  }

  /// The mnemonic inside desktop Freedom's vault. The vault is parsed before the password is
  /// asked for, so a file that is not a vault is refused at once.
  private func readVault(at path: String) throws -> SecureBytes {
    // Encrypted, and kept on disk by desktop Freedom with its own permissions: no warning.
    let source = SecretSource(role: "vault", path: path)
    let json = try SecretInput.read(
      source, limit: DesktopVault.maxByteCount, warnsIfShared: false)
    let vault = try Self.vault(json, from: source)
    let password = try readVaultPassword()
    KDFNotice.announce(
      "opening the vault (PBKDF2, \(vault.iterations) iterations)",
      seconds: vault.estimatedDecryptionSeconds)
    return try vault.decryptMnemonic(password: password)
  }

  /// The Secret Recovery Phrase of MetaMask's vault (its first HD keyring).
  private func readMetaMaskVault(at path: String) throws -> SecureBytes {
    let source = SecretSource(role: "MetaMask vault", path: path)
    let json = try SecretInput.read(
      source, limit: MetaMaskVault.maxByteCount, warnsIfShared: false)
    let vault: MetaMaskVault
    do {
      vault = try MetaMaskVault(json: json)
    } catch {
      throw CLIError.failure(error.naming("\(source)"))
    }
    let password = try readVaultPassword()
    KDFNotice.announce(
      "opening the MetaMask vault (PBKDF2, \(vault.iterations) iterations)",
      seconds: vault.estimatedDecryptionSeconds)
    return try vault.decryptMnemonic(password: password)
  }

  private func readVaultPassword() throws -> SecureBytes {
    try readSecret(
      role: "vault password", path: vaultPasswordPath, option: Self.vaultPasswordFile,
      prompt: "Enter the vault password (input hidden; or use --vault-password-file PATH): ")
  }

  /// The parsed vault; a file that is not one is named in the message.
  private static func vault(_ json: SecureBytes, from source: SecretSource) throws -> DesktopVault {
    do {
      return try DesktopVault(json: json)
    } catch {
      throw CLIError.failure(error.naming("\(source)"))
    }
  }

  /// The BIP-39 passphrase: the file's content minus one trailing line ending, or empty.
  /// `--passphrase-file -` with a terminal on standard input asks with echo off.
  func readPassphrase() throws -> SecureBytes {
    guard let passphrasePath else { return SecureBytes(count: 0) { _ in } }
    return try readSecret(
      role: "passphrase", path: passphrasePath, option: Self.passphraseFile,
      prompt: "Enter the BIP-39 passphrase (input hidden): ")
  }

  /// A secret from the file at `path`, or typed with echo off when `path` is nil or "-" and
  /// standard input is a terminal. Passwords and passphrases lose one trailing line ending
  /// (a mnemonic's whitespace does not matter).
  private func readSecret(role: String, path: String?, option: Option, prompt: String) throws
    -> SecureBytes
  {
    let isTerminal = SecretInput.standardInputIsTerminal
    if let path, !(path == "-" && isTerminal) {
      let content = try SecretInput.read(SecretSource(role: role, path: path))
      return SecretInput.droppingLineEnding(content)
    }
    guard isTerminal else {
      throw CLIError.usage(
        "standard input is not a terminal, so the \(role) cannot be asked for: "
          + "pass --\(option.name) PATH, or pipe it with --\(option.name) -",
        commandPath: commandPath)
    }
    // What these options read already exists (the words, a vault's password): asked once.
    return try SecretInput.prompt(prompt, for: SecretSource(role: role, path: nil, isNew: false))
  }

  /// The parsed mnemonic. Abbreviated words are reported on stderr, since the user typed
  /// something other than a word.
  func readMnemonic() throws -> Mnemonic {
    let mnemonic = try Mnemonic(phrase: readPhrase(), language: language)
    let expanded = mnemonic.expandedAbbreviations
    if !expanded.isEmpty {
      Output.warning(Mnemonic.abbreviationNote(expanded))
    }
    return mnemonic
  }

  /// The identities of the mnemonic and passphrase read: what exports and `verify` start from.
  func readProfile() throws -> FreedomProfile { try FreedomProfile(seed: readSeed().seed) }

  /// The mnemonic and its BIP-39 seed: what every command that derives keys starts from.
  func readSeed() throws -> (mnemonic: Mnemonic, seed: SecureBytes) {
    let mnemonic = try readMnemonic()
    return (mnemonic, mnemonic.seed(passphrase: try readPassphrase()))
  }
}

import CryptoPrimitives
import VaultKeys

/// `freedom-keys derive`: the identities of one mnemonic, or the key at one path.
struct DeriveCommand: ParsableCommand {
  static let json = Option.flag("json", help: "Print JSON instead of a summary.")
  static let includeSecrets = Option.flag(
    "include-secrets", help: "Also print the seed and the private keys.")
  static let wallets = Option.value(
    "wallets", "n", help: "Also list wallets m/44'/60'/i'/0/0 for i < n.")
  static let publishers = Option.value(
    "publishers", "n", help: "Also list publishers m/44'/73406'/i'/0/0, i < n.")
  static let networkID = Option.value(
    "network-id", "n", help: "Swarm network ID (default 1; testnet 10).")
  static let overlayNonce = Option.value(
    "overlay-nonce", "hex", help: "Swarm overlay nonce: 64 hex digits (default 0).")
  static let path = Option.value(
    "path", "path", help: "Print only the key at <path> (m/44'/60'/0'/0/0).")
  static let curve = Option.value(
    "curve", "curve", help: "secp256k1 (BIP-32, default), ed25519 (SLIP-10).",
    choices: ["secp256k1", "ed25519"])
  static let vaultMeta = Option.value(
    "vault-meta", "path", help: "Also list desktop's vault-meta.json wallets.")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "derive",
      abstract: "Print the wallet, Swarm, IPFS and Radicle keys of a mnemonic.",
      discussion: MnemonicOptions.discussion + "\n" + """
        Wordlists: english, japanese, korean, spanish, chinese_simplified,
        chinese_traditional, french, italian, czech, portuguese.
        --wallets and --publishers take at most 1000. Nothing secret is printed unless
        --include-secrets is given. --vault-meta (read by default from vault-meta.json
        beside --vault-file) lists desktop's wallets at their own indexes, gaps kept,
        each compared with the stored address; device accounts (Ledger, phone, Safe)
        are named and skipped: the mnemonic holds no key for them.
        """,
      options: MnemonicOptions.all + [
        json, includeSecrets, wallets, publishers, networkID, overlayNonce, path, curve,
        vaultMeta,
      ])
  }

  /// The largest --wallets / --publishers count: enough for anyone, quick to derive.
  static let maximumAccounts: UInt32 = 1000

  let input: MnemonicOptions
  let printsJSON: Bool
  let includesSecrets: Bool
  let walletCount: UInt32
  let publisherCount: UInt32
  let networkID: UInt64
  let overlayNonce: [UInt8]
  /// With --path: the single key to print instead of the profile.
  let singleKey: (path: DerivationPath, curve: Curve)?
  /// desktop's `vault-meta.json`: given, or found beside the vault.
  let vaultMetaPath: String?

  /// The curves `--curve` accepts.
  enum Curve: String {
    case secp256k1, ed25519
  }

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    printsJSON = arguments.flag(Self.json)
    includesSecrets = arguments.flag(Self.includeSecrets)
    let accounts = 0...Self.maximumAccounts
    walletCount = try arguments.integer(Self.wallets, in: accounts) ?? 0
    publisherCount = try arguments.integer(Self.publishers, in: accounts) ?? 0
    networkID = try arguments.integer(Self.networkID, in: 0...UInt64.max) ?? 1
    if let hex = arguments.value(Self.overlayNonce) {
      guard let nonce = Hex.decode(hex), nonce.count == 32 else {
        throw arguments.usage("--overlay-nonce <hex> must be 64 hex digits (32 bytes)")
      }
      overlayNonce = nonce
    } else {
      overlayNonce = [UInt8](repeating: 0, count: 32)
    }

    let explicitMeta = arguments.value(Self.vaultMeta)
    if explicitMeta == "" { throw arguments.usage("--vault-meta <path> is empty") }
    if explicitMeta != nil, arguments.value(Self.path) != nil {
      throw arguments.usage("--vault-meta cannot be combined with --path")
    }
    vaultMetaPath =
      explicitMeta
      ?? (arguments.value(Self.path) == nil
        ? input.vaultPath.flatMap { DeriveVaultWallets.besideVault($0) } : nil)

    let curveName = arguments.value(Self.curve)
    guard let pathText = arguments.value(Self.path) else {
      if curveName != nil { throw arguments.usage("--curve <curve> only applies with --path") }
      singleKey = nil
      return
    }
    for option in [Self.wallets, Self.publishers, Self.networkID, Self.overlayNonce]
    where arguments.value(option) != nil {
      throw arguments.usage("--\(option.name) cannot be combined with --path")
    }
    guard let curve = Curve(rawValue: curveName ?? "secp256k1") else {
      throw arguments.usage("--curve must be secp256k1 or ed25519")
    }
    let path: DerivationPath
    do {
      path = try DerivationPath(pathText)
    } catch {
      throw arguments.usage("invalid --path: \(error)")
    }
    if curve == .ed25519, let offset = path.components.firstIndex(where: { !$0.isHardened }) {
      // SLIP-0010 would refuse it too; saying so now spares typing the mnemonic first.
      throw arguments.usage(
        KeyDerivationError.nonHardenedEd25519(position: offset + 1, path: path).description)
    }
    singleKey = (path, curve)
  }

  func run() throws {
    // The metadata is public and read first: a bad file fails before any secret is asked for.
    let vaultWallets = try vaultMetaPath.map { try DeriveVaultWallets.read($0) }
    let (mnemonic, seed) = try input.readSeed()
    let report =
      if let singleKey {
        try DeriveReport(command: self, path: singleKey.path, curve: singleKey.curve, seed: seed)
      } else {
        try DeriveReport(
          command: self, mnemonic: mnemonic, seed: seed, vaultWallets: vaultWallets)
      }
    Output.standardOutput(
      printsJSON ? JSONValue.object(report.json).rendered() + "\n" : report.text.rendered)
  }
}

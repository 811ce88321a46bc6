import CommandLineKit
import FreedomNodes
import VaultKeys

/// `freedom-keys derive`: the identities of one mnemonic, or the key at one path.
struct DeriveCommand: Command {
  static let json = SharedOptions.json(help: "Print JSON instead of a summary.")
  static let includeSecrets = Option.flag(
    "include-secrets", help: "Also print the seed and the private keys.")
  static let wallets = Option.value(
    "wallets", "n", help: "Also list wallets m/44'/60'/i'/0/0 for i < n.")
  static let publishers = Option.value(
    "publishers", "n", help: "Also list publishers m/44'/73406'/i'/0/0, i < n.")
  static let networkID = SharedOptions.networkID(help: "Swarm network ID (default 1; testnet 10).")
  static let overlayNonce = SharedOptions.overlayNonce(
    help: "Swarm overlay nonce: 64 hex digits (default 0).")
  static let path = Option.value(
    "path", "path", help: "Print only the key at <path> (m/44'/60'/0'/0/0).")
  static let xpub = Option.flag(
    "xpub", help: "With --path: print its xpub too (see below).")
  static let curve = Option.value(
    "curve", "curve", help: "secp256k1 (BIP-32, default), ed25519 (SLIP-10).",
    choices: ["secp256k1", "ed25519"])
  static let vaultMeta = Option.value(
    "vault-meta", "path", help: "Also list desktop's vault-meta.json wallets.")
  static let experimental = Option.flag(
    "experimental", help: "Also list desktop's experimental private keys.")
  static let railgunIndex = Option.value(
    "railgun-index", "list", help: "Railgun accounts (default 0): 0,5 or 0-9.")
  static let ppv2Index = Option.value(
    "ppv2-index", "list", help: "Kohaku PPv2 accounts (default 0): 0,5 or 0-9.")
  static let railgunProfile = Option.value(
    "railgun-profile", "id", help: "Desktop profile id for Railgun storage roots.")
  static let railgunUserData = Option.value(
    "railgun-user-data", "dir", help: "Its userData directory, as desktop names it.")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "derive",
      abstract: "Print the wallet, Swarm, IPFS and Radicle keys of a mnemonic.",
      discussion: MnemonicOptions.discussion + "\n" + """
        Wordlists: english, japanese, korean, spanish, chinese_simplified,
        chinese_traditional, french, italian, czech, portuguese.
        --wallets and --publishers take at most 1000. Nothing secret is printed unless
        --include-secrets is given. --path prints one key; its xpub (secp256k1) only
        with --xpub or --include-secrets: an xpub with any one child's private key
        yields every sibling's key (the xpub of m/44'/60'/0'/0 with the wallet's key
        gives the Swarm key at /1).
        --vault-meta (read by default from vault-meta.json beside --vault-file) lists
        desktop's wallets at their own indexes, gaps kept, each compared with the
        stored address; device accounts (Ledger, phone, Safe, and any wallet numbered
        from 1000000) are named and skipped: the mnemonic holds no key for them.
        --metamask-vault reads MetaMask's vault (the vault string as MetaMask gives
        it, or state JSON holding KeyringController.vault) and derives from its first
        Secret Recovery Phrase; its password comes as --vault-file's does.
        --experimental adds desktop's experimental keys: Railgun spending and viewing
        keys m/44'/1984'/0'/0'/i' and m/420'/1984'/0'/0'/i' (babyjubjub seed tree;
        their BabyJubJub public keys are not computed), the accounts' storage roots
        with --railgun-profile and --railgun-user-data, and Kohaku PPv2 keys
        m/28784'/2'/i'. Indexes are 0 to 65535, at most 1000 of each.
        """,
      options: MnemonicOptions.withMetaMask + [
        json, includeSecrets, wallets, publishers, networkID.option, overlayNonce.option, path,
        xpub, curve,
        vaultMeta, experimental, railgunIndex, ppv2Index, railgunProfile, railgunUserData,
      ])
  }

  /// The largest --wallets / --publishers count: enough for anyone, quick to derive.
  static let maximumAccounts: UInt32 = 1000

  let input: MnemonicOptions
  let printsJSON: Bool
  /// What the profile's report lists; with --path only `includesSecrets` applies.
  let options: ProfileReport.Options
  /// With --path: the single key to print instead of the profile.
  let singleKey: (path: DerivationPath, curve: ProfileReport.Curve)?
  /// With --path: whether the key's xpub is printed (--xpub or --include-secrets).
  let printsXPub: Bool

  /// What an xpub exposes, said wherever one is printed.
  static let xpubExposure =
    "an xpub with any one child's private key yields every sibling's key (the xpub of "
    + "m/44'/60'/0'/0 with the wallet's key gives the Swarm key at /1)"
  /// desktop's `vault-meta.json`: given, or found beside the vault.
  let vaultMetaPath: String?

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    printsJSON = arguments.flag(Self.json)
    var options = ProfileReport.Options()
    options.includesSecrets = arguments.flag(Self.includeSecrets)
    let accounts = 0...Self.maximumAccounts
    options.walletCount = try arguments.integer(Self.wallets, in: accounts) ?? 0
    options.publisherCount = try arguments.integer(Self.publishers, in: accounts) ?? 0
    options.networkID = try arguments.value(Self.networkID) ?? options.networkID
    options.overlayNonce = try arguments.value(Self.overlayNonce) ?? options.overlayNonce

    let explicitMeta = arguments.value(Self.vaultMeta)
    if explicitMeta == "" { throw arguments.usage("--vault-meta <path> is empty") }
    if explicitMeta != nil, arguments.value(Self.path) != nil {
      throw arguments.usage("--vault-meta cannot be combined with --path")
    }
    vaultMetaPath =
      explicitMeta
      ?? (arguments.value(Self.path) == nil
        ? input.vaultPath.flatMap { UserFiles.vaultMeta(besideVault: $0) } : nil)

    options.experimental = try Self.experimentalKeys(arguments)
    self.options = options
    if options.experimental != nil, arguments.value(Self.path) != nil {
      throw arguments.usage("--experimental cannot be combined with --path")
    }

    let curveName = arguments.value(Self.curve)
    printsXPub = arguments.flag(Self.xpub) || options.includesSecrets
    guard let pathText = arguments.value(Self.path) else {
      if curveName != nil { throw arguments.usage("--curve <curve> only applies with --path") }
      if arguments.flag(Self.xpub) { throw arguments.usage("--xpub only applies with --path") }
      singleKey = nil
      return
    }
    for option in [Self.wallets, Self.publishers, Self.networkID.option, Self.overlayNonce.option]
    where arguments.value(option) != nil {
      throw arguments.usage("--\(option.name) cannot be combined with --path")
    }
    guard let curve = ProfileReport.Curve(rawValue: curveName ?? "secp256k1") else {
      throw arguments.usage("--curve must be secp256k1 or ed25519")
    }
    let path: DerivationPath
    do {
      path = try DerivationPath(pathText)
    } catch {
      throw arguments.usage("invalid --path: \(error)")
    }
    if curve == .ed25519, arguments.flag(Self.xpub) {
      throw arguments.usage("--xpub only applies with --curve secp256k1: SLIP-0010 has no xpub")
    }
    if curve == .ed25519, let offset = path.components.firstIndex(where: { !$0.isHardened }) {
      // SLIP-0010 would refuse it too; saying so now spares typing the mnemonic first.
      throw arguments.usage(
        KeyDerivationError.nonHardenedEd25519(position: offset + 1, path: path).description)
    }
    singleKey = (path, curve)
  }

  /// The --experimental selection, or nil without --experimental (then its options are refused).
  private static func experimentalKeys(_ arguments: ParsedArguments) throws(CLIError)
    -> ExperimentalAccount.Selection?
  {
    let options = [railgunIndex, ppv2Index, railgunProfile, railgunUserData]
    guard arguments.flag(experimental) else {
      if let given = options.first(where: { arguments.value($0) != nil }) {
        throw arguments.usage("--\(given.name) only applies with --experimental")
      }
      return nil
    }
    let profile: ExperimentalAccount.RailgunProfile?
    switch (arguments.value(railgunProfile), arguments.value(railgunUserData)) {
    case (nil, nil): profile = nil
    case (let id?, let directory?):
      if id.isEmpty { throw arguments.usage("--railgun-profile <id> is empty") }
      if directory.isEmpty { throw arguments.usage("--railgun-user-data <dir> is empty") }
      profile = ExperimentalAccount.RailgunProfile(id: id, userDataDirectory: directory)
    default:
      throw arguments.usage("--railgun-profile and --railgun-user-data must be given together")
    }
    return ExperimentalAccount.Selection(
      railgunIndexes: try indexes(arguments, railgunIndex),
      ppv2Indexes: try indexes(arguments, ppv2Index), railgunProfile: profile)
  }

  /// A list of account indexes such as `0,5,10-19` (ascending, each once); `[0]` when not given.
  private static func indexes(_ arguments: ParsedArguments, _ option: Option) throws(CLIError)
    -> [UInt32]
  {
    guard let text = arguments.value(option) else { return [0] }
    do {
      return try ExperimentalAccount.indexes(text, limit: maximumAccounts)
    } catch {
      switch error {
      case .invalid:
        let range = ExperimentalAccount.indexRange
        throw arguments.usage(
          "\(option.synopsis) must list indexes \(range.lowerBound) to \(range.upperBound), "
            + "separated by commas, or ranges such as 0-9")
      case .tooMany(let limit):
        throw arguments.usage("\(option.synopsis) may name at most \(limit) accounts")
      }
    }
  }

  /// The `vault-meta.json` at `path`; nothing in it is secret.
  private static func readVaultMeta(_ path: String) throws -> DesktopVaultMeta {
    guard let meta = try UserFiles.vaultMeta(path) else {
      throw CLIError.failure("\(path) does not exist; check --vault-meta")
    }
    return meta
  }

  func run() throws {
    // The metadata is public and read first: a bad file fails before any secret is asked for.
    var options = options
    options.vaultMeta = try vaultMetaPath.map { ($0, try Self.readVaultMeta($0)) }
    let (mnemonic, seed) = try input.readSeed()
    let report =
      if let singleKey {
        try ProfileReport(
          path: singleKey.path, curve: singleKey.curve, seed: seed,
          includesSecrets: options.includesSecrets,
          includesExtendedPublicKey: printsXPub && singleKey.curve == .secp256k1)
      } else {
        try ProfileReport(mnemonic: mnemonic, seed: seed, options: options)
      }
    Output.standardOutput(
      printsJSON ? JSONValue.object(report.json).rendered() + "\n" : report.text.rendered)
    if report.json.members.contains(where: { $0.key == "xpub" }) {
      Output.warning(Self.xpubExposure)
    }
  }
}

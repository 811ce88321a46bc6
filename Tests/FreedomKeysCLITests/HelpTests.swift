import Testing

@Suite("Help and version")
struct HelpTests {
  static let rootHelp = """
    OVERVIEW: Derive the Freedom browser's node identities from one BIP-39 mnemonic.

    USAGE: freedom-keys <subcommand>

    OPTIONS:
      --version   Show the version.
      -h, --help  Show help information.

    SUBCOMMANDS:
      derive      Print the wallet, Swarm, IPFS and Radicle keys of a mnemonic.
      mnemonic    Generate a new mnemonic or check one before using it.
      export      Write the key files of bee, kubo, Ant, antd, Radicle or Freedom.
      verify      Check that node directories hold the identities of a mnemonic.
      undo        Put back what the last change of a node directory kept aside.
      recover     Find the unreadable, missing, misspelt or swapped words.
      keystore    Inspect Web3 Secret Storage (v3) key files, such as swarm.key.
      help        Show the help of a command ('help export bee').

      See 'freedom-keys <subcommand> --help' for detailed help.

    """

  static let deriveHelp = """
    OVERVIEW: Print the wallet, Swarm, IPFS and Radicle keys of a mnemonic.

    USAGE: freedom-keys derive [<options>]

    OPTIONS:
      --mnemonic-file <path>        Read the mnemonic from <path> ('-': stdin).
      --vault-file <path>           Or open it from desktop Freedom's vault <path>.
      --metamask-vault <path>       Or open it from MetaMask's vault <path>.
      --vault-password-file <path>  Read the vault password from <path>.
      --passphrase-file <path>      Read the BIP-39 passphrase from <path>.
      --language <name>             Use this wordlist instead of detecting it.
      --json                        Print JSON instead of a summary.
      --include-secrets             Also print the seed and the private keys.
      --wallets <n>                 Also list wallets m/44'/60'/i'/0/0 for i < n.
      --publishers <n>              Also list publishers m/44'/73406'/i'/0/0, i < n.
      --network-id <n>              Swarm network ID (default 1; testnet 10).
      --overlay-nonce <hex>         Swarm overlay nonce: 64 hex digits (default 0).
      --path <path>                 Print only the key at <path> (m/44'/60'/0'/0/0).
      --xpub                        With --path: print its xpub too (see below).
      --curve <curve>               secp256k1 (BIP-32, default), ed25519 (SLIP-10).
      --vault-meta <path>           Also list desktop's vault-meta.json wallets.
      --experimental                Also list desktop's experimental private keys.
      --railgun-index <list>        Railgun accounts (default 0): 0,5 or 0-9.
      --ppv2-index <list>           Kohaku PPv2 accounts (default 0): 0,5 or 0-9.
      --railgun-profile <id>        Desktop profile id for Railgun storage roots.
      --railgun-user-data <dir>     Its userData directory, as desktop names it.
      -h, --help                    Show help information.

    The mnemonic is never read from the command line: without --mnemonic-file or
    --vault-file it is asked for with echo off; scripts pass --mnemonic-file PATH or
    pipe it with --mnemonic-file -. --vault-file reads desktop Freedom's
    identity-vault.json; its password comes from --vault-password-file or is asked
    for with echo off. A password or passphrase file loses one trailing newline,
    nothing else. English words may be written as their first four letters.
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

    """

  @Test(arguments: [["--help"], ["-h"], ["help"]])
  func toolHelp(arguments: [String]) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 0)
    #expect(run.stdout == Self.rootHelp)
    #expect(run.stderr == "")
  }

  @Test(arguments: [
    ["derive", "--help"], ["derive", "-h"], ["derive", "--json", "--help"],
    // Help wins over everything else on the line, even words that must otherwise be refused.
    ["derive", "--bogus", "-h"], ["derive", "abandon", "--help"],
    ["help", "derive"],
  ])
  func deriveHelp(arguments: [String]) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 0)
    #expect(run.stdout == Self.deriveHelp)
    #expect(run.stderr == "")
  }

  /// `help WORDS…` prints exactly what `WORDS… --help` prints, for every command.
  @Test func helpCommandMatchesHelpOption() throws {
    for words in try CommandTree.allCommands() {
      let option = try CLI.run(words + ["--help"])
      let command = try CLI.run(["help"] + words)
      #expect(command.status == 0, "\(words)")
      #expect(command.stderr == "")
      #expect(command.stdout == option.stdout, "\(words)")
    }
    #expect(try CLI.run(["help", "help"]).stdout == (try CLI.run(["help", "--help"])).stdout)
  }

  @Test(arguments: [
    (
      ["help", "derve"],
      "unknown command 'derve': did you mean 'derive'? (see 'freedom-keys --help')"
    ),
    (["help", "export", "ipfs"], "unknown command 'ipfs' (see 'freedom-keys export --help')"),
    (["help", "derive", "--json"], "unknown option '--json' (see 'freedom-keys help --help')"),
    (["help", "derive", "extra"], "unknown command 'extra' (see 'freedom-keys help --help')"),
  ])
  func helpCommandUsageErrors(arguments: [String], message: String) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "freedom-keys: error: " + message + "\n")
  }

  /// A group given no subcommand is a usage error: its help (the list) on stderr, then the
  /// error line, exit 2; nothing on stdout.
  @Test(arguments: [[], ["export"], ["keystore"], ["mnemonic"]])
  func groupWithoutSubcommand(words: [String]) throws {
    let run = try CLI.run(words)
    let help = try CLI.run(words + ["--help"])
    #expect(help.status == 0)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    let path = (["freedom-keys"] + words).joined(separator: " ")
    #expect(
      run.stderr
        == help.stdout + "\nfreedom-keys: error: missing subcommand (see '\(path) --help')\n")
    #expect(run.stderr.contains("SUBCOMMANDS:\n"))
  }

  @Test func helpLinesFitEightyColumns() throws {
    for text in [Self.rootHelp, Self.deriveHelp] {
      for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    }
  }

  @Test func version() throws {
    let run = try CLI.run(["--version"])
    #expect(run.status == 0)
    #expect(run.stdout == "freedom-keys 0.1.0\n")
    #expect(run.stderr == "")
  }
}

import Testing

/// Mistakes on the command line: exit status 2, nothing on stdout, one line on stderr that
/// points at the right help.
@Suite("Usage errors")
struct UsageErrorTests {
  static let deriveHint = " (see 'freedom-keys derive --help')\n"
  static let refusal =
    "freedom-keys: error: the mnemonic is never accepted on the command line (it would land in "
    + "shell history and `ps`): put it in a file and pass --mnemonic-file PATH, or pipe it with "
    + "--mnemonic-file -" + deriveHint

  struct Case: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(arguments: ["derive", "--bogus"], message: "unknown option '--bogus'"),
    Case(arguments: ["derive", "-x"], message: "unknown option '-x'"),
    Case(arguments: ["derive", "--wallets"], message: "missing value for --wallets <n>"),
    Case(
      arguments: ["derive", "--mnemonic-file", "--json"],
      message: "missing value for --mnemonic-file <path>"),
    Case(
      arguments: ["derive", "--wallets", "two"],
      message: "--wallets <n> must be a whole number from 0 to 1000"),
    Case(
      arguments: ["derive", "--publishers=1001"],
      message: "--publishers <n> must be a whole number from 0 to 1000"),
    Case(
      arguments: ["derive", "--wallets", "-1"],
      message: "--wallets <n> must be a whole number from 0 to 1000"),
    Case(
      arguments: ["derive", "--network-id=+5"],
      message: "--network-id <n> must be a whole number from 0 to 18446744073709551615"),
    Case(
      arguments: ["derive", "--network-id", "18446744073709551616"],
      message: "--network-id <n> must be a whole number from 0 to 18446744073709551615"),
    Case(arguments: ["derive", "--json=yes"], message: "--json does not take a value"),
    Case(
      arguments: ["derive", "--json", "--json"], message: "--json was given more than once"),
    Case(
      arguments: ["derive", "--overlay-nonce", "00"],
      message: "--overlay-nonce <hex> must be 64 hex digits (32 bytes)"),
    Case(
      arguments: ["derive", "--overlay-nonce", String(repeating: "g", count: 64)],
      message: "--overlay-nonce <hex> must be 64 hex digits (32 bytes)"),
    Case(
      arguments: ["derive", "--curve", "ed25519"],
      message: "--curve <curve> only applies with --path"),
    Case(
      arguments: ["derive", "--path", "m/0'", "--curve", "ed448"],
      message: "--curve must be secp256k1 or ed25519"),
    Case(
      arguments: ["derive", "--path", "m/0'", "--wallets", "2"],
      message: "--wallets cannot be combined with --path"),
    Case(
      arguments: ["derive", "--language", "klingon"],
      message: "unknown language 'klingon'; expected one of english, japanese, korean, spanish, "
        + "chinese_simplified, chinese_traditional, french, italian, czech, portuguese"),
    Case(
      arguments: ["derive", "--mnemonic-file", "-", "--passphrase-file", "-"],
      message: "--mnemonic-file and --passphrase-file cannot both read standard input"),
    Case(
      arguments: ["derive"],
      message: "standard input is not a terminal, so the mnemonic cannot be asked for: "
        + "pass --mnemonic-file PATH, or pipe it with --mnemonic-file -"),
  ]

  @Test(arguments: cases)
  func derive(_ usage: Case) throws {
    let run = try CLI.run(usage.arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "freedom-keys: error: " + usage.message + Self.deriveHint)
  }

  @Test(arguments: [["derve"], ["derve", "--help"], ["derve", "-h"]])
  func unknownCommand(_ arguments: [String]) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: unknown command 'derve': did you mean 'derive'? "
        + "(see 'freedom-keys --help')\n")
  }

  @Test(arguments: [
    (["export", "bea"], "unknown command 'bea': did you mean 'bee'?", "export"),
    (["recover", "colect"], "unknown command 'colect': did you mean 'collect'?", "recover"),
    (
      ["export", "bee", "--data-dri", "x"],
      "unknown option '--data-dri': did you mean '--data-dir'?",
      "export bee"
    ),
    (["verify", "--bee", "x"], "unknown option '--bee': did you mean '--bee-dir'?", "verify"),
    (["recover", "--typo", "2"], "unknown option '--typo': did you mean '--typos'?", "recover"),
    (
      ["export", "ant", "--frce"], "unknown option '--frce': did you mean '--force'?", "export ant"
    ),
    // An output path is no secret: only the nearest name.
    (
      ["export", "kubo", "--key", "k"], "unknown option '--key': did you mean '--key-file'?",
      "export kubo"
    ),
    // Nothing near: no guess.
    (["export", "bee", "--color"], "unknown option '--color'", "export bee"),
  ])
  func aNearMissNamesTheNearestName(arguments: [String], message: String, command: String) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr == "freedom-keys: error: \(message) (see 'freedom-keys \(command) --help')\n")
  }

  @Test(arguments: [
    (["export", "bee", "--data-dir=~/bee"], "--data-dir '~/bee'", "$HOME/bee", "./~/bee", "~"),
    (["verify", "--bee-dir", "~"], "--bee-dir '~'", "$HOME", "./~", "~"),
    (
      ["derive", "--mnemonic-file=~alice/words.txt"], "--mnemonic-file '~alice/words.txt'",
      "the full path of alice's home", "./~alice/words.txt", "~alice"
    ),
  ])
  func aTildeTheShellLeftIsNotTakenForADirectory(
    arguments: [String], given: String, home: String, literal: String, name: String
  ) throws {
    // `--data-dir=~/bee` reaches us as it is: taken as given, it would make ./~/bee.
    let run = try CLI.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "freedom-keys: error: \(given) begins with '~', which the shell did not expand (it does "
          + "not after '=' or in quotes): write \(home), or \(literal) for a directory named "
          + "'\(name)' (see 'freedom-keys "), "\(run.stderr)")
  }

  @Test(arguments: [
    (["derive", "--mnemonic", "x"], "mnemonic", "derive"),
    (["export", "bee", "--password", "x"], "password", "export bee"),
    (["derive", "--passphrase", "x"], "passphrase", "derive"),
    (["derive", "--vault-password", "x"], "vault-password", "derive"),
  ])
  func aSecretOptionPointsToItsFileOption(arguments: [String], name: String, command: String)
    throws
  {
    let run = try CLI.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: unknown option '--\(name)': a secret is never taken on the "
        + "command line (it would land in shell history and `ps`); put it in a file and pass "
        + "--\(name)-file PATH, or pipe it with --\(name)-file - (see 'freedom-keys \(command) "
        + "--help')\n")
    #expect(!run.stderr.contains(" x"))
  }

  @Test func unknownSubcommandOfAGroup() throws {
    let run = try CLI.run(["export", "ipfs", "--help"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: unknown command 'ipfs' (see 'freedom-keys export --help')\n")
  }

  @Test func optionsBelongToTheirCommand() throws {
    let run = try CLI.run(["--json"])
    #expect(run.status == 2)
    #expect(
      run.stderr == "freedom-keys: error: unknown option '--json' (see 'freedom-keys --help')\n")
  }

  static let words = Array(repeating: "abandon", count: 11) + ["about"]

  /// Typing the words as arguments is refused, and the words are not repeated anywhere.
  @Test(arguments: [
    ["derive"] + words,
    ["derive", "--json"] + words,
    ["derive", "--mnemonic-file", "-"] + words,
    ["derive", "--"] + words,
    ["derive", "--language", "english"] + words,
    ["derive", "--wallets", "abandon"] + words,
  ])
  func mnemonicOnTheCommandLine(arguments: [String]) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == Self.refusal)
    #expect(!run.stderr.contains("abandon") && !run.stderr.contains("about"))
  }

  @Test func wordsWhereACommandBelongsAreNotEchoed() throws {
    let run = try CLI.run(Self.words)
    #expect(run.status == 2)
    #expect(run.stderr == "freedom-keys: error: unknown command (see 'freedom-keys --help')\n")
  }

  @Test func aValueGivenToAnUnknownOptionIsNotEchoed() throws {
    let run = try CLI.run(["derive", "--mnemonic=abandon abandon about"])
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("freedom-keys: error: unknown option '--mnemonic': a secret "))
    #expect(!run.stderr.contains("abandon") && !run.stderr.contains("about"))
  }
}

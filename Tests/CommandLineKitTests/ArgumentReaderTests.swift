import CommandLineKit
import Testing

/// The parser on its own: what a command line asks for, and each usage error's words.
@Suite("command-line framework: parsing")
struct ArgumentParserTests {
  func parse(_ arguments: [String]) throws(CLIError) -> Invocation {
    try ArgumentReader.parse(arguments, of: Toy.tool)
  }

  /// The usage error `arguments` give, as the tool prints it.
  func usage(_ arguments: [String]) -> String? {
    do {
      _ = try parse(arguments)
      return nil
    } catch {
      #expect(error.exitStatus == 2)
      return error.description
    }
  }

  func seal(_ arguments: [String]) throws -> Seal {
    guard case .run(let command) = try parse(["seal"] + arguments), let seal = command as? Seal
    else { throw CLIError.failure("not seal") }
    return seal
  }

  @Test func typedOptionsAndAliases() throws {
    let seal = try seal(["--rounds", "7", "--colour=green", "--output", "out", "--json"])
    #expect(seal.rounds == 7)
    #expect(seal.colour == .green)
    #expect(seal.outDir == "out")
    #expect(seal.json)
    let defaults = try self.seal([])
    #expect(defaults.rounds == nil && defaults.colour == .red && !defaults.json)
  }

  @Test func valuesThatAreNotTheirTypeAreRefusedSayingWhatTheyMustBe() {
    #expect(
      usage(["seal", "--rounds", "21"])
        == "--rounds <n> must be a whole number from 1 to 20 (see 'toy seal --help')")
    #expect(usage(["seal", "--rounds", "+7"])?.hasPrefix("--rounds <n> must be") == true)
    #expect(usage(["seal", "--rounds", "0x7"])?.hasPrefix("--rounds <n> must be") == true)
    #expect(
      usage(["seal", "--colour", "blue"])
        == "--colour <name> must be red or green (see 'toy seal --help')")
    #expect(usage(["seal", "--out-dir", ""]) == "--out-dir <dir> is empty (see 'toy seal --help')")
  }

  @Test func anOptionGivenTwiceOrByTwoNamesIsRefused() {
    #expect(
      usage(["seal", "--json", "--json"])
        == "--json was given more than once (see 'toy seal --help')")
    #expect(
      usage(["seal", "--out-dir", "a", "--output", "b"])
        == "--out-dir and --output name the same directory: give one (see 'toy seal --help')")
  }

  @Test func unknownOptionsSuggestTheNearestAndNeverEchoAValue() {
    #expect(
      usage(["seal", "--rouns", "3"])
        == "unknown option '--rouns': did you mean '--rounds'? (see 'toy seal --help')")
    // An exchange of two neighbours is one edit.
    #expect(usage(["seal", "--josn"])?.contains("did you mean '--json'?") == true)
    // The start of a longer name.
    #expect(usage(["seal", "--out"])?.contains("did you mean '--out-dir'?") == true)
    #expect(usage(["seal", "--zzzzzz"]) == "unknown option '--zzzzzz' (see 'toy seal --help')")
    let secret = usage(["seal", "--nothing=hunter2"])
    #expect(secret?.contains("hunter2") == false)
  }

  @Test func aSecretIsNeverTakenOnTheCommandLine() {
    let message = usage(["seal", "--key", "hunter2"])
    #expect(message?.contains("hunter2") == false)
    #expect(
      message?.hasPrefix(
        "unknown option '--key': a secret is never taken on the command line") == true)
    #expect(message?.contains("pass --key-file PATH, or pipe it with --key-file -") == true)
    // Words a command with the secret's file option was given may be the secret: not echoed.
    let words = usage(["seal", "correct", "horse"])
    #expect(words?.hasPrefix("the key is never accepted on the command line") == true)
    #expect(words?.contains("horse") == false)
  }

  @Test func subcommandsGroupsAndArguments() throws {
    guard case .run(let queue) = try parse(["queue", "--all"]) else {
      Issue.record("queue runs itself")
      return
    }
    #expect(queue is Queue)
    guard case .run(let drain) = try parse(["queue", "drain", "q1"]) else {
      Issue.record("drain runs")
      return
    }
    #expect((drain as? Drain)?.name == "q1")
    #expect(usage(["queue", "drain"]) == "missing <name> (see 'toy queue drain --help')")
    #expect(
      usage(["queue", "drain", "a", "b"])
        == "unexpected argument 'b' (see 'toy queue drain --help')")
    guard case .missingSubcommand(let node, let error) = try parse([]) else {
      Issue.record("the root is a group")
      return
    }
    #expect(node.isRoot)
    #expect(error.description == "missing subcommand (see 'toy --help')")
    #expect(usage(["sael"]) == "unknown command 'sael': did you mean 'seal'? (see 'toy --help')")
    #expect(usage(["two", "words"]) == "unknown command (see 'toy --help')")
  }

  @Test func helpVersionAndTheToolsOwnActions() throws {
    guard case .help(let node) = try parse(["queue", "drain", "--help"]),
      case .help(let same) = try parse(["help", "queue", "drain"])
    else {
      Issue.record("help")
      return
    }
    #expect(node.commandPath == "toy queue drain" && same.commandPath == "toy queue drain")
    guard case .version = try parse(["--version"]) else {
      Issue.record("version")
      return
    }
    guard case .manualPages(let directory) = try parse(["--generate-manual=man"]),
      case .completionScript(let shell) = try parse(["--generate-completion-script", "fish"])
    else {
      Issue.record("tool actions")
      return
    }
    #expect(directory == "man" && shell == .fish)
    #expect(
      usage(["--generate-completion-script", "tcsh"])
        == "--generate-completion-script <shell> must be bash, zsh or fish (see 'toy --help')")
    // A mistyped command is an error beside --help too: a typo must not look like success.
    #expect(usage(["sael", "--help"])?.hasPrefix("unknown command 'sael'") == true)
  }

  @Test func aTildeTheShellLeftIsRefused() {
    #expect(
      usage(["seal", "--out-dir=~/x"])
        == "--out-dir '~/x' begins with '~', which the shell did not expand (it does not after "
        + "'=' or in quotes): write $HOME/x, or ./~/x for a directory named '~' "
        + "(see 'toy seal --help')")
  }
}

import CommandLineKit
import Testing

/// Help, man pages and completion scripts are made from the declarations alone.
@Suite("command-line framework: help, man pages, completions")
struct GeneratedTextTests {
  @Test func helpListsOptionsAliasesAndTheDiscussion() throws {
    guard case .help(let node) = try ArgumentReader.parse(["seal", "-h"], of: Toy.tool) else {
      Issue.record("help")
      return
    }
    #expect(
      HelpText.render(node) == """
        OVERVIEW: Seal something.

        USAGE: toy seal [<options>]

        OPTIONS:
          --key-file <path>  Read the key from <path>.
          --rounds <n>       How many rounds.
          --colour <name>    The colour.
          --out-dir <dir>    Where to write.
          --output <dir>     The same as --out-dir.
          --json             Print JSON.
          -h, --help         Show help information.

        First paragraph
        wraps.

        Second.

        """)
  }

  @Test func theRootListsSubcommandsAndVersion() {
    let help = HelpText.render(Toy.tool.rootNode)
    #expect(help.contains("USAGE: toy <subcommand>\n"))
    // One column width for options and subcommands alike.
    #expect(help.contains("OPTIONS:\n  --version   Show the version.\n  -h, --help  Show help"))
    #expect(
      help.contains("SUBCOMMANDS:\n  seal        Seal something.\n  queue       Show the queue.\n"))
    #expect(help.contains("See 'toy <subcommand> --help' for detailed help."))
  }

  @Test func manPagesOnePerCommandWithoutHelp() {
    let pages = ManualPages.pages(of: Toy.tool)
    #expect(pages.map(\.fileName) == ["toy.1", "toy-seal.1", "toy-queue.1", "toy-queue-drain.1"])
    let seal = pages[1].text
    #expect(seal.hasPrefix(".TH TOY-SEAL 1 \"\" \"toy 9.8.7\" \"User Commands\"\n"))
    #expect(seal.contains(".BI \"\\-\\-out\\-dir \" dir\nWhere to write.\n"))
    #expect(seal.contains(".PP\nFirst paragraph wraps.\n.PP\nSecond.\n"))
    #expect(seal.contains(".SH EXIT STATUS\n0 on success.\n.SH SEE ALSO\n.BR toy (1)\n"))
    #expect(pages[2].text.contains(".SH SEE ALSO\n.BR toy (1),\n.BR toy\\-queue\\-drain (1)\n"))
  }

  @Test func completionScriptsNameTheToolAndEveryOption() {
    let bash = CompletionScript.script(for: .bash, of: Toy.tool)
    #expect(bash.contains("complete -F _toy toy\n"))
    #expect(bash.contains("'toy seal')\n"))
    #expect(bash.contains("--key-file --rounds --colour --out-dir --output --json --help -h"))
    #expect(bash.contains("compgen -W 'red green'"))
    let zsh = CompletionScript.script(for: .zsh, of: Toy.tool)
    #expect(zsh.hasPrefix("#compdef toy\n"))
    #expect(zsh.contains("'drain:Empty the queue.'"))
    let fish = CompletionScript.script(for: .fish, of: Toy.tool)
    #expect(fish.contains("complete -c toy -n '__toy_at \"toy seal\"' -l out-dir -x -a"))
    // `help` takes the command words, and only them.
    #expect(fish.contains("'__toy_at \"toy help queue\"' -a 'drain'"))
  }
}

import Foundation
import TestSupport
import Testing

/// `freedom-keys --generate-completion-script bash|zsh|fish`, loaded into the real shells.
@Suite("Shell completion")
struct CompletionTests {
  static func script(_ shell: String, in scratch: TemporaryDirectory) throws -> String {
    let run = try CLI.run(["--generate-completion-script", shell])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    return try scratch.file("freedom-keys." + shell, run.stdout, mode: 0o644)
  }

  /// What bash's completion function offers for `words` (the last one being completed).
  static func bash(_ words: [String], script: String) throws -> [String] {
    let bash = try #require(Program.find("bash"), "bash is missing")
    let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
    let run = try Program.run(
      bash,
      [
        "--norc", "--noprofile", "-c",
        "source \"$0\" && COMP_WORDS=(\(quoted)) && COMP_CWORD=\(words.count - 1) && "
          + "complete -p freedom-keys >/dev/null && _freedom_keys && "
          + "printf '%s\\n' \"${COMPREPLY[@]}\"",
        script,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr == "")
    return run.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesSubcommandsOptionsAndValues() throws {
    let scratch = try TemporaryDirectory()
    let script = try Self.script("bash", in: scratch)
    #expect(try Self.bash(["freedom-keys", "ex"], script: script) == ["export"])
    #expect(
      try Self.bash(["freedom-keys", ""], script: script)
        == ["derive", "mnemonic", "export", "verify", "undo", "recover", "keystore", "help"])
    #expect(
      try Self.bash(["freedom-keys", "export", ""], script: script)
        == ["bee", "kubo", "ant", "radicle", "antd", "freedom"])
    #expect(try Self.bash(["freedom-keys", "mnemonic", "c"], script: script) == ["check"])
    #expect(
      try Self.bash(["freedom-keys", "export", "bee", "--data"], script: script) == ["--data-dir"])
    #expect(
      try Self.bash(["freedom-keys", "derive", "--json", "--include"], script: script)
        == ["--include-secrets"])
    #expect(
      try Self.bash(["freedom-keys", "derive", "--language", "ja"], script: script) == ["japanese"])
    #expect(
      try Self.bash(["freedom-keys", "derive", "--curve", ""], script: script)
        == ["secp256k1", "ed25519"])
    #expect(try Self.bash(["freedom-keys", "help", "export", "k"], script: script) == ["kubo"])
    // A value of --mnemonic-file is a file name: the scratch directory holds the script itself.
    let prefix = scratch.url.path + "/freedom-keys.b"
    #expect(
      try Self.bash(["freedom-keys", "derive", "--mnemonic-file", prefix], script: script)
        == [scratch.url.path + "/freedom-keys.bash"])
    #expect(try Self.bash(["freedom-keys", "derive", "--wallets", ""], script: script) == [])
  }

  /// Every command of the tree and every option of its --help is offered by bash.
  @Test func bashOffersTheWholeTree() throws {
    let scratch = try TemporaryDirectory()
    let script = try Self.script("bash", in: scratch)
    for words in try CommandTree.allCommands() {
      let subcommands = try CommandTree.subcommands(of: words)
      if !subcommands.isEmpty {
        #expect(try Self.bash(["freedom-keys"] + words + [""], script: script) == subcommands)
      }
      let options = try Self.bash(["freedom-keys"] + words + ["--"], script: script)
      #expect(options == (try CommandTree.options(of: words)), "\(words)")
    }
  }

  static let zshAvailable = Program.find("zsh") != nil

  /// What the zsh function hands to compsys for `words`: the completion system's functions are
  /// replaced by ones that print what they were given, as zsh's completion runs only inside
  /// the line editor.
  static func zsh(_ words: [String], script: String) throws -> [String] {
    let zsh = try #require(Program.find("zsh"))
    let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
    let run = try Program.run(
      zsh,
      [
        "-f", "-c",
        """
        compdef() { print -r -- "compdef $*" }
        _describe() { print -rl -- "${(@P)${@[-1]}}" }
        compadd() { shift; print -rl -- "$@" }
        _files() { print -r -- "_files $*" }
        _message() { print -r -- "_message $*" }
        source "$0" || exit 1
        words=(\(quoted)); CURRENT=\(words.count)
        _freedom_keys
        """,
        script,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr == "")
    return run.stdout.split(separator: "\n").map(String.init)
  }

  @Test(.enabled(if: zshAvailable, "zsh is not installed (apt-get install -y zsh)"))
  func zshCompletesSubcommandsOptionsAndValues() throws {
    let scratch = try TemporaryDirectory()
    let script = try Self.script("zsh", in: scratch)
    #expect(
      try Self.zsh(["freedom-keys", ""], script: script).first
        == "compdef _freedom_keys freedom-keys")
    let top = try Self.zsh(["freedom-keys", "ex"], script: script)
    #expect(top.contains("export:Write the key files of bee, kubo, Ant, antd, Radicle or Freedom."))
    #expect(top.contains("help:Show the help of a command ('help export bee')."))
    let bee = try Self.zsh(["freedom-keys", "export", "bee", "--"], script: script)
    #expect(bee.contains("--data-dir:bee's data directory (--data-dir)."))
    #expect(bee.contains("-h:Show help information."))
    #expect(
      try Self.zsh(["freedom-keys", "export", "bee", "--data-dir", ""], script: script).last
        == "_files -/")
    #expect(
      try Self.zsh(["freedom-keys", "derive", "--mnemonic-file", ""], script: script).last
        == "_files ")
    #expect(
      try Self.zsh(["freedom-keys", "mnemonic", "generate", "--language", ""], script: script)
        .suffix(10)
        == [
          "english", "japanese", "korean", "spanish", "chinese_simplified", "chinese_traditional",
          "french", "italian", "czech", "portuguese",
        ])
    #expect(
      try Self.zsh(["freedom-keys", "help", "mnemonic", ""], script: script).suffix(2)
        == [
          "generate:Create a new mnemonic from secure random entropy.",
          "check:Check a mnemonic's words, count and checksum.",
        ])
  }

  static let fishAvailable = Program.find("fish") != nil

  /// What fish's own completion engine (`complete -C`) offers for a command line.
  static func fish(_ line: String, script: String) throws -> [String] {
    let fish = try #require(Program.find("fish"))
    let run = try Program.run(
      fish, ["--no-config", "-c", "source $argv[1]; and complete -C $argv[2]", script, line])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr == "")
    return run.stdout.split(separator: "\n").map(String.init)
  }

  @Test(.enabled(if: fishAvailable, "fish is not installed (apt-get install -y fish)"))
  func fishCompletesSubcommandsOptionsAndValues() throws {
    let scratch = try TemporaryDirectory()
    let script = try Self.script("fish", in: scratch)
    #expect(
      try Self.fish("freedom-keys exp", script: script)
        == ["export\tWrite the key files of bee, kubo, Ant, antd, Radicle or Freedom."])
    #expect(
      try Self.fish("freedom-keys export bee --data", script: script)
        == ["--data-dir\tbee's data directory (--data-dir)."])
    #expect(
      try Self.fish("freedom-keys derive --language j", script: script)
        == ["japanese\tUse this wordlist instead of detecting it."])
    #expect(
      try Self.fish("freedom-keys help mnemonic ", script: script)
        == [
          "check\tCheck a mnemonic's words, count and checksum.",
          "generate\tCreate a new mnemonic from secure random entropy.",
        ])
    let scratchPrefix = scratch.url.path + "/freedom-keys.f"
    #expect(
      try Self.fish("freedom-keys derive --mnemonic-file " + scratchPrefix, script: script)
        == [scratch.url.path + "/freedom-keys.fish"])
  }

  @Test(arguments: [
    ["--generate-completion-script"], ["--generate-completion-script", "tcsh"],
    ["--generate-completion-script=powershell"], ["--generate-completion-script", "bash", "zsh"],
  ])
  func usageErrors(_ arguments: [String]) throws {
    let run = try CLI.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("freedom-keys: error: "))
    #expect(run.stderr.hasSuffix(" (see 'freedom-keys --help')\n"))
  }
}

import CommandLineKit
import FreedomNodes
import Recovery
import VaultKeys

/// `freedom-keys mnemonic check`: whether a mnemonic is valid, and if not, which word or count
/// is wrong — without ever printing the phrase.
struct MnemonicCheckCommand: Command {
  static let json = SharedOptions.json(help: "Print the verdict as JSON.")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "check",
      abstract: "Check a mnemonic's words, count and checksum.",
      discussion: MnemonicOptions.discussion + "\n" + """
        Prints "valid — 24 words, english" and exits 0, or names what is wrong (a word
        in no wordlist with the nearest words, the word count, the checksum, mixed
        wordlists) and exits 1, ending with the 'freedom-keys recover' command that
        finds the right words when a misspelt or missing word, a wrong checksum or
        recover's own syntax (? and ab*) is the problem: plain recover with a target,
        whose automatic phases try the likeliest damage first (a swap, one, two or
        three close words, one or two wrong words, a missing word), or --missing 2
        for a phrase two words short; a word recover cannot place is to be written
        as ? first, as the line says. The phrase itself is never printed.
        --json prints {"valid", "language", "words", "expandedAbbreviations",
        "error", "recover"}; "language" is left out when it is unknown, "error" when
        the phrase is valid, "recover" when no recover command applies.
        """,
      options: MnemonicOptions.phraseOnly + [json])
  }

  let input: MnemonicOptions
  let printsJSON: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    input = try MnemonicOptions(arguments)
    printsJSON = arguments.flag(Self.json)
  }

  func run() throws {
    let diagnosis = MnemonicDiagnosis(phrase: try input.readPhrase(), language: input.language)
    let message = diagnosis.damagedSyntaxPosition.map {
      "word \($0) is written as recover writes a damaged word (? for a word that cannot be "
        + "read, ab* for a word known by its beginning), which mnemonic check does not read"
    }
    let error = message ?? diagnosis.error?.description
    let repair = diagnosis.repair.map(command)
    if printsJSON {
      var json = diagnosis.json(error: error)
      if let repair { json.append("recover", .string(repair)) }
      Output.standardOutput(JSONValue.object(json).rendered() + "\n")
    } else if diagnosis.error == nil {
      var text = "valid — \(diagnosis.wordCount) words, \(diagnosis.language?.rawValue ?? "")\n"
      if !diagnosis.expandedAbbreviations.isEmpty {
        text += Mnemonic.abbreviationNote(diagnosis.expandedAbbreviations) + "\n"
      }
      Output.standardOutput(text)
    }
    if let error {
      throw CLIError.failure(error + (repair.map { "; to repair it: " + $0 } ?? ""))
    }
  }

  /// The `freedom-keys recover` command line that runs `repair`, after writing `?` for the
  /// words recover cannot place.
  private func command(_ repair: MnemonicDiagnosis.Repair) -> String {
    let file = input.mnemonicPath.flatMap { $0 == "-" ? nil : $0 } ?? "FILE"
    let language = input.language.map { " --language \($0.rawValue)" } ?? ""
    // The automatic phases reach more than the damage seen: no option narrows them.
    let options =
      repair.automatic
      ? ""
      : (repair.missingWords > 0 ? " --missing \(repair.missingWords)" : "")
        + (repair.typos > 0 ? " --typos \(repair.typos)" : "")
        + (repair.allowsSwap ? " --swaps" : "")
    let command =
      "freedom-keys recover --mnemonic-file \(NodeMessage.shellQuoted(file))\(language)\(options) "
      + "--bee-dir DIR (or another target: --address, --peer-id, --kubo-repo, --radicle-home, "
      + "--ant-dir, --freedom-dir)"
    guard let which = repair.unplaceableWords else { return command }
    return
      "write ? for \(which) in \(NodeMessage.shellQuoted(file)) (no word is within two letters "
      + "of \(repair.unplaceable.count == 1 ? "it" : "them")), then run \(command)"
  }
}

import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// `freedom-keys mnemonic generate`: a new mnemonic from libsodium's random generator.
struct MnemonicGenerateCommand: Command {
  static let words = Option.value(
    "words", "n", help: "12, 15, 18, 21 or 24 words (default 24).")
  static let language = SharedOptions.language(help: "The wordlist (default english).")
  static let out = SharedOptions.out(help: "Write it to a new file <path> (mode 0600).")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "generate",
      abstract: "Create a new mnemonic from secure random entropy.",
      discussion: """
        Prints the phrase on standard output: 24 English words unless told otherwise,
        as desktop Freedom creates them. Japanese words are separated by U+3000
        (ideographic space), the others by a space. --out writes the phrase to a new
        file with mode 0600 instead and never replaces an existing file.
        Wordlists: english, japanese, korean, spanish, chinese_simplified,
        chinese_traditional, french, italian, czech, portuguese.
        """,
      options: [words, language, out])
  }

  let wordCount: Int
  let language: Wordlist.Language
  let outputPath: String?

  init(_ arguments: ParsedArguments) throws(CLIError) {
    let wrongCount = arguments.usage("--words <n> must be 12, 15, 18, 21 or 24")
    let count: Int?
    do {
      count = try arguments.integer(Self.words, in: 12...24)
    } catch {
      throw wrongCount
    }
    if let count, !Mnemonic.validWordCounts.contains(count) { throw wrongCount }
    wordCount = count ?? 24
    language =
      try MnemonicOptions.language(arguments.value(Self.language), arguments: arguments)
      ?? .english
    outputPath = arguments.value(Self.out)
    if outputPath == "" { throw arguments.usage("--out <path> must not be empty") }
  }

  func run() throws {
    let mnemonic = try Mnemonic.generate(wordCount: wordCount, language: language)
    let line = mnemonic.phrase() + SecureBytes([0x0A])
    guard let outputPath else {
      try SecretInput.writeToStandardOutput(line, as: SecretSource(role: "mnemonic", path: nil))
      return
    }
    do {
      try UserFiles.write(line, to: outputPath, mode: 0o600, replacing: false)
    } catch .alreadyExists(let path) {
      throw CLIError.failure(
        "\(path) already exists; refusing to overwrite it — choose another path")
    }
    Output.standardOutput(
      "wrote \(wordCount) \(language.rawValue) words to \(outputPath) (mode 0600)\n")
  }
}

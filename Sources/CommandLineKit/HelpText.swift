/// The `--help` text of a command, in swift-argument-parser's layout.
package enum HelpText {
  package static let helpOption = Option.flag("help", help: "Show help information.")
  package static let versionOption = Option.flag("version", help: "Show the version.")

  /// `text` as help lines of at most 78 columns, broken between words (for a paragraph built
  /// from constants rather than typed).
  package static func wrapped(_ text: String) -> String {
    var lines: [String] = []
    for word in text.split(separator: " ") {
      if let last = lines.last, last.count + 1 + word.count <= 78 {
        lines[lines.count - 1] += " " + word
      } else {
        lines.append(String(word))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The help text of `node`'s command.
  package static func render(_ node: CommandNode) -> String {
    let definition = node.definition
    let rows = node.listedOptions.map { option in
      (option == helpOption ? "-h, --help" : option.synopsis, option.help)
    }
    let subcommandRows = definition.subcommands.map {
      ($0.definition.name, $0.definition.abstract)
    }
    let argumentRows =
      definition.argument.map { [("<\($0.valueName ?? $0.name)>", $0.help)] } ?? []
    let width = (rows + subcommandRows + argumentRows).map(\.0.count).max() ?? 0

    func table(_ rows: [(String, String)]) -> String {
      rows.map { name, help in
        "  " + name + String(repeating: " ", count: width - name.count + 2) + help + "\n"
      }.joined()
    }

    var text = "OVERVIEW: \(definition.abstract)\n\n"
    text += "USAGE: \(node.commandPath) \(node.synopsis)\n\n"
    if !argumentRows.isEmpty { text += "ARGUMENTS:\n" + table(argumentRows) + "\n" }
    text += "OPTIONS:\n" + table(rows)
    if node.isGroup {
      text += "\nSUBCOMMANDS:\n" + table(subcommandRows)
      text += "\n  See '\(node.commandPath) <subcommand> --help' for detailed help.\n"
    }
    if !definition.discussion.isEmpty { text += "\n" + definition.discussion + "\n" }
    return text
  }
}

/// The `--help` text of a command, in swift-argument-parser's layout.
enum HelpText {
  static let helpOption = Option.flag("help", help: "Show help information.")
  static let versionOption = Option.flag("version", help: "Show the version.")

  static func render(_ command: any ParsableCommand.Type, commandPath: String, isRoot: Bool)
    -> String
  {
    let configuration = command.configuration
    let isGroup = !configuration.subcommands.isEmpty
    var rows = configuration.options.map { ($0.synopsis, $0.help) }
    if isRoot { rows.append((versionOption.synopsis, versionOption.help)) }
    rows.append(("-h, --help", helpOption.help))
    let subcommandRows = configuration.subcommands.map {
      ($0.configuration.name, $0.configuration.abstract)
    }
    let argumentRows =
      configuration.argument.map { [("<\($0.valueName ?? $0.name)>", $0.help)] } ?? []
    let width = (rows + subcommandRows + argumentRows).map(\.0.count).max() ?? 0

    func table(_ rows: [(String, String)]) -> String {
      rows.map { name, help in
        "  " + name + String(repeating: " ", count: width - name.count + 2) + help + "\n"
      }.joined()
    }

    var text = "OVERVIEW: \(configuration.abstract)\n\n"
    let argumentSynopsis = argumentRows.map { " " + $0.0 }.joined()
    text +=
      "USAGE: \(commandPath) \(isGroup ? "<subcommand>" : "[<options>]")\(argumentSynopsis)\n\n"
    if !argumentRows.isEmpty { text += "ARGUMENTS:\n" + table(argumentRows) + "\n" }
    text += "OPTIONS:\n" + table(rows)
    if isGroup {
      text += "\nSUBCOMMANDS:\n" + table(subcommandRows)
      text += "\n  See '\(commandPath) <subcommand> --help' for detailed help.\n"
    }
    if !configuration.discussion.isEmpty { text += "\n" + configuration.discussion + "\n" }
    return text
  }
}

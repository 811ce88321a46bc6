/// `tool --generate-manual DIR`: tool.1 and one page per command below it (tool-export-bee.1 …),
/// in man(7) markup, made from the same declarations as `--help`. The tool writes them.
package enum ManualPages {
  package static let option = Option.value(
    "generate-manual", "dir", help: "Write the man pages (section 1) into <dir>.")

  /// The file name and text of every page of `tool`, the tool's own first.
  package static func pages(of tool: CommandLineTool) -> [(fileName: String, text: String)] {
    tool.rootNode.tree.filter { !$0.isHelp }.map { ($0.pageName + ".1", page($0)) }
  }

  /// The page of one command.
  static func page(_ node: CommandNode) -> String {
    let definition = node.definition
    let title = node.pageName.uppercased()
    var page = """
      .TH \(title) 1 "" "\(node.tool.name) \(node.tool.version)" "User Commands"
      .nh
      .ad l
      .SH NAME
      \(escape(node.pageName)) \\- \(escape(definition.abstract))
      .SH SYNOPSIS
      .B \(escape(node.commandPath))
      \(escape(node.synopsis))
      .SH DESCRIPTION
      \(escape(definition.abstract))

      """
    for paragraph in paragraphs(definition.discussion) {
      page += ".PP\n" + escape(paragraph) + "\n"
    }
    if let argument = definition.argument {
      page += ".SH ARGUMENTS\n"
      page += ".TP\n.I \(escape(argument.valueName ?? argument.name))\n\(escape(argument.help))\n"
    }
    page += ".SH OPTIONS\n"
    for option in node.listedOptions {
      page += ".TP\n"
      if option == HelpText.helpOption {
        page += ".B \\-h, \\-\\-help\n"
      } else if let valueName = option.valueName {
        page += ".BI \"\(escape("--" + option.name)) \" \(escape(valueName))\n"
      } else {
        page += ".B \(escape("--" + option.name))\n"
      }
      page += escape(option.help) + "\n"
    }
    if node.isGroup {
      page += ".SH SUBCOMMANDS\n"
      for child in node.children {
        page += ".TP\n.B \(escape(child.definition.name))\n"
        page += escape(child.definition.abstract)
        page += child.isHelp ? "\n" : "\nSee\n.BR \(escape(child.pageName)) (1).\n"
      }
    }
    if !node.tool.exitStatus.isEmpty { page += ".SH EXIT STATUS\n" + node.tool.exitStatus + "\n" }
    page += ".SH SEE ALSO\n"
    var related: [CommandNode] = []
    if !node.isRoot {
      related.append(
        node.tool.rootNode.tree.first { $0.words == Array(node.words.dropLast()) }
          ?? node.tool.rootNode)
    }
    related += node.children.filter { !$0.isHelp }
    if related.isEmpty { related = [node.tool.rootNode] }
    page += related.map { ".BR \(escape($0.pageName)) (1)" }.joined(separator: ",\n") + "\n"
    return page
  }

  /// The discussion's paragraphs (separated by blank lines), each joined into one line.
  static func paragraphs(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .split(whereSeparator: { $0.allSatisfy(\.isWhitespace) })
      .map { lines in lines.map { $0.trimmingSpaces() }.joined(separator: " ") }
  }

  /// Text as roff reads it literally: backslashes, dashes and quotes escaped, and no line
  /// starting with a control character.
  static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\\": escaped += "\\e"
      case "-": escaped += "\\-"
      case "'": escaped += "\\(aq"
      case "`": escaped += "\\(ga"
      case "\"": escaped += "\\(dq"
      default: escaped.append(character)
      }
    }
    return escaped.first == "." ? "\\&" + escaped : escaped
  }

}

extension Substring {
  /// Without leading and trailing spaces.
  fileprivate func trimmingSpaces() -> Substring {
    let start = firstIndex { $0 != " " } ?? endIndex
    let end = lastIndex { $0 != " " }.map(index(after:)) ?? start
    return self[start..<Swift.max(start, end)]
  }
}

import Glibc

/// `freedom-keys --generate-manual DIR`: writes freedom-keys.1 and one page per command below it
/// (freedom-keys-export-bee.1 …), in man(7) markup, made from the same declarations as `--help`.
struct ManualPages: Runnable {
  static let option = Option.value(
    "generate-manual", "dir", help: "Write the man pages (section 1) into <dir>.")

  /// Where the pages go; created (with its parents) if it does not exist.
  let directory: String

  /// The file name and text of every page, the tool's first.
  static func pages() -> [(fileName: String, text: String)] {
    CommandNode.root.tree.filter { !$0.isHelp }.map { ($0.pageName + ".1", page($0)) }
  }

  func run() throws {
    try Self.createDirectories(directory)
    for (fileName, text) in Self.pages() {
      try Self.write(text, to: directory + "/" + fileName)
    }
  }

  /// The page of one command.
  static func page(_ node: CommandNode) -> String {
    let configuration = node.configuration
    let title = node.pageName.uppercased()
    var page = """
      .TH \(title) 1 "" "\(FreedomKeys.configuration.name) \(FreedomKeys.version)" "User Commands"
      .nh
      .ad l
      .SH NAME
      \(escape(node.pageName)) \\- \(escape(configuration.abstract))
      .SH SYNOPSIS
      .B \(escape(node.commandPath))
      \(escape(node.synopsis))
      .SH DESCRIPTION
      \(escape(configuration.abstract))

      """
    for paragraph in paragraphs(configuration.discussion) {
      page += ".PP\n" + escape(paragraph) + "\n"
    }
    if let argument = configuration.argument {
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
        page += ".TP\n.B \(escape(child.configuration.name))\n"
        page += escape(child.configuration.abstract)
        page += child.isHelp ? "\n" : "\nSee\n.BR \(escape(child.pageName)) (1).\n"
      }
    }
    page += """
      .SH EXIT STATUS
      0 on success; 1 when the input is bad or an operation fails (an invalid mnemonic, an \
      unreadable file, a wrong password); 2 for a usage error (nothing is read or written); 3 \
      when an export\\(aqs \\-\\-dry\\-run would refuse (it changes nothing), or when
      .B verify
      finds a mismatch; 4 when
      .B recover
      has tried every candidate and none matched; 130 when interrupted (Ctrl-C or SIGINT). \
      Errors are one line on standard error and never contain a secret.
      .SH SEE ALSO

      """
    var related: [CommandNode] = []
    if !node.isRoot {
      related.append(
        CommandNode.root.tree.first { $0.words == Array(node.words.dropLast()) } ?? .root)
    }
    related += node.children.filter { !$0.isHelp }
    if related.isEmpty { related = [.root] }
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

  /// `mkdir -p`, with mode 0755 for what it creates.
  private static func createDirectories(_ path: String) throws(CLIError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component + "/"
      if mkdir(prefix, 0o755) != 0, errno != EEXIST {
        throw .failure("cannot create the directory \(prefix): \(String(cString: strerror(errno)))")
      }
    }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw .failure("\(path) is not a directory; give --generate-manual a directory")
    }
  }

  /// Writes `text` to `path` (mode 0644), replacing an older page.
  private static func write(_ text: String, to path: String) throws(CLIError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .failure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var text = text
    let complete = text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
    guard complete else {
      throw .failure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
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

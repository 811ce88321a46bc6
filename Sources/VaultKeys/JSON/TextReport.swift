import Wording

/// A readable summary: titled sections of label–value lines, the values of all sections starting
/// in one column. The text counterpart of a `JSONObject` report.
public struct TextReport: Sendable, Equatable {
  /// One titled group of rows.
  private struct Section: Sendable, Equatable {
    var title: String
    var labels: [String] = []
    var values: [String] = []
  }

  private var sections: [Section] = []

  /// An empty report.
  public init() {}

  /// Starts a new section; rows added afterwards belong to it. An untitled section (a single
  /// key) starts at the margin.
  public mutating func section(_ title: String) { sections.append(Section(title: title)) }

  /// Adds `label: value` to the current section.
  public mutating func row(_ label: String, _ value: String) {
    if sections.isEmpty { section("") }
    sections[sections.count - 1].labels.append(label)
    sections[sections.count - 1].values.append(value)
  }

  /// Adds a row for each member of `object`, labelled by `labels` (the key where it names none)
  /// and shown as `JSONValue.plainText`.
  public mutating func rows(_ object: JSONObject, labels: [String: String]) {
    for (key, value) in object.members { row(labels[key] ?? key, value.plainText) }
  }

  /// The report, sections separated by a blank line; each title, label and value one line
  /// (`TerminalText.oneLine`: a value read from a file cannot add a line or move the cursor).
  public var rendered: String {
    let sections = sections.map { section in
      Section(
        title: TerminalText.oneLine(section.title),
        labels: section.labels.map(TerminalText.oneLine),
        values: section.values.map(TerminalText.oneLine))
    }
    let width = sections.flatMap(\.labels).map(\.count).max() ?? 0
    return sections.map { section in
      let indent = section.title.isEmpty ? "" : "  "
      let title = section.title.isEmpty ? "" : section.title + "\n"
      return title
        + zip(section.labels, section.values).map { label, value in
          indent + label + String(repeating: " ", count: width - label.count + 2) + value + "\n"
        }.joined()
    }.joined(separator: "\n")
  }
}

extension JSONValue {
  /// The value as a summary shows it: a string without quotes, anything else as JSON.
  public var plainText: String {
    if case .string(let text) = self { return text }
    return rendered()
  }
}

extension TextReport {
  /// One titled section of rows, rendered: a plan as a table.
  public static func table(_ title: String, _ rows: [(String, String)]) -> String {
    var report = TextReport()
    report.section(title)
    for (label, value) in rows { report.row(label, value) }
    return report.rendered
  }
}

/// A readable summary: titled sections of label–value lines, the values of all sections starting
/// in one column.
struct TextReport {
  private var sections: [(title: String, rows: [(label: String, value: String)])] = []

  /// Starts a new section; rows added afterwards belong to it.
  mutating func section(_ title: String) { sections.append((title, [])) }

  /// Adds `label: value` to the current section.
  mutating func row(_ label: String, _ value: String) {
    if sections.isEmpty { section("") }
    sections[sections.count - 1].rows.append((label, value))
  }

  /// The report, sections separated by a blank line.
  var rendered: String {
    let width = sections.flatMap(\.rows).map(\.label.count).max() ?? 0
    return sections.map { section in
      // Rows sit under their title; an untitled section (a single key) starts at the margin.
      let indent = section.title.isEmpty ? "" : "  "
      let title = section.title.isEmpty ? "" : section.title + "\n"
      return title
        + section.rows.map { label, value in
          indent + label + String(repeating: " ", count: width - label.count + 2) + value + "\n"
        }.joined()
    }.joined(separator: "\n")
  }
}

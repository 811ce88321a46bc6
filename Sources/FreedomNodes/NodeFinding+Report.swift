import VaultKeys
import Wording

/// A verification's report as a whole: one line per node directory or one row per part of a
/// desktop installation, its JSON, and why it fails.
extension NodeFinding {
  /// "bee, kubo do not hold the mnemonic's identity", or nil when nothing fails (absent fails
  /// for a node directory, not for a part of an installation).
  package static func failure(_ findings: [NodeFinding], absentFails: Bool) -> String? {
    let failed = findings.filter {
      $0.status == .mismatch || (absentFails && $0.status == .absent)
    }.map(\.check)
    guard !failed.isEmpty else { return nil }
    return "\(failed.joined(separator: ", ")) \(failed.count == 1 ? "does" : "do") not hold the "
      + "mnemonic's identity"
  }

  /// Why node directories fail, naming first those where nothing of the node was found (a
  /// wrong path more often than a lost key).
  package static func failure(
    _ findings: [NodeFinding], nothingFound: [(check: String, directory: String)]
  ) -> String? {
    guard let failure = failure(findings, absentFails: true) else { return nil }
    guard !nothingFound.isEmpty else { return failure }
    let empty = Set(nothingFound.map(\.check))
    let others = findings.filter { !empty.contains($0.check) }
    return nothingFound.map { "nothing of \($0.check) found here: \($0.directory)" }
      .joined(separator: "; ")
      + (Self.failure(others, absentFails: true).map { "; \($0)" } ?? "")
  }

  /// Whether a BIP-39 passphrase could explain `findings`: a key of another identity was
  /// found, and the mnemonic was checked without a passphrase (another passphrase derives
  /// other keys from the same words).
  package static func passphraseMayExplain(_ findings: [NodeFinding], passphraseGiven: Bool)
    -> Bool
  {
    !passphraseGiven
      && findings.contains {
        $0.status == .mismatch && $0.found != nil && $0.found != $0.expected
      }
  }

  /// One line per node directory (and backup), the names in one column; what a row quotes
  /// from a file is made one line (`TerminalText.oneLine`).
  package static func lines(_ rows: [NodeFinding]) -> NodeMessage {
    let checks = rows.map { TerminalText.oneLine($0.check) }
    let width = checks.map(\.count).max() ?? 0
    return zip(checks, rows).reduce(into: NodeMessage("")) { text, pair in
      let (check, row) = pair
      text += check + String(repeating: " ", count: width - check.count + 2)
      text += row.line.oneLine
      text += "\n"
    }
  }

  /// The node directories' JSON: one object per node, the backups, `ok`.
  package static func json(
    nodes findings: [NodeFinding], backups: [NodeFinding], passphraseMayExplain: Bool
  ) -> JSONObject {
    var object: JSONObject = [:]
    for finding in findings { object.append(finding.check, .object(finding.json)) }
    if !backups.isEmpty { object.append("backups", .array(backups.map { .string($0.path) })) }
    object.append("ok", .bool(failure(findings, absentFails: true) == nil))
    if passphraseMayExplain { object.append("passphraseMayExplain", .bool(true)) }
    return object
  }

  /// A desktop installation's rows: name, status, detail (the path for what is absent), each
  /// one line as `lines` makes them.
  package static func rows(_ findings: [NodeFinding]) -> NodeMessage {
    let checks = findings.map { TerminalText.oneLine($0.check) }
    let width = checks.map(\.count).max() ?? 0
    return zip(checks, findings).reduce(into: NodeMessage("")) { text, pair in
      let (check, finding) = pair
      let status =
        switch finding.status {
        case .match: "match   "
        case .mismatch: "MISMATCH"
        case .absent: "absent  "
        case .note: "note    "
        }
      text += check + String(repeating: " ", count: width - check.count + 2)
      text += status + "  "
      text += (finding.status == .absent ? "(\(finding.path))" : finding.detail).oneLine
      text += "\n"
    }
  }

  /// The rows as JSON, with the installation and an overall `ok`; `render` words a detail's
  /// remedies.
  package static func rowsJSON(
    _ findings: [NodeFinding], userData: String, render: (NodeMessage) -> String
  ) -> JSONValue {
    var object: JSONObject = ["userData": .string(userData)]
    var list: [JSONValue] = []
    for finding in findings {
      var item: JSONObject = [
        "check": .string(finding.check), "status": .string(finding.status.rawValue),
        "path": .string(finding.path),
      ]
      let text = render(finding.detail)
      if !text.isEmpty { item.append("detail", .string(text)) }
      if let authenticated = finding.authenticated {
        item.append("authenticated", .bool(authenticated))
      }
      list.append(.object(item))
    }
    object.append("checks", .array(list))
    object.append("ok", .bool(!findings.contains { $0.status == .mismatch }))
    return .object(object)
  }
}

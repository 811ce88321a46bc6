import CommandLineKit
import FreedomNodes
import VaultKeys

/// The CLI's rendering of `verify`'s findings (which word themselves, `NodeFinding.line` and
/// `.detail`): one line per node directory, or a row per part of a desktop installation, and the
/// JSON of both.
enum VerifyText {
  // MARK: - Node directories (--bee-dir, --antd-dir, …)

  /// "match     0x…", "MISMATCH  expected …, found …", "not present (path)".
  static func line(_ finding: NodeFinding) -> String { NodeText.render(finding.line) }

  /// Why a set of findings fails, or nil when none does (absent fails for a node directory).
  static func failed(_ findings: [NodeFinding], absentFails: Bool) -> CLIError? {
    let failed = findings.filter {
      $0.status == .mismatch || (absentFails && $0.status == .absent)
    }.map(\.check)
    guard !failed.isEmpty else { return nil }
    return .mismatch(
      "\(failed.joined(separator: ", ")) \(failed.count == 1 ? "does" : "do") not hold the "
        + "mnemonic's identity")
  }

  /// Whether a BIP-39 passphrase could explain `findings`: a key of another identity was
  /// found, and the mnemonic was checked without a passphrase (another passphrase derives
  /// other keys from the same words).
  static func passphraseMayExplain(_ findings: [NodeFinding], passphraseGiven: Bool) -> Bool {
    !passphraseGiven
      && findings.contains {
        $0.status == .mismatch && $0.found != nil && $0.found != $0.expected
      }
  }

  /// The hint's line.
  static let passphraseHint =
    "the keys found are of another identity; if this mnemonic was used with a BIP-39 "
    + "passphrase, give it with --\(MnemonicOptions.passphraseFile.name) PATH (- to type it)"

  // MARK: - A desktop installation (--freedom-dir)

  /// The detail column of a row.
  static func detail(_ finding: NodeFinding) -> String { NodeText.render(finding.detail) }

  /// The rows as text: name, status, detail (the path for what is absent).
  static func rows(_ findings: [NodeFinding]) -> String {
    let width = findings.map(\.check.count).max() ?? 0
    return findings.map { finding in
      let status =
        switch finding.status {
        case .match: "match   "
        case .mismatch: "MISMATCH"
        case .absent: "absent  "
        case .note: "note    "
        }
      let text = finding.status == .absent ? "(\(finding.path))" : detail(finding)
      return finding.check + String(repeating: " ", count: width - finding.check.count + 2)
        + status + "  " + text + "\n"
    }.joined()
  }

  /// The rows as JSON, with the installation and an overall `ok`.
  static func rowsJSON(_ findings: [NodeFinding], userData: String) -> JSONValue {
    var object: JSONObject = ["userData": .string(userData)]
    var list: [JSONValue] = []
    for finding in findings {
      var item: JSONObject = [
        "check": .string(finding.check), "status": .string(finding.status.rawValue),
        "path": .string(finding.path),
      ]
      let text = detail(finding)
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

import CryptoPrimitives
import VaultKeys
import Wording

/// Several node directories verified against one profile, as `verify` reports them: each
/// node's findings, the backups the directories hold, and the directories where nothing of
/// their node was found (a wrong path more often than a lost key).
package struct NodeVerification: Sendable {
  /// The nodes' findings, in the order the directories were given.
  package private(set) var findings: [NodeFinding] = []
  /// The backups the directories hold, reported after the nodes.
  package private(set) var backups: [NodeFinding] = []
  /// The directories with nothing of their node, named by their check.
  package private(set) var nothingFound: [(check: String, directory: String)] = []

  /// Verifies each directory in turn, under its lock, after any interrupted export in it was
  /// finished or undone; `password` opens the keystores of the kinds that take one.
  package init(
    _ directories: [(kind: NodeDirectoryKind, path: String)], password: SecureBytes?,
    against profile: FreedomProfile, events: (NodeEvent) -> Void = { _ in }
  ) throws(NodeError) {
    for (kind, directory) in directories {
      let all = try kind.verify(directory, password: password, against: profile, events: events)
      backups += all.filter(\.isBackup)
      let found = all.filter { !$0.isBackup }
      if let first = found.first, found.allSatisfy({ $0.status == .absent }) {
        nothingFound.append((first.check, directory))
      }
      findings += found
    }
  }

  /// Why the directories fail (nothing found first), or nil when every node matches.
  package var failure: String? { NodeFinding.failure(findings, nothingFound: nothingFound) }

  /// One line per node, then per backup.
  package var lines: NodeMessage { NodeFinding.lines(findings + backups) }

  /// Whether a BIP-39 passphrase could explain what was found (`passphraseGiven`: one was).
  package func passphraseMayExplain(passphraseGiven: Bool) -> Bool {
    NodeFinding.passphraseMayExplain(findings, passphraseGiven: passphraseGiven)
  }

  /// The report as one JSON object: one member per node, the backups, `ok`.
  package func json(passphraseMayExplain: Bool) -> JSONObject {
    NodeFinding.json(
      nodes: findings, backups: backups, passphraseMayExplain: passphraseMayExplain)
  }
}

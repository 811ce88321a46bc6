import CryptoPrimitives
import Recovery
import VaultKeys

/// A kind of node directory as it speaks for itself, the way a swift-certificates policy names
/// itself: the option that takes the directory, a title, what checking it and searching it read,
/// and how to open one. Commands build their node directory options from `all`.
package struct NodeDirectoryKind: Sendable {
  /// The name of the option that takes the directory, without dashes (`bee-dir`).
  package let option: String
  /// The node's name in reports (`bee`, `Radicle`).
  package let title: String
  /// What verifying reads (`bee's <dir>/keys/swarm.key`).
  package let checks: String
  /// What a recovery searches for in the directory (`kubo's <dir>/config PeerID`).
  package let target: String
  /// Whether the directory holds a Swarm keystore that a password decrypts.
  package let holdsSwarmKeystore: Bool
  /// Whether a keystore password given decrypts its key (else its own password does, or none).
  package let takesPassword: Bool
  /// The node in `directory`; a keystore password decrypts its key where it has one.
  let open: @Sendable (_ directory: String, _ password: SecureBytes?) -> any RecoveryTargetSource

  package init(
    option: String, title: String, checks: String, target: String,
    holdsSwarmKeystore: Bool = false, takesPassword: Bool = false,
    open: @escaping @Sendable (String, SecureBytes?) -> any RecoveryTargetSource
  ) {
    self.option = option
    self.title = title
    self.checks = checks
    self.target = target
    self.holdsSwarmKeystore = holdsSwarmKeystore
    self.takesPassword = takesPassword
    self.open = open
  }

  /// Every node kind with a directory of its own, in the order `verify` checks them.
  package static let all: [NodeDirectoryKind] = [
    Bee.kind, Kubo.kind, Radicle.kind, Ant.kind, Antd.kind,
  ]

  /// The kind whose option is `option`.
  package static func named(_ option: String) -> NodeDirectoryKind? {
    all.first { $0.option == option }
  }

  /// Verifies the node in `directory` against `profile` (`NodeSession.verify`).
  package func verify(
    _ directory: String, password: SecureBytes? = nil, against profile: FreedomProfile,
    events: (NodeEvent) -> Void = { _ in }
  ) throws(NodeError) -> [NodeFinding] {
    try NodeSession.verify(
      open(directory, takesPassword ? password : nil), against: profile, events: events)
  }

  /// The targets a recovery searches for in `directory` (`NodeSession.recoveryTargets`).
  package func recoveryTargets(_ directory: String, events: (NodeEvent) -> Void = { _ in })
    throws(NodeError) -> [RecoveryTarget]
  {
    try NodeSession.recoveryTargets(open(directory, nil), events: events)
  }
}

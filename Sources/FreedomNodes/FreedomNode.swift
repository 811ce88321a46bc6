import NodeFiles
import Recovery
import VaultKeys

/// One kind of node directory freedom-keys writes and checks (bee, kubo, Ant, antd, Radicle, a
/// desktop installation). Each conforming type, in its own file, owns the node's rules: its
/// layout (every file name spelt once), what `inspect` reads under the directory's lock, the
/// export's typed `plan` (or a refusal naming every conflict), the typed findings of `verify`
/// and the targets `recover` searches for. `NodeSession` runs them the same way for every node;
/// the wording, flags and exit codes are the caller's.
package protocol FreedomNode: Sendable {
  /// What `inspect` read.
  associatedtype State
  /// What an export needs besides the directory (the profile, a password, a cost).
  associatedtype ExportInputs
  /// The export's typed plan.
  associatedtype Plan: NodePlan

  /// The node directory.
  var directory: String { get }
  /// What the directory holds, for the engine's transaction and recovery.
  var layout: NodeLayout { get }
  /// The node directories this one lies inside (outermost first): their locks come before this
  /// one's and their interrupted changes are recovered first.
  var enclosingDirectories: [NodeDirectory.Enclosing] { get }
  /// The node directories inside this one that its changes and checks take with it (locked
  /// after it, in this order, their interrupted changes recovered after its own).
  var nestedDirectories: [NodeDirectory.Enclosing] { get }
  /// Whether an export creates the directory when it does not exist.
  var createsDirectory: Bool { get }

  /// Refuses a directory that is not this node's (a desktop userData given as antd's, a part
  /// of an installation, another node's), before any lock is taken in it; called by exports
  /// and checks, not by `recover`.
  func requireRightDirectory() throws(NodeError)
  /// Reads the directory's state; called under its lock.
  func inspect() throws(NodeError) -> State
  /// What an export would do to `state`; throws `NodeError.refused` with every conflict when
  /// `consent` does not cover them.
  func plan(
    _ state: State, _ inputs: ExportInputs, consent: ExportConsent, events: (NodeEvent) -> Void
  ) throws(NodeError) -> Plan
  /// Applies `plan` under the lock (the default: `NodeDirectory.apply` of `plan.change`); nil
  /// when the plan changes nothing.
  func apply(_ plan: Plan, in node: NodeDirectory) throws(NodeError) -> NodeChangeResult?
  /// Throws what `apply` (with the lock the export takes first) would fail on before writing,
  /// changing nothing: a dry run's check. `node` is the directory opened for reading, or nil
  /// when the export would create it. The default asks the engine about `plan.change`.
  func requireApplicable(_ plan: Plan, in node: NodeDirectory?) throws(NodeError)
  /// Whether `state` holds `profile`'s identity.
  func verify(_ state: State, against profile: FreedomProfile, events: (NodeEvent) -> Void)
    throws(NodeError) -> [NodeFinding]
}

/// A node whose directory names identities `recover` can search for. Package-wide only, as the
/// recovery search itself is (Recovery is not a product).
package protocol RecoveryTargetSource: FreedomNode {
  /// What `recover` searches for: the public identities `state` holds.
  func recoveryTargets(_ state: State) throws(NodeError) -> [RecoveryTarget]
}

extension FreedomNode {
  package var enclosingDirectories: [NodeDirectory.Enclosing] {
    DesktopInstallation.enclosing(of: directory)
  }
  package var nestedDirectories: [NodeDirectory.Enclosing] { [] }
  package var createsDirectory: Bool { true }
  package func requireRightDirectory() throws(NodeError) {}

  package func apply(_ plan: Plan, in node: NodeDirectory) throws(NodeError) -> NodeChangeResult? {
    guard let change = plan.change else { return nil }
    return try NodeSession.apply(change, in: node)
  }

  package func requireApplicable(_ plan: Plan, in node: NodeDirectory?) throws(NodeError) {
    try NodeSession.requireApplicable(plan.change, in: node, creating: directory)
  }
}

/// What the user agreed an export may replace: one consent per kind of loss.
package struct ExportConsent: Sendable, Equatable {
  /// Files and state of another identity (or files that cannot be read) may be replaced; what
  /// they held is moved aside and removed in the transaction.
  package var replacesOtherIdentities: Bool
  /// A desktop vault that opens to another mnemonic, or that the password given does not
  /// open, may be replaced (kept in the backup directory): it may hold the user's wallet.
  package var replacesVault: Bool

  package init(replacesOtherIdentities: Bool = false, replacesVault: Bool = false) {
    self.replacesOtherIdentities = replacesOtherIdentities
    self.replacesVault = replacesVault
  }

  /// Whether this consent covers `conflict`.
  package func covers(_ conflict: NodeConflict) -> Bool {
    switch conflict.consent {
    case .otherIdentities: replacesOtherIdentities
    case .vault: replacesVault
    }
  }

  /// `plan`, when this consent covers every one of its `conflicts`; else all of them are
  /// refused, so the user learns everything the export would replace at once.
  func approve<Plan>(_ plan: Plan, conflicts: [NodeConflict]) throws(NodeError) -> Plan {
    guard conflicts.allSatisfy(covers) else { throw .refused(conflicts) }
    return plan
  }

  /// Nothing of another identity is touched.
  package static let none = ExportConsent()
}

/// An export's plan: the files it creates, replaces, moves aside or keeps, and the change for
/// the engine (nil when the directory already holds everything).
package protocol NodePlan: Sendable {
  /// The typed actions, for a report or a dry run.
  var actions: [PlannedAction] { get }
  /// What `NodeDirectory.apply` writes and removes, or nil when nothing changes.
  var change: NodeChange? { get }
  /// Whether applying the plan changes anything, every transaction it needs counted (the
  /// default: whether it has a `change`).
  var changes: Bool { get }
}

extension NodePlan {
  package var changes: Bool { change != nil }
}

/// One step of a plan.
package struct PlannedAction: Sendable, Equatable {
  package enum Kind: Sendable, Equatable {
    /// A file written where none was.
    case create
    /// A file written over one; `before` is the identity it held, if one could be read.
    case replace(before: String?)
    /// What belonged to the old identity, moved aside and removed with the change.
    case moveAside
    /// Already right: left as it is.
    case keep
  }

  /// The full path.
  package let path: String
  package let kind: Kind
  /// The identity the path holds afterwards, when it is a key (an address, PeerID or DID).
  package let after: String?

  package init(_ path: String, _ kind: Kind, after: String? = nil) {
    self.path = path
    self.kind = kind
    self.after = after
  }
}

/// Something in a node directory an export would replace without consent.
package struct NodeConflict: Sendable, Equatable {
  /// What is there instead of the mnemonic's identity.
  package enum Found: Sendable, Equatable {
    /// A key of another identity (its address or PeerID).
    case key(String)
    /// A Radicle key of another identity (its DID).
    case radicleKey(String)
    /// A keystore without an address field.
    case keyWithoutAddress
    /// A kubo config with another PeerID.
    case peerID(String)
    /// A kubo config with the mnemonic's PeerID and another private key.
    case peerIDWithOtherKey(String)
    /// A kubo config with a private key and no PeerID.
    case privateKeyWithoutPeerID
    /// The mnemonic's key, in a file the node would run differently (Ant's nonce, its
    /// libp2p key): each problem.
    case sameKeyRunDifferently([String])
    /// antd's own identity (identity.json or signing.key) of another key, or unreadable
    /// (nil).
    case antdOwnIdentity(String?)
    /// A desktop vault that opens with the password given to another mnemonic.
    case otherVault
    /// A desktop vault the password given does not open (another password, or a Quick Setup
    /// vault's, which lives in the OS keyring: `quickSetup`).
    case vaultNotOpened(quickSetup: Bool)
    /// A file that cannot be understood; the reason says why.
    case unreadable(String)
  }

  /// The full path.
  package let path: String
  package let found: Found
  /// The mnemonic's identity at that path.
  package let expected: String

  package init(path: String, found: Found, expected: String) {
    self.path = path
    self.found = found
    self.expected = expected
  }

  /// The kind of consent a conflict needs.
  package enum Consent: Sendable, Equatable {
    /// Node keys and state of another identity (`ExportConsent.replacesOtherIdentities`).
    case otherIdentities
    /// A desktop vault (`ExportConsent.replacesVault`).
    case vault
  }

  /// Which consent covers replacing it.
  package var consent: Consent {
    switch found {
    case .otherVault, .vaultNotOpened: .vault
    default: .otherIdentities
    }
  }
}

import CryptoPrimitives

/// The two private keys of one of desktop Freedom's Railgun accounts: spending at
/// m/44'/1984'/0'/0'/i' and viewing at m/420'/1984'/0'/0'/i' of the "babyjubjub seed" tree.
public struct RailgunAccount: Sendable, CustomStringConvertible {
  /// The account index, 0 to 65535.
  public let index: UInt32
  /// The spending key's path.
  public let spendingPath: DerivationPath
  /// The viewing key's path.
  public let viewingPath: DerivationPath
  /// The 32-byte spending private key (its BabyJubJub public key is not computed here).
  public let spendingKey: SecureBytes
  /// The 32-byte viewing private key (its public key is not computed here).
  public let viewingKey: SecureBytes

  /// Account `index` of `master` (the tree's master node of a BIP-39 seed).
  public init(master: RailgunKeyNode, index: UInt32) throws(ExperimentalKeyError) {
    try ExperimentalAccount.check(index)
    self.index = index
    spendingPath = Self.spendingPath(index: index)
    viewingPath = Self.viewingPath(index: index)
    spendingKey = try master.derive(spendingPath).privateKey
    viewingKey = try master.derive(viewingPath).privateKey
  }

  /// Account `index` of a 64-byte BIP-39 seed.
  public init(seed: SecureBytes, index: UInt32) throws(ExperimentalKeyError) {
    try self.init(master: try RailgunKeyNode(seed: seed), index: index)
  }

  /// m/44'/1984'/0'/0'/i' (`index` at most 65535).
  public static func spendingPath(index: UInt32) -> DerivationPath {
    path(purpose: 44, index: index)
  }

  /// m/420'/1984'/0'/0'/i' (`index` at most 65535).
  public static func viewingPath(index: UInt32) -> DerivationPath {
    path(purpose: 420, index: index)
  }

  private static func path(purpose: UInt32, index: UInt32) -> DerivationPath {
    DerivationPath(components: [purpose, 1984, 0, 0, index].map(ExperimentalAccount.hardened))
  }

  /// The account's index, never its keys.
  public var description: String { "RailgunAccount(index: \(index), redacted)" }
}

/// Why one of desktop Freedom's experimental keys (Railgun, Kohaku PPv2) could not be derived.
public enum ExperimentalKeyError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Desktop derives these keys from a 64-byte BIP-39 seed only.
  case invalidSeedLength(Int)
  /// Railgun's key tree derives hardened children only (1-based position in `path`).
  case nonHardened(position: Int, path: DerivationPath)
  /// Desktop's Railgun and PPv2 accounts are numbered 0 to 65535.
  case accountIndexOutOfRange(UInt32)
  /// A BIP-32 step of the PPv2 path failed (an invalid child, probability below 2^-127).
  case derivation(KeyDerivationError)

  public var description: String {
    switch self {
    case .invalidSeedLength(let count):
      "desktop derives its experimental keys from a 64-byte BIP-39 seed, got \(count) bytes"
    case .nonHardened(let position, let path):
      "segment \(position) of \(path) is not hardened: Railgun's key tree derives hardened "
        + "children only — write it with ' (\(path.components[position - 1].index)')"
    case .accountIndexOutOfRange(let index):
      "account \(index) is out of range: desktop numbers its Railgun and PPv2 accounts 0 to "
        + "\(ExperimentalAccount.indexRange.upperBound)"
    case .derivation(let error): error.description
    }
  }
}

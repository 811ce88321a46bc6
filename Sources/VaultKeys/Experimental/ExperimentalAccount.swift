/// The account numbers desktop Freedom gives its experimental private accounts.
public enum ExperimentalAccount {
  /// Desktop's Railgun and PPv2 account indexes (`accountIndex <= 65535` in
  /// `railgun-credential-host.js`, `privacy-keys.js` and `ppv2-keys.js`).
  public static let indexRange: ClosedRange<UInt32> = 0...65535

  static func check(_ index: UInt32) throws(ExperimentalKeyError) {
    guard indexRange.contains(index) else { throw .accountIndexOutOfRange(index) }
  }

  static func hardened(_ index: UInt32) -> DerivationPath.Component {
    // Every index up to 2^31 - 1 is valid, and callers pass at most 65535.
    try! DerivationPath.Component(index: index, hardened: true)
  }
}

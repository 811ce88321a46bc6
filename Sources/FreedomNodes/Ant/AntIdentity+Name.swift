extension AntIdentity.NonceRule {
  /// Ant's overlay nonce of this rule, as reports name it.
  package var name: String {
    switch self {
    case .zero: "a zero nonce"
    case .derivedFromKey: "the nonce Ant's library derives from the key"
    }
  }
}

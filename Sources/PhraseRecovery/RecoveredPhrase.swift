import VaultKeys

/// One word of a recovered phrase that differs from what was remembered at its place.
public struct RecoveryChange: Sendable, Equatable {
  /// The 1-based position in the recovered phrase.
  public let position: Int
  /// The word now at that position, as published in the wordlist.
  public let word: String
  /// What was remembered at that place (`?`, `ab*`, a misspelt or wrong word); nil for a word
  /// that was missing.
  public let was: String?

  public init(position: Int, word: String, was: String?) {
    self.position = position
    self.word = word
    self.was = was
  }
}

/// A candidate found by a recovery: the phrase, what changed and which target it matched.
public struct RecoveredPhrase: Sendable {
  /// The corrected mnemonic.
  public let mnemonic: Mnemonic
  /// The positions that differ from the phrase as remembered, in order.
  public let changes: [RecoveryChange]
  /// The 1-based positions of two adjacent words that were exchanged, if any.
  public let swappedPositions: (Int, Int)?
  /// The target that matched (`swarm.address`, `ipfs.peerId`, …); nil when counting.
  public let matched: String?
}

import CryptoPrimitives
import VaultKeys

/// One word of a recovered phrase that differs from what was remembered at its place.
package struct RecoveryChange: Sendable, Equatable {
  /// The 1-based position in the recovered phrase.
  package let position: Int
  /// The word now at that position, as published in the wordlist.
  package let word: String
  /// What was remembered at that place (`?`, `ab*`, a misspelt or wrong word); nil for a word
  /// that was missing.
  package let was: String?

  package init(position: Int, word: String, was: String?) {
    self.position = position
    self.word = word
    self.was = was
  }
}

/// A candidate found by a recovery: the phrase, what changed and which target it matched.
package struct RecoveredPhrase: Sendable {
  /// The corrected mnemonic.
  package let mnemonic: Mnemonic
  /// The positions that differ from the phrase as remembered, in order.
  package let changes: [RecoveryChange]
  /// The 1-based positions of two adjacent words that were exchanged, if any.
  package let swappedPositions: (Int, Int)?
  /// The target that matched (`swarm.address`, `ipfs.peerId`, …); nil when counting.
  package let matched: String?
  /// The 1-based written positions of the words that were extra (left out of the phrase).
  package var extraPositions: [Int] = []
  /// When only the order was lost: for each position, the 1-based written position its word
  /// was taken from.
  package var writtenPositions: [Int]?
  /// Which of the passphrases tried matched, told without quoting it.
  package var passphraseOrigin: PassphraseOrigin = .given
  /// The passphrase that matched (NFKD), for `--out` only.
  package var passphrase = SecureBytes(count: 0) { _ in }
}

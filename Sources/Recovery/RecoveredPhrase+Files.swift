import CryptoPrimitives

extension RecoveredPhrase {
  /// What a file of the phrase found holds: the phrase and a line ending.
  package var phraseLine: SecureBytes { mnemonic.phrase() + SecureBytes([0x0A]) }

  /// What a file of the passphrase found holds (it and a line ending); nil when it is the one
  /// given, which the user has.
  package var passphraseLine: SecureBytes? {
    passphraseOrigin == .given ? nil : passphrase + SecureBytes([0x0A])
  }

  /// What a file of several phrases holds: one a line.
  package static func lines(_ phrases: [RecoveredPhrase]) -> SecureBytes {
    phrases.reduce(SecureBytes(count: 0) { _ in }) { $0 + $1.phraseLine }
  }
}

import CryptoPrimitives

// TEMPORARY until VaultKeys' Mnemonic and FreedomProfile land.
struct DeriveReport {
  let json: JSONValue
  let text: TextReport
  init(command: DeriveCommand, phrase: SecureBytes, passphrase: SecureBytes) throws {
    var text = TextReport()
    text.row("Phrase bytes", String(phrase.count))
    text.row("Passphrase bytes", String(passphrase.count))
    self.text = text
    json = .object([
      "phraseBytes": .number(UInt64(phrase.count)),
      "passphraseBytes": .number(UInt64(passphrase.count)),
    ])
  }
}

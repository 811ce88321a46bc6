import CryptoPrimitives

extension PasswordSet {
  /// The passwords of a search given only the password as `remembered`, whose levels are
  /// searched in turn: it, one likely typo, one edit, two likely typos; or, when two would be
  /// too many to hold, up to one likely typo and one edit; or else it alone.
  package init(automatic remembered: SecureBytes, model: TypoModel = TypoModel())
    throws(PasswordRecoveryError)
  {
    for typos in [2, 1] {
      if let set = try? PasswordSet(
        remembered: remembered, typos: typos, oneEdit: true, model: model)
      {
        self = set
        return
      }
    }
    self = try PasswordSet(remembered: remembered, model: model)
  }
}

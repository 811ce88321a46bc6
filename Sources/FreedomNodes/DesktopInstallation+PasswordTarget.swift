import PhraseRecovery

extension NodeSession {
  /// The vault of `installation` as a password search opens it, and its path; public data
  /// only, read before any secret. Throws `NodeError` for a directory that is not the
  /// installation's, `PasswordTargetError` when it has no vault or the file is not one.
  package static func passwordTarget(
    _ installation: DesktopInstallation, events: (NodeEvent) -> Void = { _ in }
  ) throws -> (file: String, target: PasswordTarget) {
    try installation.requireRightDirectory()
    let file = installation.vaultPath
    guard let json = try reading(installation, events: events, \.vault) else {
      throw PasswordTargetError.noVault(file: file)
    }
    return (file, try PasswordTarget(vault: json, file: file))
  }
}

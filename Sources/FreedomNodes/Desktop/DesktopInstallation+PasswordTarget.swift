import Recovery

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

  /// The Swarm keystore of bee's directory (or antd's, with `antd`) as a password search opens
  /// it, and its path; public data only. Throws `NodeError` for a directory that is not the
  /// node's, `PasswordTargetError.noKeystore` when it has none, `UnreadableNodeFile` when the
  /// file cannot be read.
  package static func passwordTarget(
    swarmKeystoreIn directory: String, antd: Bool, events: (NodeEvent) -> Void = { _ in }
  ) throws -> (file: String, target: PasswordTarget) {
    let stored =
      antd
      ? try reading(Antd(directory: directory), events: events) { $0.keystore }
      : try reading(Bee(directory: directory), events: events) { $0.keystore }
    let file = Bee(directory: directory).keystorePath
    switch stored {
    case .present(let keystore): return (file, .keystore(keystore))
    case .absent: throw PasswordTargetError.noKeystore(file: file)
    case .unreadable(let problem): throw problem
    }
  }
}

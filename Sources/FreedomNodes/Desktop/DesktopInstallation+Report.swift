import NodeFiles
import VaultKeys
import Wording

extension DesktopInstallation {
  /// The vault's key derivation and cipher, as help and reports name them.
  package static let vaultCipher =
    "PBKDF2-SHA256 \(grouped(DesktopVault.desktopIterations)), AES-256-GCM"

  /// `count` with a comma between each three digits (900,000).
  static func grouped(_ count: Int) -> String {
    let digits = String(count)
    return digits.enumerated().map { index, digit in
      index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
    }.joined()
  }

  /// What an export of this installation wrote and kept, and how to start desktop Freedom.
  package func report(_ outcome: ExportOutcome<Plan>, profile: FreedomProfile, alias: String)
    throws -> NodeMessage
  {
    let installation = self
    let plan = outcome.plan
    var text: NodeMessage = ""
    if let registration = plan.registration, let appRoot = installation.location.appRoot {
      text +=
        "Registered profile \(registration.id) (slot \(registration.slot)) in "
        + "\(appRoot)/\(DesktopProfileRegistry.fileName) and "
        + "\(installation.paths.profileMetadata), as desktop Freedom registers one\n"
    }
    text += try plan.antd.report(profile: profile, startsAntd: false)
    switch (plan.vault, plan.vaultMeta) {
    case (let vault?, let meta?):
      text +=
        vault == .keep
        ? NodeChangeResult.KeptAside.unchanged(
          installation.vaultPath, "this mnemonic under that password")
        : "Wrote \(installation.vaultPath): the mnemonic, \(Self.vaultCipher) (mode 0600)\n"
      if meta == .keep {
        text += NodeChangeResult.KeptAside.unchanged(
          installation.vaultMetaPath, "this mnemonic's addresses")
      } else if let changes = plan.vaultMetaKept {
        text +=
          "Updated \(installation.vaultMetaPath) for this mnemonic (\(changes.joined(separator: ", "))): "
          + "its wallets, device accounts, names and every other member kept\n"
      } else {
        text +=
          "Wrote \(installation.vaultMetaPath): userWallet \(profile.wallet.address.checksummed), "
          + "beeWallet \(profile.swarm.address.checksummed)\n"
      }
    default:
      text +=
        "\(installation.paths.identity) untouched (give \(remedy: .vaultPasswordFile) to write the "
        + "vault)\n"
    }
    let radicle = installation.radicle
    switch plan.radicle.config {
    case .create?:
      text += "Wrote \(radicle.configPath): node.alias \(JSONValue.quoted(alias))\n"
    case .replace?:
      text += "Set node.alias to \(JSONValue.quoted(alias)) in \(radicle.configPath)\n"
    default: break
    }
    text +=
      plan.radicle.privateKey == .keep
      ? NodeChangeResult.KeptAside.unchanged(
        radicle.privateKeyPath, "the Radicle key \(plan.radicle.expected)")
      : "Wrote \(radicle.privateKeyPath): the Radicle key \(plan.radicle.expected) (mode 0600)\n"
    if plan.radicle.publicKey != .keep {
      text += "Wrote \(radicle.publicKeyPath): its public key (mode 0644)\n"
    }
    if plan.quickUnlockMovedAside {
      text +=
        "Moved \(installation.quickUnlockPath) aside: it was bound to the old vault; set Touch ID "
        + "unlock up again in Freedom\n"
    }
    text += NodeChangeResult.KeptAside.lines(outcome.keptAside)
    if plan.radicleOutside != nil {
      text +=
        "Radicle's home is outside \(installation.transactionRoot): written in a second "
        + "transaction\n"
    }
    // Desktop runs antd and Radicle itself; the vault password is what unlocks the wallet.
    text +=
      plan.vault == nil
      ? "Start Freedom: it runs antd on \(installation.paths.antData) and Radicle itself\n"
      : "Start Freedom and unlock it with the vault password\n"
    return text
  }
}

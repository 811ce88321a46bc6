import VaultKeys
import Wording

/// How desktop Freedom's files that hold no identity of their own word themselves in a row.
extension NodeFinding.DesktopFact {
  /// The detail column of a desktop fact.
  func detail(_ finding: NodeFinding) -> NodeMessage {
    switch self {
    case .profile(let id, let name, let slot, let home, let checked):
      let label = name.map { " \"\($0)\"" } ?? ""
      let placement =
        slot.map { "slot \($0), Radicle home \(home ?? "")" } ?? "no slot (radicle-data)"
      return "\(id)\(label): \(placement)" + (checked ? " — the profile checked here" : "")
    case .radicleDataToBeCopied(let from):
      return "absent; desktop copies \(from) here at its next start, so the radicle key checked is "
        + "radicle-data's"
    case .radicleStaging(let home):
      return "desktop's copy of radicle-data into \(home), in progress or interrupted (never read "
        + "as the home; desktop removes it once the process that made it is gone)"
    case .quickUnlock(.fitsVault):
      return "Touch ID unlock is bound to this vault (version 2)"
    case .quickUnlock(.staleVault):
      return
        "stale: bound to another \(DesktopInstallation.vaultFile); desktop ignores it, set Touch "
        + "ID unlock up again in Freedom"
    case .quickUnlock(.noVault):
      return "bound to a vault that is not there; desktop ignores it"
    case .quickUnlock(.legacy):
      return "a credential from before version 2; desktop tries it at the next Touch ID unlock"
    case .quickSetupVault:
      return
        "Quick Setup vault (userKnowsPassword: false): its password is random and lives in the "
        + "OS keyring; the mnemonic is the way in (\(remedy: .exportVaultPassword) sets one)"
    case .beeOnlyDataPendingDelete:
      return "bee's stores moved aside by desktop's migration to antd, waiting to be deleted (no "
        + "identity; desktop deletes it after its first window is up)"
    case .keptStamperstore:
      return "bee's postage counters, kept by the migration for antd (no identity)"
    case .freedomIPFSCache:
      return "the embedded IPFS node's cache, not a kubo repository (no key from the mnemonic)"
    case .publisherMap(.current(let origins, let feeds)):
      return "publisher map: \(origins) origin\(origins == 1 ? "" : "s"), \(feeds) "
        + "feed\(feeds == 1 ? "" : "s")"
    case .publisherMap(.version1):
      return "publisher map version 1: desktop migrates it at its next start"
    case .publisherMap(.unsupported(let version)):
      return
        "publisher map version \(version): desktop copies it aside and starts with an empty map"
    case .publisherMap(.unreadable(let reason)):
      return "\(reason): desktop copies it aside (swarm-feeds.corrupt.json) and starts with an "
        + "empty map"
    case .feedSigner(_, _, let signer):
      let who = Self.signerName(signer)
      switch finding.status {
      case .match: return "\(finding.expected ?? "") (\(who))"
      case .mismatch:
        return "expected \(finding.expected ?? "") (\(who)), found owner \(finding.found ?? "")"
      default: return "\(finding.expected ?? "") (\(who); no owner recorded to compare)"
      }
    case .feedSignerDeviceAccount(_, _, let wallet):
      return "signed by device account \(wallet) of \(DesktopVaultMeta.fileName)"
        + "\(finding.found.map { ", owner \($0)" } ?? ""): not derivable from the mnemonic"
    case .feedSignerUnknown(_, _, let id):
      return "signer \(id.map { "'\($0)'" } ?? "not recorded") is not one desktop knows"
        + "\(finding.found.map { ", owner \($0)" } ?? "")"
    }
  }

  static func signerName(_ signer: DesktopPublisherMap.Signer) -> String {
    switch signer {
    case .publisher(let index): "publisher key \(index), m/44'/73406'/\(index)'/0/0"
    case .swarmWallet: "the Swarm wallet, m/44'/60'/0'/0/1"
    case .userWallet(let index): "user wallet \(index), m/44'/60'/\(index)'/0/0"
    }
  }
}

import CommandLineKit
import FreedomNodes
import VaultKeys

/// The CLI's wording of what FreedomNodes finds about a desktop installation's layout: the wrong
/// directory, profiles, and the desktop files that hold no identity of their own.
enum DesktopText {
  /// The flag that consents to replacing a vault (`ExportConsent.replacesVault`).
  static let replaceVaultFlag = "--replace-vault"

  /// The one line for a directory that is not the one the command needs. In `verify` a
  /// directory with nothing of Freedom's is a mismatch (exit 3), as for a node's directory.
  static func wrongDirectory(
    _ path: String, _ what: NodeError.WrongDirectory, _ context: NodeText.Context
  ) -> CLIError {
    let exporting = if case .export = context { true } else { false }
    let unwritten = exporting ? "; nothing was written" : ""
    switch what {
    case .absent:
      return .failure(
        "\(path) does not exist\(unwritten) (check the path; give --create if a new desktop "
          + "installation is meant)")
    case .nothingOfFreedom(let empty):
      let holds = empty ? "is empty" : "holds nothing of desktop Freedom's"
      let found =
        "nothing of desktop Freedom found here: \(path) \(holds) (no "
        + "\(DesktopProfileRegistry.fileName), profile.json, identity/, \(DesktopInstallation.antData)/ "
        + "or R/)"
      if exporting {
        return .failure(
          found + "; nothing was written (check the path; give --create if a new installation "
            + "is meant)")
      }
      return .mismatch(found + "; check the path")
    case .occupiedByOthers:
      return .failure(
        "\(path) holds files but nothing of desktop Freedom's (no "
          + "\(DesktopProfileRegistry.fileName), profile.json, identity/, "
          + "\(DesktopInstallation.antData)/, bee-data/ or R/), so it is no installation to restore "
          + "into\(unwritten) (check the path; --create makes a new installation only in an empty "
          + "or new directory)")
    case .partOfInstallation(let part, let userData):
      let text =
        "\(path) is \(name(part)) of the desktop Freedom installation \(userData), not an "
        + "installation itself\(unwritten); give --freedom-dir \(NodeText.shellQuoted(userData))"
      return exporting ? .failure(text) : .mismatch(text)
    case .nodeDirectory(let node):
      let text = "\(path) is \(name(node)), not a desktop Freedom installation\(unwritten)"
      return exporting ? .failure(text) : .mismatch(text)
    case .desktopUserData(let antData):
      return .failure(
        "\(path) is a desktop Freedom user data directory, not antd's data directory"
          + "\(unwritten); antd's is \(antData) (or use export freedom --freedom-dir for the whole "
          + "installation)")
    }
  }

  /// A desktop userData given as bee's data directory: desktop runs antd, in its ant-data.
  static func userDataAsBeeDirectory(_ path: String, antData: String, _ context: NodeText.Context)
    -> CLIError
  {
    let exporting = if case .export = context { true } else { false }
    let whole =
      exporting
      ? "export freedom --freedom-dir \(NodeText.shellQuoted(path)) for the whole installation, or "
        + "export antd --data-dir \(NodeText.shellQuoted(antData))"
      : "verify --freedom-dir \(NodeText.shellQuoted(path)) for the whole installation"
    return .failure(
      "\(path) is a desktop Freedom user data directory, not bee's data directory"
        + (exporting ? "; nothing was written" : "")
        + "; desktop's Swarm node is antd, in \(antData) (use \(whole))")
  }

  /// Wording for a directory another command was given (antd's, bee's): what it is.
  static func wrongNodeDirectory(
    _ path: String, _ what: NodeError.WrongDirectory, _ exporting: Bool
  )
    -> CLIError
  {
    let unwritten = exporting ? "; nothing was written" : ""
    switch what {
    case .partOfInstallation(.beeData, let userData):
      return .failure(
        "\(path) is bee's data of an older desktop Freedom (\(userData)), not antd's\(unwritten); "
          + "antd's is \(NodeText.shellQuoted(userData + "/" + DesktopInstallation.antData))")
    case .partOfInstallation(let part, let userData):
      return .failure(
        "\(path) is \(name(part)) of the desktop Freedom installation \(userData), not antd's "
          + "data directory\(unwritten); antd's is "
          + NodeText.shellQuoted(userData + "/" + DesktopInstallation.antData))
    case .nodeDirectory(let node):
      return .failure("\(path) is \(name(node)), not antd's data directory\(unwritten)")
    default:
      return wrongDirectory(path, what, exporting ? .export : .verify)
    }
  }

  static func name(_ part: NodeError.DesktopPart) -> String {
    switch part {
    case .antData: "antd's data directory (\(DesktopInstallation.antData))"
    case .beeData: "bee's data directory of older versions (bee-data)"
    case .ipfsData: "the IPFS node's data (ipfs-data)"
    case .radicleData: "Radicle's old home (radicle-data)"
    case .identity: "the vault's directory (identity)"
    case .radicleHomes: "the directory of every profile's Radicle home (R)"
    case .radicleHome(let slot): "the Radicle home of the profile in slot \(slot) (R/\(slot))"
    case .profiles:
      "the directory of the other profiles (Profiles); give one profile's directory or --profile"
    }
  }

  static func name(_ node: NodeError.NodeKind) -> String {
    switch node {
    case .bee: "bee's data directory (statestore or localstore, no config.yaml)"
    case .swarmNode: "a Swarm node's data directory (\(Antd.keystoreFile))"
    case .kubo: "a kubo repository (config and datastore)"
    case .radicle: "a Radicle home (keys/radicle)"
    }
  }

  /// A --profile that names several profiles by display name, ignoring case.
  static func ambiguousProfile(appRoot: String, ids: [String]) -> CLIError {
    .failure(
      "\(appRoot)'s \(DesktopProfileRegistry.fileName) has several profiles of that display name "
        + "(ignoring case), ids: \(ids.joined(separator: ", ")); give --profile one of these ids")
  }

  /// `creating`: an export, which --create lets register the profile.
  static func noSuchProfile(_ id: String, appRoot: String, known: [String], creating: Bool = false)
    -> CLIError
  {
    .failure(
      "\(appRoot)'s \(DesktopProfileRegistry.fileName) has no profile named '\(id)'; its profiles: "
        + (known.isEmpty ? "none" : known.joined(separator: ", "))
        + (creating ? " (--create registers a new profile as desktop Freedom does)" : ""))
  }

  static func noProfileRegistry(_ appRoot: String, creating: Bool = false) -> CLIError {
    .failure(
      "\(appRoot) has no \(DesktopProfileRegistry.fileName): --profile needs desktop Freedom's app "
        + "root (Linux: ~/.config/Freedom)"
        + (creating ? ", or --create to register a new profile as desktop Freedom does" : ""))
  }

  /// The hint after a refusal: which flag covers which conflicts, of those `consent` does not
  /// cover yet.
  static func consentHint(
    _ conflicts: [NodeConflict], consent: ExportConsent, single: String
  ) -> String {
    let vaults = consent.replacesVault ? [] : conflicts.filter { $0.consent == .vault }
    let others =
      consent.replacesOtherIdentities ? [] : conflicts.filter { $0.consent == .otherIdentities }
    guard !vaults.isEmpty else { return single }
    let vault =
      "\(replaceVaultFlag) replaces the vault, kept in the backup directory (it may hold "
      + "your wallet: back its mnemonic up first)"
    guard !others.isEmpty else { return vault }
    return "--force replaces " + (others.count == 1 ? "the node key named" : "the node keys named")
      + "; " + vault
  }

  /// The detail column of a desktop fact.
  static func detail(_ fact: NodeFinding.DesktopFact, _ finding: NodeFinding) -> String {
    switch fact {
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
        + "OS keyring; the mnemonic is the way in (export freedom --vault-password-file sets one)"
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
      let who = signerName(signer)
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

import VaultKeys
import Wording

/// How a directory that is not the one an operation needs words itself: what it is instead.
extension NodeError.WrongDirectory {
  /// The line for `path`, not the desktop installation (or bee directory) wanted.
  func message(_ path: String, _ operation: NodeOperation) -> NodeMessage {
    let exporting = operation == .export
    let unwritten = exporting ? "; nothing was written" : ""
    switch self {
    case .absent:
      return "\(path) does not exist\(unwritten) (check the path; give \(remedy: .create) if a "
        + "new desktop installation is meant)"
    case .nothingOfFreedom(let empty):
      let holds = empty ? "is empty" : "holds nothing of desktop Freedom's"
      let found =
        "nothing of desktop Freedom found here: \(path) \(holds) (no "
        + "\(DesktopProfileRegistry.fileName), profile.json, identity/, "
        + "\(DesktopInstallation.antData)/ or R/)"
      guard exporting else { return "\(found); check the path" }
      return "\(found); nothing was written (check the path; give \(remedy: .create) if a new "
        + "installation is meant)"
    case .occupiedByOthers:
      return "\(path) holds files but nothing of desktop Freedom's (no "
        + "\(DesktopProfileRegistry.fileName), profile.json, identity/, "
        + "\(DesktopInstallation.antData)/, bee-data/ or R/), so it is no installation to "
        + "restore into\(unwritten) (check the path; \(remedy: .create) makes a new installation "
        + "only in an empty or new directory)"
    case .partOfInstallation(let part, let userData):
      return "\(path) is \(part.message) of the desktop Freedom installation \(userData), not "
        + "an installation itself\(unwritten); give "
        + "\(remedy: .freedomDirectory(NodeMessage.shellQuoted(userData)))"
    case .nodeDirectory(let node):
      return "\(path) is \(node.name), not a desktop Freedom installation\(unwritten)"
    case .desktopUserData(let antData):
      return "\(path) is a desktop Freedom user data directory, not antd's data directory"
        + "\(unwritten); antd's is \(antData) (or use \(remedy: .exportFreedomDirectory) for "
        + "the whole installation)"
    }
  }

  /// The line for `path`, not the antd data directory wanted.
  func messageForAntd(_ path: String, _ exporting: Bool) -> NodeMessage {
    let unwritten = exporting ? "; nothing was written" : ""
    switch self {
    case .partOfInstallation(.beeData, let userData):
      let antData = NodeMessage.shellQuoted(userData + "/" + DesktopInstallation.antData)
      return "\(path) is bee's data of an older desktop Freedom (\(userData)), not "
        + "antd's\(unwritten); antd's is \(antData)"
    case .partOfInstallation(let part, let userData):
      return "\(path) is \(part.message) of the desktop Freedom installation \(userData), not "
        + "antd's data directory\(unwritten); antd's is "
        + NodeMessage.shellQuoted(userData + "/" + DesktopInstallation.antData)
    case .nodeDirectory(let node):
      return "\(path) is \(node.name), not antd's data directory\(unwritten)"
    default:
      return message(path, exporting ? .export : .verify)
    }
  }

  /// A desktop userData given as bee's data directory: desktop runs antd, in its ant-data.
  static func userDataAsBeeDirectory(_ path: String, antData: String, _ exporting: Bool)
    -> NodeMessage
  {
    let quoted = NodeMessage.shellQuoted(path)
    let whole: NodeMessage =
      exporting
      ? "\(remedy: .exportFreedom(quoted)) for the whole installation, or "
        + "\(remedy: .exportAntd(NodeMessage.shellQuoted(antData)))"
      : "\(remedy: .verifyFreedom(quoted)) for the whole installation"
    return "\(path) is a desktop Freedom user data directory, not bee's data directory"
      + (exporting ? "; nothing was written" : "")
      + "; desktop's Swarm node is antd, in \(antData) (use \(whole))"
  }
}

extension NodeError.DesktopPart {
  /// What the part is, as a message names it.
  var message: NodeMessage {
    switch self {
    case .antData: "antd's data directory (\(DesktopInstallation.antData))"
    case .beeData: "bee's data directory of older versions (bee-data)"
    case .ipfsData: "the IPFS node's data (ipfs-data)"
    case .radicleData: "Radicle's old home (radicle-data)"
    case .identity: "the vault's directory (identity)"
    case .radicleHomes: "the directory of every profile's Radicle home (R)"
    case .radicleHome(let slot): "the Radicle home of the profile in slot \(slot) (R/\(slot))"
    case .profiles:
      "the directory of the other profiles (Profiles); give one profile's directory or "
        + "\(remedy: .profile)"
    }
  }
}

extension NodeError.RecognisedNode {
  /// What the directory is, as a message names it.
  var name: String {
    switch self {
    case .bee: "bee's data directory (statestore or localstore, no config.yaml)"
    case .swarmNode: "a Swarm node's data directory (\(Antd.keystoreFile))"
    case .kubo: "a kubo repository (config and datastore)"
    case .radicle: "a Radicle home (keys/radicle)"
    }
  }
}

import NodeFiles
import VaultKeys
import Wording

/// How a node error words itself: tool-neutral text with typed remedies, for the operation
/// that met it (an export adds that nothing was written).
extension NodeError {
  /// The one line for this error in `operation`.
  package func message(_ operation: NodeOperation, consent: ExportConsent = ExportConsent())
    -> NodeMessage
  {
    let exporting = operation == .export
    let unwritten = exporting ? "; nothing was written" : ""
    switch self {
    case .refused(let conflicts): return NodeConflict.refusal(conflicts, consent: consent)
    case .files(let error): return "\(error.message)"
    case .changeFailed(let error, let directory):
      return "\(error.message); nothing in \(directory) was changed"
    case .notADirectory(let path): return "\(path) is not a directory"
    case .noSuchDirectory(let path): return "\(path) does not exist; check the directory"
    case .missingFile(let path, .kuboConfig(let repository)):
      return "\(path) does not exist; create the repository first with "
        + "'IPFS_PATH=\(repository) ipfs init', then \(remedy: .runAgain)"
    case .missingFile(let path, .recoveryTarget):
      guard operation == .recover else { return "\(path) does not exist" }
      return "\(path) does not exist: \(remedy: .targetOption) needs it as a target"
    case .missingFile(let path, .antdPasswordFile):
      return "\(path) does not exist; \(Antd.configFile)'s password-file: names it\(unwritten)"
    case .missingFile(_, .vaultMeta(let directory)):
      return "\(directory) holds no \(DesktopVaultMeta.fileName) (nor "
        + "\(DesktopInstallation.vaultMetaFile)): give desktop Freedom's user data directory"
    case .notARegularFile(let path, let symbolicLink):
      return "\(path) is not a regular file\(symbolicLink ? " (a symbolic link)" : "");"
        + " \(remedy: .giveRepository)"
    case .kuboWithoutPeerID(let path):
      return "\(path) has no Identity.PeerID; run 'ipfs init' or \(remedy: .givePeerID)"
    case .unreadable(let path, let reason): return "\(path) cannot be read: \(reason)"
    case .invalid(let path, let reason): return "\(path): \(reason)\(unwritten)"
    case .aliasNotSettable(let path, let reason):
      return "cannot set the alias in \(path): \(reason)"
    case .running(.antd, let directory, let lock):
      return "antd is running on \(directory) (it holds \(lock)); stop it (close Freedom) and "
        + "\(remedy: .runAgain); nothing was written"
    case .running(.kuboDaemon(let process), _, let lock):
      return "a kubo daemon\(process.map { " (process \($0))" } ?? "") holds \(lock); stop it "
        + "(ipfs shutdown) and \(remedy: .runAgain)"
    case .passwordConflict(.beePasswordFile(let path)):
      return "\(path) holds another password than the one given, and would not open "
        + "the new key; nothing was written (remove \(path), or give "
        + "\(remedy: .passwordFile) \(path))"
    case .passwordConflict(.antdConfigPassword(let config)):
      return "\(config) holds another password than \(remedy: .passwordFile) gives; antd and "
        + "desktop use \(Antd.configFile)'s: nothing was written (leave out "
        + "\(remedy: .passwordFile))"
    case .passwordConflict(.antdPasswordFile(let config, let file)):
      return "\(config) names password-file \(file), which holds another password than "
        + "\(remedy: .passwordFile) gives: nothing was written"
    case .wrongPassword(let path): return "wrong password for \(path): its MAC does not match"
    case .changedWhileChecked(let path):
      return "\(path) changed while it was being checked; \(remedy: .runAgain)"
    case .invalidInput(let input): return input.message(operation)
    case .wrongDirectory(let path, let what, .desktopInstallation):
      return what.message(path, operation)
    case .wrongDirectory(let path, let what, .antdData):
      return what.messageForAntd(path, exporting)
    case .wrongDirectory(let path, .desktopUserData(let antData), .beeData):
      return WrongDirectory.userDataAsBeeDirectory(path, antData: antData, exporting)
    case .wrongDirectory(let path, let what, .beeData): return what.message(path, operation)
    case .noSuchProfile(let id, let appRoot, let known):
      return "\(appRoot)'s \(DesktopProfileRegistry.fileName) has no profile named '\(id)'; "
        + "its profiles: " + (known.isEmpty ? "none" : known.joined(separator: ", "))
        + (exporting
          ? " (\(remedy: .create) registers a new profile as desktop Freedom does)" : "")
    case .ambiguousProfile(let appRoot, let ids):
      return "\(appRoot)'s \(DesktopProfileRegistry.fileName) has several profiles of that "
        + "display name (ignoring case), ids: \(ids.joined(separator: ", ")); give "
        + "\(remedy: .profile) one of these ids"
    case .noProfileRegistry(let appRoot):
      return "\(appRoot) has no \(DesktopProfileRegistry.fileName): \(remedy: .profile) needs "
        + "desktop Freedom's app root (Linux: ~/.config/Freedom)"
        + (exporting
          ? ", or \(remedy: .create) to register a new profile as desktop Freedom does" : "")
    case .nothingToUndo(let directory):
      return "\(directory) holds no backup in \(NodeLayout.replacedName) to put back: nothing "
        + "to undo (an export with \(remedy: .force) keeps what it replaces there)"
    case .linkBelowAppRoot(let path, let appRoot):
      return "\(path) is a symbolic link: desktop Freedom makes its profiles and Radicle homes "
        + "below \(appRoot) as directories, and \(remedy: .tool) follows no link "
        + "there\(unwritten) — move the link away, or name the directory it points to itself"
    case .vaultOfAnotherMnemonic(let vaultMeta, let stored, let expected):
      return "\(vaultMeta) names \(stored), not the mnemonic's \(expected): desktop Freedom's "
        + "vault holds another mnemonic, and without its password it would stay beside this "
        + "mnemonic's node keys (two identities in one installation); nothing was written (give "
        + "\(remedy: .vaultPasswordFile) to write this mnemonic's vault in its place, with "
        + "\(remedy: .replaceVault))"
    case .notANodeDirectory(let directory):
      return "\(directory) holds no node directory \(remedy: .tool) writes (bee, antd, Ant, "
        + "kubo, Radicle or desktop Freedom): give the directory an export wrote to"
    }
  }

  /// Whether this error means the directory holds nothing of what was to be checked (a
  /// mismatch, as for a node's directory), not a failure.
  package func isMismatch(_ operation: NodeOperation) -> Bool {
    guard operation != .export, case .wrongDirectory(_, let what, let wanted) = self else {
      return false
    }
    switch what {
    case .nothingOfFreedom: return true
    case .partOfInstallation, .nodeDirectory: return wanted != .antdData
    default: return false
    }
  }
}

extension NodeError.InvalidInput {
  func message(_ operation: NodeOperation) -> NodeMessage {
    switch self {
    case .emptyPasswordFile(let path): "the password file \(path) is empty"
    case .shortVaultPassword(let length):
      "the vault password has \(length) characters; desktop Freedom requires at least "
        + "\(DesktopVault.minimumPasswordLength): nothing was written"
    case .vaultPasswordNotText(let file):
      "the vault password\(file.map { " in \($0)" } ?? "") is not UTF-8 text"
    case .notEnglish(let language):
      "desktop Freedom reads English mnemonics only; this one is \(language)"
        + " and would not open there: nothing was written"
    case .keystoreWithoutAddress(let path):
      operation == .recover
        ? "\(path) has no address field; \(remedy: .giveAddress)"
        : "\(path) has no address field; give \(remedy: .passwordFile) to decrypt and check the "
          + "key"
    case .noVault(let path): "\(path) does not exist"
    case .profileName:
      "desktop Freedom makes no profile id of that name (it keeps a-z, 0-9, _ and -): "
        + "nothing was written"
    case .unregisteredProfileFolder(let path):
      "\(path) already holds files, but no profile of \(DesktopProfileRegistry.fileName) "
        + "is kept there; desktop Freedom would not open it as a new profile (import it in its "
        + "profile manager instead): nothing was written"
    }
  }
}

import NodeFiles

/// Why a node could not be inspected, exported or verified. The cases are typed so that a
/// caller words them (and names its own options); `description` is a plain fallback.
package enum NodeError: Error, Sendable {
  /// The export would replace what belongs to other identities: every conflict, in order.
  case refused([NodeConflict])
  /// The engine could not lock, read or recover a directory (or undo a failed change).
  case files(NodeFileError)
  /// A change failed and was undone: the old files are all in place in `directory`.
  case changeFailed(NodeFileError, directory: String)
  /// A path that must be a directory is something else.
  case notADirectory(String)
  /// A directory that must exist does not.
  case noSuchDirectory(String)
  /// A file the command needs is not there.
  case missingFile(path: String, needed: NeededFile)
  /// A path that must be a regular file is something else.
  case notARegularFile(path: String, symbolicLink: Bool)
  /// A kubo config without Identity.PeerID.
  case kuboWithoutPeerID(path: String)
  /// A file is there but cannot be understood (or is not what the node reads).
  case unreadable(path: String, reason: String)
  /// A file that was understood but is wrong (a keystore whose key is not its address, a config
  /// without the section the node needs); the reason says what.
  case invalid(path: String, reason: String)
  /// Radicle's config.json cannot take the alias (not JSON, another shape); the reason says why.
  case aliasNotSettable(path: String, reason: String)
  /// A node program runs on the directory and must be stopped first.
  case running(NodeProgram, directory: String, lock: String)
  /// A password given disagrees with the one the node already uses.
  case passwordConflict(PasswordConflict)
  /// The password does not open the keystore (its MAC differs).
  case wrongPassword(path: String)
  /// A file changed between the check and the write.
  case changedWhileChecked(path: String)
  /// An input is not usable (an empty password file, a short vault password…).
  case invalidInput(InvalidInput)
  /// A directory given is not the kind the command works on; the case says what it is.
  case wrongDirectory(path: String, WrongDirectory, wanted: WantedDirectory)
  /// A profile asked for is not in the app root's profile registry (the ids it has).
  case noSuchProfile(String, appRoot: String, known: [String])
  /// A profile was asked for in a directory without desktop's profile registry.
  case noProfileRegistry(appRoot: String)
  /// The name asked for matches the display names of several profiles, ignoring case (their
  /// ids).
  case ambiguousProfile(appRoot: String, ids: [String])
  /// An undo found no backup to put back in the directory.
  case nothingToUndo(directory: String)
  /// A directory holds no node freedom-keys writes (nor a desktop installation).
  case notANodeDirectory(String)
  /// A folder on the way from an app root to a profile's userData or Radicle home it locates
  /// (`Profiles/<id>`, `R/<slot>`) is a symbolic link.
  case linkBelowAppRoot(path: String, appRoot: String)
  /// An export without the vault password into an installation whose vault is another
  /// mnemonic's: its `vaultMeta` names the address `stored` where the mnemonic's is `expected`,
  /// and the vault would stay beside the new node keys (two identities in one installation).
  case vaultOfAnotherMnemonic(vaultMeta: String, stored: String, expected: String)

  /// The kind of directory a command needed.
  package enum WantedDirectory: Sendable, Equatable {
    /// A desktop installation (userData or app root).
    case desktopInstallation
    /// antd's data directory.
    case antdData
    /// bee's data directory.
    case beeData
  }

  /// What a directory given turned out to be instead of the one a command needs.
  package enum WrongDirectory: Sendable, Equatable {
    /// It does not exist, and the command does not create a new installation.
    case absent
    /// It holds nothing of desktop Freedom's (empty: nothing at all).
    case nothingOfFreedom(empty: Bool)
    /// A new installation was to be created in it, but it holds files, none of desktop
    /// Freedom's (a home directory, another app's): desktop would never use it as a userData.
    case occupiedByOthers
    /// One part of the desktop installation whose userData is `userData`.
    case partOfInstallation(DesktopPart, userData: String)
    /// Another node's own directory.
    case nodeDirectory(RecognisedNode)
    /// A desktop userData given as one node's directory (antd's, bee's); desktop's Swarm node,
    /// antd, keeps its files in `antData` inside it.
    case desktopUserData(antData: String)
  }

  /// A part of a desktop installation, as desktop's profile-paths.js names it.
  package enum DesktopPart: Sendable, Equatable {
    /// `ant-data`, antd's data directory.
    case antData
    /// `bee-data`, bee's from before the move to antd.
    case beeData
    /// `ipfs-data`, the IPFS node's.
    case ipfsData
    /// `radicle-data`, Radicle's home of a profile without a slot.
    case radicleData
    /// `identity`, the vault's directory.
    case identity
    /// `R`, the Radicle homes of every profile, one per slot.
    case radicleHomes
    /// `R/<slot>`, one profile's Radicle home.
    case radicleHome(slot: Int)
    /// `Profiles`, the other profiles' userData directories (under the app root).
    case profiles
  }

  /// Which node's directory a directory was recognised as, by its files.
  package enum RecognisedNode: Sendable, Equatable {
    /// bee's data directory (statestore or localstore, no config.yaml).
    case bee
    /// antd's or bee's (keys/swarm.key).
    case swarmNode
    /// A kubo repository (config with datastore or keystore).
    case kubo
    /// A Radicle home (keys/radicle).
    case radicle
  }

  /// The files a command can find missing.
  package enum NeededFile: Sendable, Equatable {
    /// kubo's `config`: the repository was never initialised.
    case kuboConfig(repository: String)
    /// The file `recover` reads its target from.
    case recoveryTarget
    /// Desktop's vault-meta.json (or identity/vault-meta.json) in `directory`.
    case vaultMeta(directory: String)
    /// The file config.yaml's `password-file:` names.
    case antdPasswordFile
  }

  /// A node program that holds a directory while it runs.
  package enum NodeProgram: Sendable, Equatable {
    case antd
    /// `ipfs daemon`, and the process that holds its lock when the system names it.
    case kuboDaemon(process: Int32?)
  }

  /// Two sources of a keystore password that disagree.
  package enum PasswordConflict: Sendable, Equatable {
    /// bee: `<dir>/password` holds another password than the one given.
    case beePasswordFile(path: String)
    /// antd: config.yaml's `password:` differs from the one given.
    case antdConfigPassword(config: String)
    /// antd: the file config.yaml's `password-file:` names differs from the one given.
    case antdPasswordFile(config: String, file: String)
  }

  /// Inputs that cannot be used.
  package enum InvalidInput: Sendable, Equatable {
    /// A password file without a password.
    case emptyPasswordFile(String)
    /// A vault password shorter than desktop accepts (its length in characters).
    case shortVaultPassword(Int)
    /// A vault password that is not UTF-8 (read from `file`, when it was).
    case vaultPasswordNotText(file: String?)
    /// A mnemonic desktop cannot read (its language).
    case notEnglish(String)
    /// A keystore without an address field, when no password lets it be decrypted.
    case keystoreWithoutAddress(path: String)
    /// A desktop installation without a vault to read the mnemonic from.
    case noVault(path: String)
    /// A profile name desktop makes no id of (nothing of a-z, 0-9, _ and - in it, or a path).
    case profileName
    /// A new profile's folder (`Profiles/<id>` or `R/<slot>`) that already holds files no
    /// registry record accounts for: desktop would not open it as that profile.
    case unregisteredProfileFolder(path: String)
  }
}

extension NodeError: CustomStringConvertible {
  package var description: String {
    switch self {
    case .refused(let conflicts):
      "would replace another identity at " + conflicts.map(\.path).joined(separator: ", ")
    case .files(let error): error.message
    case .changeFailed(let error, let directory):
      "\(error.message); nothing in \(directory) was changed"
    case .notADirectory(let path): "\(path) is not a directory"
    case .noSuchDirectory(let path): "\(path) does not exist; check the directory"
    case .notARegularFile(let path, _): "\(path) is not a regular file"
    case .kuboWithoutPeerID(let path): "\(path) has no Identity.PeerID"
    case .missingFile(let path, _): "\(path) does not exist"
    case .unreadable(let path, let reason): "\(path) cannot be read: \(reason)"
    case .invalid(let path, let reason): "\(path): \(reason)"
    case .aliasNotSettable(let path, let reason): "cannot set the alias in \(path): \(reason)"
    case .running(_, let directory, let lock):
      "a node is running on \(directory) (it holds \(lock))"
    case .passwordConflict: "the password given differs from the node's"
    case .wrongPassword(let path): "wrong password for \(path): its MAC does not match"
    case .changedWhileChecked(let path): "\(path) changed while it was being checked"
    case .invalidInput(let input): "invalid input: \(input)"
    case .wrongDirectory(let path, let what, _): "\(path) is not the right directory: \(what)"
    case .noSuchProfile(let id, let appRoot, _): "\(appRoot) has no profile \(id)"
    case .noProfileRegistry(let appRoot): "\(appRoot) has no profile registry"
    case .ambiguousProfile(let appRoot, let ids):
      "\(appRoot) has several profiles of that name: \(ids.joined(separator: ", "))"
    case .nothingToUndo(let directory): "\(directory) holds no backup to put back"
    case .notANodeDirectory(let path): "\(path) holds no node directory this program writes"
    case .linkBelowAppRoot(let path, let appRoot): "\(path) is a symbolic link below \(appRoot)"
    case .vaultOfAnotherMnemonic(let vaultMeta, let stored, let expected):
      "\(vaultMeta) names \(stored), not the mnemonic's \(expected): the vault is another mnemonic's"
    }
  }
}

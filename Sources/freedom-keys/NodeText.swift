import CommandLineKit
import FreedomNodes
import VaultKeys

/// The CLI's wording of what FreedomNodes reports: events as warnings, typed errors as one line
/// with this tool's options, conflicts as one refusal naming every one.
enum NodeText {
  /// Which command an error is worded for.
  enum Context {
    case export
    case verify
    /// `recover`, reading its targets through `option`.
    case recover(Option)
  }

  /// Shows an event on stderr.
  static func show(_ event: NodeEvent) {
    switch event {
    case .engine(let line): Output.warning(line)
    case .sharedSecretFile(let path, let mode):
      Output.warning(
        "\(path) is accessible by other users (mode \(Output.octal(mode))); run chmod 600 \(path)")
    case .antdDataDirElsewhere(let config, let dataDir, let directory):
      Output.warning(
        "\(config) sets data-dir: \(dataDir); antd started with this config uses that "
          + "directory, not \(directory) (desktop Freedom rewrites it at start)")
    case .keyDerivation(let encrypting, let path, let kdf):
      KDFNotice.announce(encrypting ? "encrypting the key" : "decrypting \(path)", kdf)
    }
  }

  /// Runs `body`, a NodeError worded for `context` (a refusal's hint naming only what
  /// `consent` does not cover yet).
  static func run<Result>(
    _ context: Context, consent: ExportConsent = ExportConsent(), _ body: () throws -> Result
  ) throws -> Result {
    do {
      return try body()
    } catch let error as NodeError {
      throw cliError(error, context, consent: consent)
    }
  }

  /// The CLI error for `error`.
  static func cliError(
    _ error: NodeError, _ context: Context, consent: ExportConsent = ExportConsent()
  ) -> CLIError {
    let exporting = if case .export = context { true } else { false }
    let unwritten = exporting ? "; nothing was written" : ""
    switch error {
    case .refused(let conflicts): return .failure(refusal(conflicts, consent: consent))
    case .files(let error): return .failure(error.message)
    case .changeFailed(let error, let directory):
      return .failure("\(error.message); nothing in \(directory) was changed")
    case .notADirectory(let path): return .failure("\(path) is not a directory")
    case .noSuchDirectory(let path): return .failure("\(path) does not exist; check the directory")
    case .missingFile(let path, .kuboConfig(let repository)):
      return .failure(
        "\(path) does not exist; create the repository first with "
          + "'IPFS_PATH=\(repository) ipfs init', then run this again")
    case .missingFile(let path, .recoveryTarget):
      guard case .recover(let option) = context else { return .failure("\(path) does not exist") }
      return .failure("\(path) does not exist: \(option.synopsis) needs it as a target")
    case .missingFile(let path, .antdPasswordFile):
      return .failure(
        "\(path) does not exist; \(Antd.configFile)'s password-file: names it\(unwritten)")
    case .missingFile(_, .vaultMeta(let directory)):
      return .failure(
        "\(directory) holds no \(DesktopVaultMeta.fileName) (nor "
          + "\(DesktopInstallation.vaultMetaFile)): give desktop Freedom's user data directory")
    case .notARegularFile(let path, let symbolicLink):
      return .failure(
        "\(path) is not a regular file\(symbolicLink ? " (a symbolic link)" : "");"
          + " give --repo the directory that holds the config itself")
    case .kuboWithoutPeerID(let path):
      return .failure("\(path) has no Identity.PeerID; run 'ipfs init' or give --peer-id")
    case .unreadable(let path, let reason): return .failure("\(path) cannot be read: \(reason)")
    case .invalid(let path, let reason): return .failure("\(path): \(reason)\(unwritten)")
    case .aliasNotSettable(let path, let reason):
      return .failure("cannot set the alias in \(path): \(reason)")
    case .running(.antd, let directory, let lock):
      return .failure(
        "antd is running on \(directory) (it holds \(lock)); stop it (close Freedom) and run "
          + "this again; nothing was written")
    case .running(.kuboDaemon, let directory, let lock):
      return .failure(
        "a kubo daemon holds \(lock) of \(directory); stop it (ipfs shutdown) and run this again")
    case .passwordConflict(.beePasswordFile(let path)):
      return .failure(
        "\(path) holds another password than the one given, and would not open "
          + "the new key; nothing was written (remove \(path), or give "
          + "--password-file \(path))")
    case .passwordConflict(.antdConfigPassword(let config)):
      return .failure(
        "\(config) holds another password than --password-file gives; antd and desktop "
          + "use \(Antd.configFile)'s: nothing was written (leave out --password-file)")
    case .passwordConflict(.antdPasswordFile(let config, let file)):
      return .failure(
        "\(config) names password-file \(file), which holds another password than "
          + "--password-file gives: nothing was written")
    case .wrongPassword(let path):
      return .failure("wrong password for \(path): its MAC does not match")
    case .changedWhileChecked(let path):
      return .failure("\(path) changed while it was being checked; run this again")
    case .invalidInput(let input): return .failure(text(input, context))
    case .wrongDirectory(let path, let what, .desktopInstallation):
      return DesktopText.wrongDirectory(path, what, context)
    case .wrongDirectory(let path, let what, .antdData):
      return DesktopText.wrongNodeDirectory(path, what, exporting)
    case .wrongDirectory(let path, .desktopUserData(let antData), .beeData):
      return DesktopText.userDataAsBeeDirectory(path, antData: antData, context)
    case .wrongDirectory(let path, let what, .beeData):
      return DesktopText.wrongDirectory(path, what, context)
    case .noSuchProfile(let id, let appRoot, let known):
      if case .export = context {
        return DesktopText.noSuchProfile(id, appRoot: appRoot, known: known, creating: true)
      }
      return DesktopText.noSuchProfile(id, appRoot: appRoot, known: known)
    case .ambiguousProfile(let appRoot, let ids):
      return DesktopText.ambiguousProfile(appRoot: appRoot, ids: ids)
    case .noProfileRegistry(let appRoot):
      if case .export = context { return DesktopText.noProfileRegistry(appRoot, creating: true) }
      return DesktopText.noProfileRegistry(appRoot)
    case .nothingToUndo(let directory):
      return .failure(
        "\(directory) holds no backup in \(NodeSession.backupFolder) to put back: nothing to "
          + "undo (an export with --force keeps what it replaces there)")
    case .linkBelowAppRoot(let path, let appRoot):
      return .failure(
        "\(path) is a symbolic link: desktop Freedom makes its profiles and Radicle homes below "
          + "\(appRoot) as directories, and freedom-keys follows no link there\(unwritten) — "
          + "move the link away, or name the directory it points to itself")
    case .notANodeDirectory(let directory):
      return .failure(
        "\(directory) holds no node directory freedom-keys writes (bee, antd, Ant, kubo, "
          + "Radicle or desktop Freedom): give the directory an export wrote to")
    }
  }

  private static func text(_ input: NodeError.InvalidInput, _ context: Context) -> String {
    switch input {
    case .emptyPasswordFile(let path): "the password file \(path) is empty"
    case .shortVaultPassword(let length):
      "the vault password has \(length) characters; desktop Freedom requires at least "
        + "\(DesktopVault.minimumPasswordLength): nothing was written"
    case .vaultPasswordNotText: "the vault password is not UTF-8 text"
    case .notEnglish(let language):
      "desktop Freedom reads English mnemonics only; this one is \(language)"
        + " and would not open there: nothing was written"
    case .keystoreWithoutAddress(let path):
      if case .recover = context {
        "\(path) has no address field; give the address with --address"
      } else {
        "\(path) has no address field; give --password-file to decrypt and check the key"
      }
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

  /// One refusal naming every conflict; the hint says what --force does (for Ant's file, with
  /// the nonce `export ant --nonce` chose), or the flag still missing when `consent` covers
  /// some of them.
  static func refusal(
    _ conflicts: [NodeConflict], antNonce: AntIdentity.NonceRule = .zero,
    consent: ExportConsent = ExportConsent()
  ) -> String {
    // What --force would still have to cover (a vault --replace-vault covers is named too).
    let pending = conflicts.filter { !consent.covers($0) }
    let single =
      switch pending.count {
      case 1:
        hint(pending[0], antNonce: antNonce, it: conflicts.count == 1 ? "it" : "the node key named")
      case conflicts.count: "--force replaces it and the others named"
      default: "--force replaces the node keys named"
      }
    let hint = DesktopText.consentHint(conflicts, consent: consent, single: single)
    return conflicts.map(describe).joined(separator: "; ") + "; nothing was written (\(hint))"
  }

  /// The hint for one conflict, `it` naming it.
  private static func hint(
    _ conflict: NodeConflict, antNonce: AntIdentity.NonceRule, it: String
  ) -> String {
    switch conflict.found {
    case .antdOwnIdentity: "--force removes \(it)"
    case .sameKeyRunDifferently:
      "--force writes the file afresh with \(antNonceName(antNonce)) and no libp2p_keypair"
    default: "--force replaces \(it)"
    }
  }

  /// Ant's overlay nonce of `rule`, as reports name it.
  static func antNonceName(_ rule: AntIdentity.NonceRule) -> String {
    switch rule {
    case .zero: "a zero nonce"
    case .derivedFromKey: "the nonce Ant's library derives from the key"
    }
  }

  private static func describe(_ conflict: NodeConflict) -> String {
    let path = conflict.path
    let expected = conflict.expected
    switch conflict.found {
    case .key(let key): return "\(path) holds the key of \(key), not the mnemonic's \(expected)"
    case .radicleKey(let did): return "\(path) holds the key \(did), not the mnemonic's \(expected)"
    case .keyWithoutAddress:
      return "\(path) holds a key without address, not the mnemonic's \(expected)"
    case .peerID(let peerID):
      return "\(path) holds PeerID \(peerID), not the mnemonic's \(expected)"
    case .peerIDWithOtherKey(let peerID):
      return
        "\(path) holds PeerID \(peerID) with another private key, not the mnemonic's \(expected)"
    case .privateKeyWithoutPeerID:
      return "\(path) holds a private key without PeerID, not the mnemonic's \(expected)"
    case .sameKeyRunDifferently(let problems):
      return "\(path) holds the Swarm key \(expected), but " + problems.joined(separator: "; ")
    case .antdOwnIdentity(let key):
      return "\(path) holds \(key.map { "the key of \($0)" } ?? "a key that cannot be read"), "
        + "antd's own identity, not the mnemonic's \(expected)"
    case .otherVault:
      return "\(path) holds another vault (it opens with the password given to another "
        + "mnemonic)"
    case .vaultNotOpened(let quickSetup):
      return "\(path) holds a vault the password given does not open"
        + (quickSetup
          ? " (a Quick Setup vault: its password lives in the OS keyring)" : "")
    case .unreadable(let reason): return "\(path) cannot be read: \(reason)"
    }
  }

  /// The line for a file that already holds the identity.
  static func unchanged(_ path: String, _ what: String) -> String {
    "\(path) already holds \(what); nothing to do\n"
  }

  /// The report lines for what a change replaced or removed: where it was kept, and how to
  /// delete it once it is no longer needed (one line per backup directory).
  static func keptAsideLines(_ kept: [KeptAside]) -> String {
    backupDirectories(kept).map { directory, names in
      "Kept what it replaced in \(directory): \(names.joined(separator: ", ")); delete that "
        + "directory once you no longer need it: rm -r \(shellQuoted(directory))\n"
    }.joined()
  }

  /// The backup directories `kept` went into, each with what it holds (relative to it).
  static func backupDirectories(_ kept: [KeptAside])
    -> [(directory: String, names: [String])]
  {
    var directories: [(directory: String, names: [String])] = []
    for item in kept {
      let marker = "/" + NodeSession.backupFolder + "/"
      let parts = item.backup.split(separator: marker, maxSplits: 1)
      guard parts.count == 2 else { continue }
      let name = parts[1].prefix { $0 != "/" }
      let directory = String(parts[0]) + marker + name
      let inside = String(parts[1].dropFirst(name.count + 1))
      if let index = directories.firstIndex(where: { $0.directory == directory }) {
        directories[index].names.append(inside)
      } else {
        directories.append((directory, [inside]))
      }
    }
    return directories
  }

  /// `text` as one word for a POSIX shell: quoted when it holds anything but safe characters.
  static func shellQuoted(_ text: String) -> String {
    let plain = text.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+,:@%".contains($0))
    }
    return plain
      ? text
      : "'"
        + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
        + "'"
  }
}

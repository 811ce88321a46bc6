import Wording

/// What a command can do about a result: the library names it, the tool words it as its own
/// option (`.force` is `--force` to freedom-keys), so no library text names a flag or the tool.
package enum NodeRemedy: Sendable, Equatable, Hashable {
  /// Replace another identity's node keys (kept aside).
  case force
  /// Replace a vault that holds another mnemonic, or that the password given does not open.
  case replaceVault
  /// Make a new installation, or register a new profile, as desktop Freedom does.
  case create
  /// Pick a profile of an app root.
  case profile
  /// The keystore password given from a file.
  case passwordFile
  /// Give the vault password, to open or write desktop's vault.
  case vaultPasswordFile
  /// Give the PeerID to search for instead of a repository's.
  case givePeerID
  /// Give the address to search for instead of a keystore's.
  case giveAddress
  /// Give a kubo repository (the directory that holds its config).
  case giveRepository
  /// The directory option a recovery read its targets from.
  case targetOption
  /// The whole installation at a path (already shell-quoted), as export or verify takes it.
  case freedomDirectory(String)
  /// Verify the whole installation at a path (already shell-quoted).
  case verifyFreedom(String)
  /// Export the whole installation at a path (already shell-quoted).
  case exportFreedom(String)
  /// Export the whole installation, the directory left to the user.
  case exportFreedomDirectory
  /// Export antd's data directory at a path.
  case exportAntd(String)
  /// Write the vault with a password of the user's own (a Quick Setup vault has none).
  case exportVaultPassword
  /// Try again once the cause is gone.
  case runAgain
  /// The tool's own name, where a message says what it writes or follows.
  case tool
  /// Put back what a change kept aside in a directory (already shell-quoted).
  case undo(String)
}

/// Which operation a message is worded for: an export says nothing was written.
package enum NodeOperation: Sendable, Equatable {
  case export
  case verify
  case recover
}

/// Tool-neutral text with typed node remedies in it, as a FreedomNodes result words itself;
/// the tool renders each remedy as its own option (`rendered(_:)`).
package typealias NodeMessage = RemedyMessage<NodeRemedy>

extension RemedyMessage where Remedy == NodeRemedy {
  /// `text` as one word for a POSIX shell: quoted when it holds anything but safe characters.
  package static func shellQuoted(_ text: String) -> String {
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

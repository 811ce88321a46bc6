import VaultKeys

/// What a command can do about a result: the library names it, the tool words it as its own
/// option (`.force` is `--force` to freedom-keys), so no library text names a flag or the tool.
public enum NodeRemedy: Sendable, Equatable, Hashable {
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
public enum NodeOperation: Sendable, Equatable {
  case export
  case verify
  case recover
}

/// Tool-neutral text with typed remedies in it, as a library result words itself; the tool
/// renders each remedy as its own option (`rendered(_:)`).
public struct NodeMessage: Sendable, Equatable, ExpressibleByStringInterpolation {
  public enum Part: Sendable, Equatable {
    case text(String)
    case remedy(NodeRemedy)
  }

  public private(set) var parts: [Part]

  public init(_ parts: [Part]) { self.parts = parts }

  public init(stringLiteral value: String) { parts = [.text(value)] }

  public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

  public struct StringInterpolation: StringInterpolationProtocol {
    var parts: [Part] = []

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

    public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
      parts.append(.text(value.description))
    }

    public mutating func appendInterpolation(remedy: NodeRemedy) { parts.append(.remedy(remedy)) }

    public mutating func appendInterpolation(_ message: NodeMessage) {
      parts += message.parts
    }
  }

  /// Whether there is no text at all.
  public var isEmpty: Bool { parts.allSatisfy { $0 == .text("") } }

  /// The remedies named, in order.
  public var remedies: [NodeRemedy] {
    parts.compactMap { if case .remedy(let remedy) = $0 { remedy } else { nil } }
  }

  /// The message made one line: each control character of its text (read from a file, say)
  /// shown as '?' (`TerminalText.oneLine`); remedies, worded by the tool, are left as they are.
  public var oneLine: NodeMessage {
    NodeMessage(
      parts.map {
        if case .text(let text) = $0 { .text(TerminalText.oneLine(text)) } else { $0 }
      })
  }

  /// The text with each remedy worded by `word`.
  public func rendered(_ word: (NodeRemedy) -> String) -> String {
    parts.map {
      switch $0 {
      case .text(let text): text
      case .remedy(let remedy): word(remedy)
      }
    }.joined()
  }

  public static func + (lhs: NodeMessage, rhs: NodeMessage) -> NodeMessage {
    NodeMessage(lhs.parts + rhs.parts)
  }

  public static func + (lhs: NodeMessage, rhs: String) -> NodeMessage {
    NodeMessage(lhs.parts + [.text(rhs)])
  }

  public static func + (lhs: String, rhs: NodeMessage) -> NodeMessage {
    NodeMessage([.text(lhs)] + rhs.parts)
  }

  public static func += (lhs: inout NodeMessage, rhs: NodeMessage) { lhs.parts += rhs.parts }

  public static func += (lhs: inout NodeMessage, rhs: String) { lhs.parts.append(.text(rhs)) }

  /// `text` as one word for a POSIX shell: quoted when it holds anything but safe characters.
  public static func shellQuoted(_ text: String) -> String {
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

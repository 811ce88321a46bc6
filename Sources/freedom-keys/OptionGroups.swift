import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// The options several commands share, each declared once: one name per concept (a node's
/// data directory is `--data-dir`, a desktop installation `--freedom-dir` everywhere) with the
/// help line each command words for itself.
enum SharedOptions {
  /// A node's data directory (`export bee`, `export ant`, `export antd`).
  static func dataDir(help: String) -> Option { .value("data-dir", "dir", help: help) }

  /// A desktop installation's userData (`export freedom`, `verify`); `--user-data` is the
  /// same option.
  static func freedomDir(help: String) -> Option {
    Option.value("freedom-dir", "dir", help: help).aliased("user-data")
  }

  /// A node kind's directory, as verify and recover take them (`--bee-dir`, `--kubo-repo`, …:
  /// the name the kind declares).
  static func directory(_ kind: NodeDirectoryKind, help: String) -> Option {
    .value(kind.option, "dir", help: help)
  }

  /// `--json`: the result as one JSON object on stdout.
  static func json(help: String) -> Option { .flag("json", help: help) }

  /// `--password-file`: a keystore's password, read from a file (or `-`).
  static func passwordFile(help: String) -> Option {
    .value("password-file", "path", help: help)
  }

  /// `--network-id`: a Swarm overlay's network, a whole number.
  static func networkID(help: String) -> TypedOption<UInt64> {
    .integer("network-id", "n", help: help, in: 0...UInt64.max)
  }

  /// `--overlay-nonce`: a Swarm overlay's nonce, as many bytes as an overlay's in hex.
  static func overlayNonce(help: String) -> TypedOption<[UInt8]> {
    TypedOption(
      option: .value("overlay-nonce", "hex", help: help),
      parse: { text in
        Hex.decode(text).flatMap { $0.count == SwarmOverlay.nonceByteCount ? $0 : nil }
      },
      requirement: "must be \(2 * SwarmOverlay.nonceByteCount) hex digits "
        + "(\(SwarmOverlay.nonceByteCount) bytes)")
  }

  /// `--language`: a BIP-39 wordlist, one of those the package has.
  static func language(help: String) -> Option {
    .value("language", "name", help: help, choices: Wordlist.Language.allCases.map(\.rawValue))
  }

  /// `--alias`: the Radicle node's alias (`node.alias`).
  static func radicleAlias(help: String) -> Option { .value("alias", "name", help: help) }

  /// `--out`: a new file (mode 0600) the result is written to.
  static func out(help: String) -> Option { .value("out", "path", help: help) }
}

/// The options every export takes: `--force`, `--dry-run` and `--json` (swift-argument-parser's
/// `@OptionGroup`): declared here, read here, the same in every export's help.
struct ExportOptions {
  static let dryRun = Option.flag(
    "dry-run", help: "Print what it would do; change nothing.")
  static let json = SharedOptions.json(help: "Print the plan or the result as JSON.")

  /// `--force`, worded for what the export replaces.
  static func force(help: String) -> Option { .flag("force", help: help) }

  /// The group in help order, `--force` worded by the command.
  static func options(force help: String) -> [Option] { [force(help: help), dryRun, json] }

  /// The paragraph of every export's help about the group.
  static let discussion = """
    --dry-run reads and checks everything an export reads (the mnemonic, password
    files, the node directory, opened and recovered as 'verify' opens it) and prints
    the plan: each file it would create, replace (with the identity it holds),
    move aside or keep, the identities before and after, and the backup directory.
    It writes nothing, creates no directory and leaves no lock file; exit 0 when
    the export would succeed, 3 when it would refuse (the same message, every
    conflict named), 1 when it would fail (a lock or directory this user may not
    write, a running kubo daemon) or the input is wrong. A new password typed at
    the prompt is asked for once, since nothing is encrypted with it; the export
    itself asks twice. --json prints the plan (with --dry-run) or the result as one
    JSON object on stdout; an error is one line on stderr and nothing on stdout.
    """

  let forced: Bool
  let dryRun: Bool
  let json: Bool
  /// The export's command path (`freedom-keys export bee`), which its JSON names.
  let commandPath: String

  init(_ arguments: ParsedArguments) {
    commandPath = arguments.commandPath
    forced = arguments.flag(Self.force(help: ""))
    dryRun = arguments.flag(Self.dryRun)
    json = arguments.flag(Self.json)
  }

  /// Whether a password typed at the prompt is a new one, asked for twice: an export encrypts
  /// with every password it is given, a dry run with none.
  var passwordsAreNew: Bool { !dryRun }

  /// What the user agreed the export may replace.
  var consent: ExportConsent { ExportConsent(replacesOtherIdentities: forced) }
}

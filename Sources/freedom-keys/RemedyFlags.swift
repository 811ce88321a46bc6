import FreedomNodes
import Recovery

/// The one table from the libraries' typed remedies (FreedomNodes', Recovery's) to this
/// tool's options and commands.
enum RemedyFlags {
  /// How freedom-keys words `remedy` (`.targetOption` is the option recover was given, which
  /// `NodeText.render` fills in).
  static func words(_ remedy: NodeRemedy) -> String {
    switch remedy {
    case .force: "--force"
    case .replaceVault: "--replace-vault"
    case .create: "--create"
    case .profile: "--profile"
    case .passwordFile: "--password-file"
    case .vaultPasswordFile: "--vault-password-file"
    case .givePeerID: "give --peer-id"
    case .giveAddress: "give the address with --address"
    case .giveRepository: "give --repo the directory that holds the config itself"
    case .targetOption: "the directory option"
    case .freedomDirectory(let path): "--freedom-dir \(path)"
    case .verifyFreedom(let path): "verify --freedom-dir \(path)"
    case .exportFreedom(let path): "export freedom --freedom-dir \(path)"
    case .exportFreedomDirectory: "export freedom --freedom-dir"
    case .exportAntd(let path): "export antd --data-dir \(path)"
    case .exportVaultPassword: "export freedom --vault-password-file"
    case .runAgain: "run this again"
    case .tool: "freedom-keys"
    case .undo(let directory): "'freedom-keys undo \(directory)'"
    }
  }

  /// How freedom-keys words a recovery's `remedy`.
  static func words(_ remedy: RecoveryRemedy) -> String {
    switch remedy {
    case .language: "give --language"
    case .countMissingWords: "give --missing N for words left out"
    case .typosAllowed(let count): "--typos \(count) is"
    case .fewerTypos: "a lower --typos"
    case .fewerDamageModels: "use fewer of --missing, --swaps and --typos together"
    case .shardSyntax: "--shard K/N"
    case .fewerPasswords: "give a lower --password-typos or fewer candidates"
    case .keptPositions: "--keep-positions"
    }
  }
}

import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Desktop Freedom's `<userData>/identity/vault-meta.json` (`identity-manager.js`): public
/// facts about the vault that the app shows while it is locked. Nothing in it is secret.
///
/// Written with `JSON.stringify(meta, null, 2)` (no final newline). On import or creation it
/// is `{userKnowsPassword, createdAt, addresses: {userWallet, beeWallet}}`; the first wallet
/// listing adds `derivedWallets: [{index: 0, name: "Main Wallet", address}]` and
/// `activeWalletIndex: 0`; later wallets add `{index, name, address}` (mnemonic wallets, no
/// `type`) or `{index, name, address, type, …}` for device accounts. A wallet's `index` is the
/// BIP-44 account of `m/44'/60'/index'/0/0` for mnemonic wallets; device accounts (`ledger`,
/// `remote`, `safe`) are numbered from 1,000,000 and have no key in the mnemonic.
public struct DesktopVaultMeta: Sendable, Equatable {
  /// The file's name inside `<userData>/identity/`.
  public static let fileName = "vault-meta.json"
  /// Where desktop numbers device accounts from (`HARDWARE_INDEX_BASE`).
  public static let deviceIndexBase = 1_000_000
  /// The largest file read; a real one is a few KiB.
  public static let maxByteCount = 1 << 20
  /// The name desktop gives the implicit first wallet.
  public static let mainWalletName = "Main Wallet"

  /// A wallet's `type`; a wallet without one predates device accounts and is a mnemonic wallet.
  public enum WalletType: Equatable, Sendable, CustomStringConvertible {
    case mnemonic, ledger, remote, safe
    /// A type this tool does not know; desktop treats it as a device account too.
    case other(String)

    init(_ name: String?) {
      switch name {
      case nil, "mnemonic": self = .mnemonic
      case "ledger": self = .ledger
      case "remote": self = .remote
      case "safe": self = .safe
      case let name?: self = .other(name)
      }
    }

    public var description: String {
      switch self {
      case .mnemonic: "mnemonic"
      case .ledger: "ledger"
      case .remote: "remote"
      case .safe: "safe"
      case .other(let name): name
      }
    }
  }

  /// One entry of `derivedWallets`.
  public struct Wallet: Sendable, Equatable {
    /// The wallet's id; for a mnemonic wallet also its BIP-44 account index.
    public let index: Int
    /// The name the user gave it.
    public let name: String?
    /// The address stored when the wallet was added (checksummed as desktop wrote it), if any.
    public let address: String?
    /// The account type.
    public let type: WalletType

    /// Whether the mnemonic holds this wallet's key: a mnemonic wallet below the device range.
    /// Desktop itself refuses to derive at an index of 1,000,000 or more.
    public var isDerivable: Bool {
      type == .mnemonic && index >= 0 && index < DesktopVaultMeta.deviceIndexBase
    }

    /// A wallet entry.
    public init(index: Int, name: String?, address: String?, type: WalletType) {
      self.index = index
      self.name = name
      self.address = address
      self.type = type
    }
  }

  /// `userKnowsPassword`: false after desktop's quick setup made up the vault password.
  public let userKnowsPassword: Bool?
  /// When the vault was created (ISO 8601, as stored).
  public let createdAt: String?
  /// `addresses.userWallet`: m/44'/60'/0'/0/0.
  public let userWalletAddress: String?
  /// `addresses.beeWallet`: the Swarm wallet m/44'/60'/0'/0/1.
  public let beeWalletAddress: String?
  /// `derivedWallets` as stored; nil when desktop has not written the list yet.
  public let derivedWallets: [Wallet]?
  /// `activeWalletIndex`.
  public let activeWalletIndex: Int?

  /// The wallets desktop shows: `derivedWallets`, or the implicit main wallet when the list was
  /// never written (`getWalletList`).
  public var wallets: [Wallet] {
    derivedWallets ?? [
      Wallet(index: 0, name: Self.mainWalletName, address: userWalletAddress, type: .mnemonic)
    ]
  }

  /// Parses the bytes of a `vault-meta.json`.
  public init(json bytes: some ContiguousBytes) throws(DesktopVaultMetaError) {
    let json = bytes.withUnsafeBytes { [UInt8]($0) }
    guard json.count <= Self.maxByteCount else { throw .invalid("the file is larger than 1 MiB") }
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: Data(json))
    } catch DecodingError.typeMismatch(_, let context) {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
      throw .invalid("'\(path.joined().drop { $0 == "." })' has the wrong type")
    } catch DecodingError.keyNotFound(let key, let context) {
      let path = (context.codingPath + [key]).map {
        $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)"
      }
      throw .invalid("missing '\(path.joined().drop { $0 == "." })'")
    } catch {
      throw .invalid("not a JSON object of the expected shape")
    }
    userKnowsPassword = file.userKnowsPassword
    createdAt = file.createdAt
    userWalletAddress = file.addresses?.userWallet
    beeWalletAddress = file.addresses?.beeWallet
    derivedWallets = file.derivedWallets?.map {
      Wallet(index: $0.index, name: $0.name, address: $0.address, type: WalletType($0.type))
    }
    activeWalletIndex = file.activeWalletIndex
  }

  /// The file desktop writes when a mnemonic is imported (`importExistingMnemonic`):
  /// `{"userKnowsPassword", "createdAt", "addresses": {"userWallet", "beeWallet"}}`, two-space
  /// indentation, no final newline.
  public static func importedJSON(
    userWallet: EthereumAddress, beeWallet: EthereumAddress, createdAt: Date = Date(),
    userKnowsPassword: Bool = true
  ) -> [UInt8] {
    let text = """
      {
        "userKnowsPassword": \(userKnowsPassword),
        "createdAt": "\(DesktopVault.isoTimestamp(createdAt))",
        "addresses": {
          "userWallet": "\(userWallet.checksummed)",
          "beeWallet": "\(beeWallet.checksummed)"
        }
      }
      """
    return Array(text.utf8)
  }

  private struct File: Decodable {
    struct Addresses: Decodable {
      let userWallet: String?
      let beeWallet: String?
    }
    struct Entry: Decodable {
      let index: Int
      let name: String?
      let address: String?
      let type: String?
    }
    let userKnowsPassword: Bool?
    let createdAt: String?
    let addresses: Addresses?
    let derivedWallets: [Entry]?
    let activeWalletIndex: Int?
  }
}

/// Why a `vault-meta.json` could not be read.
public enum DesktopVaultMetaError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not desktop Freedom's vault metadata; the reason names what is wrong.
  case invalid(String)

  public var description: String {
    switch self {
    case .invalid(let reason): "the file is not desktop Freedom's vault-meta.json: \(reason)"
    }
  }
}

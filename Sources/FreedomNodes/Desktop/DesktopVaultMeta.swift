import CryptoPrimitives
import VaultKeys

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
/// `type`) or `{index, name, address, type, …}` for device accounts (a Ledger's `path`, a
/// Safe's `owners`, `threshold`, `saltNonce` and `deployed`), and `nextHardwareWalletIndex`.
/// A wallet's `index` is the BIP-44 account of `m/44'/60'/index'/0/0` for mnemonic wallets;
/// device accounts (`ledger`, `remote`, `safe`) are numbered from 1,000,000, and desktop derives
/// no key at such an index whatever its record says (`isDeviceIndex`).
///
/// Read as desktop reads it (`JSON.parse`: a member named twice, the last one wins; an index
/// is any number `Number.isInteger` accepts), on the package's one JSON reader; the bytes are
/// kept, so the file can be written again with every member it holds (`keepingMembers`).
package struct DesktopVaultMeta: Sendable, Equatable {
  /// The file's name inside `<userData>/identity/`.
  package static let fileName = "vault-meta.json"
  /// Where desktop numbers device accounts from (`HARDWARE_INDEX_BASE`).
  package static let deviceIndexBase = 1_000_000
  /// The largest file read; a real one is a few KiB.
  package static let maxByteCount = 1 << 20
  /// The name desktop gives the implicit first wallet.
  package static let mainWalletName = "Main Wallet"

  /// Whether desktop holds `index` for a device account, never derived from the mnemonic: at or
  /// above `deviceIndexBase` (`isHardwareWalletIndex`; its key-access guard refuses such an
  /// index even when no record names it), or negative (no BIP-44 account).
  package static func isDeviceIndex(_ index: Int) -> Bool {
    index < 0 || index >= deviceIndexBase
  }

  /// A wallet's `type`; a wallet without one predates device accounts and is a mnemonic wallet.
  package enum WalletType: Equatable, Sendable, CustomStringConvertible {
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

    package var description: String {
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
  package struct Wallet: Sendable, Equatable {
    /// The wallet's id; for a mnemonic wallet also its BIP-44 account index.
    package let index: Int
    /// The name the user gave it.
    package let name: String?
    /// The address stored when the wallet was added (checksummed as desktop wrote it), if any.
    package let address: String?
    /// The account type.
    package let type: WalletType

    /// Whether the mnemonic holds this wallet's key: a mnemonic wallet outside the device range
    /// (`isDeviceIndex`), the one rule every reader of the file follows.
    package var isDerivable: Bool {
      type == .mnemonic && !DesktopVaultMeta.isDeviceIndex(index)
    }

    /// A wallet entry.
    package init(index: Int, name: String?, address: String?, type: WalletType) {
      self.index = index
      self.name = name
      self.address = address
      self.type = type
    }
  }

  /// `userKnowsPassword`: false after desktop's quick setup made up the vault password.
  package let userKnowsPassword: Bool?
  /// When the vault was created (ISO 8601, as stored).
  package let createdAt: String?
  /// `addresses.userWallet`: m/44'/60'/0'/0/0.
  package let userWalletAddress: String?
  /// `addresses.beeWallet`: the Swarm wallet m/44'/60'/0'/0/1.
  package let beeWalletAddress: String?
  /// `derivedWallets` as stored; nil when desktop has not written the list yet.
  package let derivedWallets: [Wallet]?
  /// `activeWalletIndex`.
  package let activeWalletIndex: Int?
  /// The file as read: what `keepingMembers` edits, every other byte kept.
  let bytes: [UInt8]

  /// The wallets desktop shows: `derivedWallets`, or the implicit main wallet when the list was
  /// never written (`getWalletList`).
  package var wallets: [Wallet] {
    derivedWallets ?? [
      Wallet(index: 0, name: Self.mainWalletName, address: userWalletAddress, type: .mnemonic)
    ]
  }

  /// Parses the bytes of a `vault-meta.json`. A member of the wrong type is named
  /// (`'derivedWallets[0].index' has the wrong type`); `null` is a member left out.
  package init(json bytes: some ContiguousBytes) throws(DesktopVaultMetaError) {
    let json = bytes.withUnsafeBytes { [UInt8]($0) }
    guard json.count <= Self.maxByteCount else { throw .invalid("the file is larger than 1 MiB") }
    let read: Result<Fields, DesktopVaultMetaError> = json.withUnsafeBytes { raw in
      do throws(DesktopVaultMetaError) {
        return .success(try Fields(raw))
      } catch {
        return .failure(error)
      }
    }
    let fields = try read.get()
    userKnowsPassword = fields.userKnowsPassword
    createdAt = fields.createdAt
    userWalletAddress = fields.userWallet
    beeWalletAddress = fields.beeWallet
    derivedWallets = fields.wallets
    activeWalletIndex = fields.activeWalletIndex
    self.bytes = json
  }

  /// The members read, each checked for the type desktop writes.
  private struct Fields {
    var userKnowsPassword: Bool?
    var createdAt: String?
    var userWallet: String?
    var beeWallet: String?
    var wallets: [Wallet]?
    var activeWalletIndex: Int?

    init(_ raw: UnsafeRawBufferPointer) throws(DesktopVaultMetaError) {
      let root: JSONNode
      do {
        root = try JSONText.parse(raw, duplicates: .kept)
      } catch {
        throw .invalid(error.description)
      }
      guard root.isObject else { throw .invalid("the top level is not an object") }
      let reader = MemberReader(raw: raw)
      userKnowsPassword = try reader.bool(root, "userKnowsPassword", at: "")
      createdAt = try reader.string(root, "createdAt", at: "")
      if let addresses = try reader.object(root, "addresses", at: "") {
        userWallet = try reader.string(addresses, "userWallet", at: "addresses.")
        beeWallet = try reader.string(addresses, "beeWallet", at: "addresses.")
      }
      if let list = reader.value(root, "derivedWallets") {
        guard case .array(let entries) = list.kind else {
          throw .invalid("'derivedWallets' has the wrong type")
        }
        var read: [Wallet] = []
        for (offset, entry) in entries.enumerated() {
          let at = "derivedWallets[\(offset)]"
          guard entry.isObject else { throw .invalid("'\(at)' has the wrong type") }
          guard let index = try reader.integer(entry, "index", at: at + ".") else {
            throw .invalid("missing '\(at).index'")
          }
          read.append(
            Wallet(
              index: index, name: try reader.string(entry, "name", at: at + "."),
              address: try reader.string(entry, "address", at: at + "."),
              type: WalletType(try reader.string(entry, "type", at: at + "."))))
        }
        wallets = read
      }
      activeWalletIndex = try reader.integer(root, "activeWalletIndex", at: "")
    }
  }

  /// Reads one member of an object as `JSON.parse` leaves it: the last of its name; `null` is
  /// none; a value of another type than desktop writes is refused, named by its path.
  struct MemberReader {
    let raw: UnsafeRawBufferPointer

    func value(_ object: JSONNode, _ name: String) -> JSONNode? {
      guard let member = object.lastMember(named: name) else { return nil }
      if case .null = member.value.kind { return nil }
      return member.value
    }

    private func wrongType(_ path: String, _ name: String) -> DesktopVaultMetaError {
      .invalid("'\(path)\(name)' has the wrong type")
    }

    func string(_ object: JSONNode, _ name: String, at path: String)
      throws(DesktopVaultMetaError) -> String?
    {
      guard let node = value(object, name) else { return nil }
      guard node.isString else { throw wrongType(path, name) }
      return JSONText.string(node, in: raw)
    }

    func bool(_ object: JSONNode, _ name: String, at path: String) throws(DesktopVaultMetaError)
      -> Bool?
    {
      guard let node = value(object, name) else { return nil }
      guard case .bool(let flag) = node.kind else { throw wrongType(path, name) }
      return flag
    }

    /// A number `Number.isInteger` accepts (2.0 is 2), within ±(2^53 − 1).
    func integer(_ object: JSONNode, _ name: String, at path: String)
      throws(DesktopVaultMetaError) -> Int?
    {
      guard let node = value(object, name) else { return nil }
      guard let integer = DesktopProfileRegistry.integer(node, in: raw) else {
        throw wrongType(path, name)
      }
      return integer
    }

    func object(_ object: JSONNode, _ name: String, at path: String)
      throws(DesktopVaultMetaError) -> JSONNode?
    {
      guard let node = value(object, name) else { return nil }
      guard node.isObject else { throw wrongType(path, name) }
      return node
    }
  }

  /// The file desktop writes when a mnemonic is imported (`importExistingMnemonic`):
  /// `{"userKnowsPassword", "createdAt", "addresses": {"userWallet", "beeWallet"}}`, two-space
  /// indentation, no final newline.
  package static func importedJSON(
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
}

/// Why a `vault-meta.json` could not be read.
package enum DesktopVaultMetaError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not desktop Freedom's vault metadata; the reason names what is wrong.
  case invalid(String)

  package var description: String {
    switch self {
    case .invalid(let reason): "the file is not desktop Freedom's vault-meta.json: \(reason)"
    }
  }
}

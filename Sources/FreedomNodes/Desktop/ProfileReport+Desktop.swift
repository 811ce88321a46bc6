import CryptoPrimitives
import VaultKeys

/// The parts of a profile's report only desktop Freedom has: the wallets its `vault-meta.json`
/// lists and its experimental keys.
extension ProfileReport {
  /// desktop's wallets at their own indexes (gaps kept), each compared with the stored address;
  /// device accounts are named and skipped, since the mnemonic holds no key for them.
  mutating func addVaultMeta(
    _ meta: DesktopVaultMeta, path: String, profile: FreedomProfile, secrets: Bool
  ) throws {
    var summary: JSONObject = ["path": .string(path)]
    let (userWallet, beeWallet) = meta.addressChecks(profile)
    for (key, check) in [("userWallet", userWallet), ("beeWallet", beeWallet)] {
      guard let check else { continue }
      summary.append(
        key, .object(["stored": .string(check.stored), "matches": .bool(check.matches)]))
    }
    var wallets: [JSONValue] = []
    for check in try meta.walletChecks(profile) {
      let wallet = check.wallet
      var object: JSONObject = ["index": .number(UInt64(max(wallet.index, 0)))]
      object.append("name", .string(wallet.name ?? ""))
      object.append("type", .string(wallet.type.description))
      text.section("Vault wallet \(wallet.index)" + (wallet.name.map { " \"\($0)\"" } ?? ""))
      text.row("Type", wallet.type.description)
      object.append("derivable", .bool(check.account != nil))
      if let account = check.account {
        object.append("path", .string(account.path.description))
        object.append("address", .string(account.address.checksummed))
        text.row("Path", account.path.description)
        text.row("Address", account.address.checksummed)
        if secrets {
          object.append("privateKey", .string(Self.hex(account.privateKey)))
          text.row("Private key", Self.hex(account.privateKey))
        }
        if let stored = wallet.address, let matches = check.matches {
          object.append("stored", .string(stored))
          object.append("matches", .bool(matches))
          text.row("Stored", stored + (matches ? " (matches)" : " (MISMATCH)"))
        }
      } else {
        if let stored = wallet.address {
          object.append("stored", .string(stored))
          text.row("Stored", stored)
        }
        text.row("Key", "not in the mnemonic (device account); skipped")
      }
      wallets.append(.object(object))
    }
    summary.append("wallets", .array(wallets))
    json.append("vaultMeta", .object(summary))
  }

  /// desktop's experimental keys: Railgun's private keys and storage roots are secrets through
  /// and through, so without `secrets` only their paths show.
  mutating func addExperimental(
    _ selection: ExperimentalAccount.Selection, profile: FreedomProfile, secrets: Bool
  ) throws {
    var railgun: JSONObject = [:]
    let profileID = selection.railgunProfile.map {
      RailgunStorageRoot.profileID(id: $0.id, userDataDirectory: $0.userDataDirectory)
    }
    if let profileID {
      railgun.append("profileId", .string(profileID))
      text.section("Railgun profile")
      text.row("Profile ID", profileID)
    }
    let master = try RailgunKeyNode(seed: profile.seed)
    var accounts: [JSONValue] = []
    for index in selection.railgunIndexes {
      let account = try RailgunAccount(master: master, index: index)
      var object: JSONObject = [
        "index": .number(UInt64(index)),
        "spendingPath": .string(account.spendingPath.description),
        "viewingPath": .string(account.viewingPath.description),
      ]
      if secrets {
        object.append("spendingKey", .string(account.spendingKey.revealHex()))
        object.append("viewingKey", .string(account.viewingKey.revealHex()))
        if let profileID {
          let root = try RailgunStorageRoot.root(
            seed: profile.seed, profileID: profileID, accountIndex: index)
          object.append("storageRoot", .string(root.revealHex()))
        }
      }
      accounts.append(.object(object))
      addSection("Railgun \(index)", object)
    }
    railgun.append("accounts", .array(accounts))

    var ppv2: [JSONValue] = []
    for index in selection.ppv2Indexes {
      let key = try KohakuPPv2Key(profile: profile, index: index)
      let object = Self.indexed(index, Self.account(key.account, secrets: secrets))
      ppv2.append(.object(object))
      addSection("PPv2 \(index)", object)
    }
    json.append("experimental", .object(["railgun": .object(railgun), "ppv2": .array(ppv2)]))
  }
}

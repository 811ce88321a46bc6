import CommandLineKit
import CryptoPrimitives
import FoundationEssentials
import VaultKeys

/// `derive --vault-meta`: the wallets desktop Freedom lists in `vault-meta.json`, each derived
/// at its own index (gaps kept), compared with the address desktop stored; device accounts are
/// named and skipped, since the mnemonic holds no key for them.
struct DeriveVaultWallets {
  /// Where the file was read.
  let path: String
  let meta: DesktopVaultMeta

  /// `vault-meta.json` beside a `--vault-file`, when there is one.
  static func besideVault(_ vaultPath: String) -> String? {
    guard vaultPath != "-" else { return nil }  // a vault on standard input has no directory
    let directory = vaultPath.lastIndex(of: "/").map { String(vaultPath[...$0]) } ?? "./"
    let candidate = directory + DesktopVaultMeta.fileName
    return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
  }

  /// Reads and parses the file; nothing in it is secret.
  static func read(_ path: String) throws -> DeriveVaultWallets {
    guard let bytes = try ExportFiles.read(path) else {
      throw CLIError.failure("\(path) does not exist; check --vault-meta")
    }
    do {
      return DeriveVaultWallets(
        path: path, meta: try DesktopVaultMeta(json: bytes))
    } catch {
      throw CLIError.failure("\(path): \(error)")
    }
  }

  /// One wallet as `derive` reports it.
  struct Row {
    let json: JSONObject
    let title: String
    let rows: [(String, String)]
  }

  /// The stored addresses and every wallet, derived where the mnemonic holds its key.
  func rows(_ profile: FreedomProfile, secrets: Bool) throws -> (json: JSONObject, wallets: [Row]) {
    var summary: JSONObject = ["path": .string(path)]
    for (key, stored, derived) in [
      ("userWallet", meta.userWalletAddress, profile.wallet.address),
      ("beeWallet", meta.beeWalletAddress, profile.swarm.address),
    ] {
      guard let stored else { continue }
      summary.append(
        key,
        .object(["stored": .string(stored), "matches": .bool(Self.same(stored, derived))]))
    }
    var wallets: [Row] = []
    for wallet in meta.wallets {
      var object: JSONObject = ["index": .number(UInt64(max(wallet.index, 0)))]
      object.append("name", .string(wallet.name ?? ""))
      object.append("type", .string(wallet.type.description))
      var rows: [(String, String)] = [("Type", wallet.type.description)]
      if wallet.isDerivable {
        let account = try profile.wallet(index: UInt32(wallet.index))
        object.append("derivable", .bool(true))
        object.append("path", .string(account.path.description))
        object.append("address", .string(account.address.checksummed))
        rows += [("Path", account.path.description), ("Address", account.address.checksummed)]
        if secrets {
          object.append("privateKey", .string(account.privateKey.rawRepresentation.revealHex()))
          rows.append(("Private key", account.privateKey.rawRepresentation.revealHex()))
        }
        if let stored = wallet.address {
          let matches = Self.same(stored, account.address)
          object.append("stored", .string(stored))
          object.append("matches", .bool(matches))
          rows.append(("Stored", stored + (matches ? " (matches)" : " (MISMATCH)")))
        }
      } else {
        object.append("derivable", .bool(false))
        if let stored = wallet.address {
          object.append("stored", .string(stored))
          rows.append(("Stored", stored))
        }
        rows.append(("Key", "not in the mnemonic (device account); skipped"))
      }
      let name = wallet.name.map { " \"\($0)\"" } ?? ""
      wallets.append(Row(json: object, title: "Vault wallet \(wallet.index)\(name)", rows: rows))
    }
    return (summary, wallets)
  }

  private static func same(_ stored: String, _ derived: EthereumAddress) -> Bool {
    (try? EthereumAddress(stored)) == derived
  }
}

import Recovery
import VaultKeys

/// What recovery matches in desktop Freedom's `vault-meta.json`: the public addresses desktop
/// keeps beside the encrypted vault, read by the file's one reader (`DesktopVaultMeta`), with
/// its one rule for which wallets the mnemonic holds (`Wallet.isDerivable`).
extension DesktopVaultMeta {
  /// The targets the file names: `addresses.userWallet` (m/44'/60'/0'/0/0), `addresses.beeWallet`
  /// (the Swarm wallet, m/44'/60'/0'/0/1) and each derivable wallet's stored address at
  /// m/44'/60'/index'/0/0 (the main wallet once). Device accounts, and any wallet numbered in
  /// their range, hold no key of the mnemonic and are no target.
  package func recoveryTargets() throws(DesktopVaultMetaTargetError) -> [RecoveryTarget] {
    func address(_ text: String, _ name: String) throws(DesktopVaultMetaTargetError)
      -> EthereumAddress
    {
      guard let address = try? EthereumAddress(text) else { throw .notAnAddress(name) }
      return address
    }
    var targets: [RecoveryTarget] = []
    var user: EthereumAddress?
    if let stored = userWalletAddress {
      let found = try address(stored, "addresses.userWallet")
      user = found
      targets.append(.address(found, of: .wallet(0)))
    }
    if let bee = beeWalletAddress {
      targets.append(.address(try address(bee, "addresses.beeWallet"), of: .swarm))
    }
    for (offset, wallet) in (derivedWallets ?? []).enumerated() where wallet.isDerivable {
      guard let stored = wallet.address else { continue }
      let found = try address(stored, "derivedWallets[\(offset)].address")
      guard found != user || wallet.index != 0 else { continue }
      targets.append(.address(found, of: .wallet(UInt32(wallet.index))))
    }
    guard !targets.isEmpty else { throw .noAddresses }
    return targets
  }
}

/// Why a `vault-meta.json` that desktop reads gives no target.
package enum DesktopVaultMetaTargetError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A stored address (named by its path in the file) is not an Ethereum address.
  case notAnAddress(String)
  /// It names no address of the mnemonic.
  case noAddresses

  package var description: String {
    switch self {
    case .notAnAddress(let name): "\(name) is not an Ethereum address"
    case .noAddresses:
      "it holds no address of the mnemonic (addresses.userWallet, addresses.beeWallet or "
        + "derivedWallets)"
    }
  }
}

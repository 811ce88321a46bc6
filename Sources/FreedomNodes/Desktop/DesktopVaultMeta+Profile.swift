import VaultKeys

extension DesktopVaultMeta {
  /// An address the file stores, compared with the one the mnemonic derives.
  package struct AddressCheck: Sendable, Equatable {
    /// The address as stored.
    package let stored: String
    /// Whether it is the derived address (a stored text that is no address never matches).
    package let matches: Bool
  }

  /// A listed wallet, with its key where the mnemonic holds it.
  package struct WalletCheck: Sendable {
    /// The wallet as listed.
    package let wallet: Wallet
    /// The account at the wallet's own index; nil for a device account (no key in the mnemonic).
    package let account: EthereumAccount?
    /// Whether the stored address is the derived one; nil when either is missing.
    package let matches: Bool?
  }

  /// `addresses.userWallet` and `addresses.beeWallet` beside `profile`'s wallet and Swarm
  /// wallet, each nil when the file stores none.
  package func addressChecks(_ profile: FreedomProfile) -> (
    userWallet: AddressCheck?, beeWallet: AddressCheck?
  ) {
    (
      userWalletAddress.map { Self.check($0, profile.wallet.address) },
      beeWalletAddress.map { Self.check($0, profile.swarm.address) }
    )
  }

  /// Every wallet desktop lists, derived at its own index (gaps kept) where the mnemonic holds
  /// its key, compared with the stored address; device accounts are kept without a key.
  package func walletChecks(_ profile: FreedomProfile) throws -> [WalletCheck] {
    try wallets.map { wallet in
      guard wallet.isDerivable else {
        return WalletCheck(wallet: wallet, account: nil, matches: nil)
      }
      let account = try profile.wallet(index: UInt32(wallet.index))
      let matches = wallet.address.map { Self.check($0, account.address).matches }
      return WalletCheck(wallet: wallet, account: account, matches: matches)
    }
  }

  private static func check(_ stored: String, _ derived: EthereumAddress) -> AddressCheck {
    AddressCheck(stored: stored, matches: (try? EthereumAddress(stored)) == derived)
  }
}

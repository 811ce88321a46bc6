import CryptoPrimitives

/// The signer key desktop Freedom hands Kohaku's Privacy Pools v2 plugin for one account:
/// BIP-32 secp256k1 at m/28784'/2'/i' (solardev-xyz/freedom-browser
/// `src/main/identity/ppv2-keys.js`, ethers `HDNodeWallet.fromSeed(seed).derivePath`).
/// Desktop marks the scheme provisional (`appIdentifier: 'TODO-privacy-pools-v2'`).
public struct KohakuPPv2Key: Sendable {
  /// The account index, 0 to 65535.
  public let index: UInt32
  /// The account's BIP-32 key, address and public key.
  public let account: EthereumAccount

  /// Account `index` of `profile`.
  public init(profile: FreedomProfile, index: UInt32) throws(ExperimentalKeyError) {
    try ExperimentalAccount.check(index)
    self.index = index
    do {
      account = try profile.account(at: Self.path(index: index))
    } catch {
      throw .derivation(error)
    }
  }

  /// m/28784'/2'/i' (`index` at most 65535).
  public static func path(index: UInt32) -> DerivationPath {
    DerivationPath(components: [28784, 2, index].map(ExperimentalAccount.hardened))
  }
}

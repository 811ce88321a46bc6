import FreedomNodes
import VaultKeys

/// Desktop's vault-meta.json: never crashes, reads deterministically, and what it lists is what
/// the file holds (the implicit main wallet only when `derivedWallets` is absent).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = bytes(data, size)
  guard let meta = try? DesktopVaultMeta(json: input) else { return 0 }
  guard let again = try? DesktopVaultMeta(json: input) else {
    require(false, "a file read once does not read again")
    return 0
  }
  require(again.userWalletAddress == meta.userWalletAddress, "userWallet differs")
  require(again.beeWalletAddress == meta.beeWalletAddress, "beeWallet differs")
  require(again.derivedWallets?.count == meta.derivedWallets?.count, "wallets differ")
  if let derived = meta.derivedWallets {
    require(meta.wallets.count == derived.count, "the listed wallets are not the file's")
  } else {
    require(meta.wallets.count == 1 && meta.wallets[0].index == 0, "no implicit main wallet")
  }
  return 0
}

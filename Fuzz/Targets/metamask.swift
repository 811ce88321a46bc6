import CryptoPrimitives
import VaultKeys

/// MetaMask vault reader (the vault string, state JSON, extension storage): never crashes; a
/// vault with few iterations is opened with a fixed password, so the keyrings' reader runs when
/// the tag verifies (the seeds are sealed under "pw").
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let vault = try? MetaMaskVault(json: bytes(data, size)) else { return 0 }
  if vault.iterations <= 64 { _ = try? vault.decryptMnemonic(password: SecureBytes(utf8: "pw")) }
  return 0
}

import CryptoPrimitives
import VaultKeys

/// Desktop vault reader: never crashes; a vault with few iterations is opened with a fixed
/// password (the payload reader runs when the tag happens to verify, which a seed provides).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let vault = try? DesktopVault(json: bytes(data, size)) else { return 0 }
  if vault.iterations <= 64 { _ = try? vault.decryptMnemonic(password: SecureBytes(utf8: "pw")) }
  return 0
}

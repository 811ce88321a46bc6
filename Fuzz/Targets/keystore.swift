import CryptoPrimitives
import VaultKeys

/// Web3 keystore reader: never crashes; a file with a cheap KDF is also decrypted (any outcome
/// but a crash is fine), so the MAC, AES and address paths run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let keystore = try? Web3Keystore(json: bytes(data, size)) else { return 0 }
  let cheap =
    switch keystore.kdf {
    case .scrypt(let n, let r, let p): n <= 64 && r <= 8 && p <= 2
    case .pbkdf2(let iterations): iterations <= 64
    }
  if cheap { _ = try? keystore.decrypt(password: SecureBytes(utf8: "pw")) }
  return 0
}

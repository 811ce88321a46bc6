import CryptoPrimitives
import VaultKeys

/// Mnemonic parser: a phrase that parses is written by `phrase()` and reads back the same entropy
/// and language.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let mnemonic = try? Mnemonic(phrase: SecureBytes(bytes(data, size))) else { return 0 }
  guard let again = try? Mnemonic(phrase: mnemonic.phrase(), language: mnemonic.language) else {
    require(false, "the written phrase does not parse")
    return 0
  }
  require(again.entropy == mnemonic.entropy, "entropy changed")
  return 0
}

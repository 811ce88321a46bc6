import VaultKeys

/// xprv/xpub: a key that parses serializes back to exactly the input text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let text = String(decoding: bytes(data, size), as: UTF8.self)
  if let key = try? ExtendedPrivateKey(serialized: text) {
    require(key.serialized().withUnsafeBytes { Array($0) } == Array(text.utf8), "xprv round trip")
  }
  if let key = try? ExtendedPublicKey(serialized: text) {
    require(key.serialized == text, "xpub round trip")
  }
  return 0
}

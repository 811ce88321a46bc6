import VaultKeys

/// Derivation paths: a path that parses is written by `description` and reads back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let text = String(decoding: bytes(data, size), as: UTF8.self)
  guard let path = try? DerivationPath(text) else { return 0 }
  require(path.components.count <= DerivationPath.maximumDepth, "too deep")
  require((try? DerivationPath(path.description)) == path, "description does not read back")
  return 0
}

import FreedomNodes
import VaultKeys

/// Radicle config edit: a config that parses gets the alias; the result parses with that alias,
/// a second identical edit changes no byte, and setting the old alias back reads it back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let config = try? RadicleConfig(json: bytes(data, size)) else { return 0 }
  let alias = "fuzz\"é\\"
  guard let edited = try? config.settingAlias(alias) else {
    require(false, "a parsed config could not be edited")
    return 0
  }
  guard let reread = try? RadicleConfig(json: edited) else {
    require(false, "the edited config does not parse")
    return 0
  }
  require(reread.alias == alias, "alias not written")
  require((try? reread.settingAlias(alias)) == edited, "a second identical edit changed bytes")
  if let old = config.alias, RadicleConfig.aliasProblem(old) == nil {
    let back = try? reread.settingAlias(old)
    require(back.flatMap { try? RadicleConfig(json: $0) }?.alias == old, "old alias not restored")
  }
  return 0
}

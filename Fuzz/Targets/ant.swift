import FreedomNodes
import VaultKeys

/// Ant identity.json: an identity that parses is written by `json` and reads back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let identity = try? AntIdentity(json: bytes(data, size)) else { return 0 }
  let written = identity.json
  guard let reread = try? AntIdentity(json: written) else {
    require(false, "the written identity does not parse")
    return 0
  }
  require(reread.signingKey.rawRepresentation == identity.signingKey.rawRepresentation, "key")
  require(reread.overlayNonce == identity.overlayNonce, "nonce")
  require(reread.json == written, "writing is not stable")
  return 0
}

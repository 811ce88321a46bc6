import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// kubo config edit: a config that parses can be given an identity; the result parses and holds
/// exactly that identity; editing it again with the same identity changes no byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let config = try? KuboConfig(json: bytes(data, size)) else { return 0 }
  let peerID = "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW"
  let privKey = SecureBytes(Array("CAESQCA=".utf8))
  let edited: SecureBytes
  do {
    edited = try config.settingIdentity(peerID: peerID, privateKey: privKey)
  } catch {
    require(false, "a parsed config could not be edited: \(error)")
    return 0
  }
  let bytes = edited.withUnsafeBytes { Array($0) }
  guard let reread = try? KuboConfig(json: bytes) else {
    require(false, "the edited config does not parse")
    return 0
  }
  require(reread.peerID == peerID, "PeerID not written")
  require(reread.privateKey == privKey, "PrivKey not written")
  let twice = try? reread.settingIdentity(peerID: peerID, privateKey: privKey)
  require(twice == edited, "a second identical edit changed bytes")
  return 0
}

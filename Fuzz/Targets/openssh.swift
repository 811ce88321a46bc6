import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// OpenSSH Ed25519 private key reader: a key that parses is written by `pem` and reads back the
/// same key and comment.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard
    let (key, comment) = try? OpenSSHEd25519PrivateKey.parse(pem: SecureBytes(bytes(data, size)))
  else { return 0 }
  let written = OpenSSHEd25519PrivateKey.pem(privateKey: key, comment: comment)
  guard let (again, againComment) = try? OpenSSHEd25519PrivateKey.parse(pem: written) else {
    require(false, "the written key does not parse")
    return 0
  }
  require(again.rawRepresentation == key.rawRepresentation, "key changed")
  require(againComment == comment, "comment changed")
  return 0
}

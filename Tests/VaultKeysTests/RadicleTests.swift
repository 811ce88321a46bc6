import CryptoPrimitives
import Testing
import VaultKeys

/// The all-zero Ed25519 seed's identity, computed with PyNaCl, base58 and hashlib in Python.
@Suite struct RadicleTests {
  static func identity() throws -> RadicleIdentity {
    let seed = SecureBytes([UInt8](repeating: 0, count: 32))
    return RadicleIdentity(publicKey: try Ed25519.PrivateKey(rawRepresentation: seed).publicKey)
  }

  @Test func encodings() throws {
    let identity = try Self.identity()
    #expect(identity.nodeID == "z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp")
    #expect(identity.did == "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp")
    #expect(
      identity.sshPublicKey
        == "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop")
    #expect(identity.sshFingerprint == "SHA256:tAXFyTXI8xtDaujAEcwJslAYc9/6FKcUkd2Lw0xDhPo")
  }

  @Test func parsesNodeIDAndDID() throws {
    let identity = try Self.identity()
    #expect(try RadicleIdentity("z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp") == identity)
    #expect(
      try RadicleIdentity("did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp") == identity)
  }

  @Test func rejectsOtherText() {
    let cases: [(String, RadicleIdentityError)] = [
      ("", .notANodeID),
      ("did:key:", .notANodeID),
      ("6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp", .notANodeID),  // no multibase prefix
      ("did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooW0", .notANodeID),  // '0'
      ("k51qzi5uqu5dgy8qsq67hbz73jqkw87l3fgf4a91qb0d9b5173tir7n4vxk1oe", .notANodeID),  // base36
      ("DID:KEY:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp", .notANodeID),
      // A secp256k1 did:key (multicodec 0xe7) of the generator point.
      ("did:key:zQ3shVc2UkAfJCdc1TR8E66J85h48P43r93q8jGPkPpjF9Ef9", .notEd25519),
      // The Ed25519 key without its last byte.
      ("z2DQVsnzKoPrzWGGeSt3PXeA8HH4gfaP66XgS4nugS6VH3P", .wrongKeyLength(31)),
      ("z", .notEd25519),
    ]
    for (text, error) in cases {
      #expect(throws: error, "\(text)") { try RadicleIdentity(text) }
    }
  }
}

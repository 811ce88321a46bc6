import CryptoPrimitives
import Testing
import VaultKeys

/// The Ed25519 fixture of the libp2p peer-ids spec.
@Suite struct Libp2pVectorTests {
  struct Vector: Decodable, CustomTestStringConvertible, Sendable {
    let id: String
    let keyType: String
    let privateKeyProtobuf: String
    let publicKeyProtobuf: String
    let privateKeySeed: String
    let publicKey: String
    let peerId: String
    let peerIdBase36: String
    var testDescription: String { id }
  }

  static let vectors = (try? VectorFile<Vector>.load("libp2p").vectors) ?? []

  @Test func fileHasTheSpecFixture() throws {
    let vector = try #require(Self.vectors.first)
    #expect(vector.peerId == "12D3KooWBtg3aaRMjxwedh83aGiUkwSxDwUZkzuJcfaqUmo7R3pq")
    #expect(vector.peerIdBase36 == "k51qzi5uqu5dgy8qsq67hbz73jqkw87l3fgf4a91qb0d9b5173tir7n4vxk1oe")
  }

  @Test(arguments: vectors)
  func privateKeyProtobufGivesThePeerID(vector: Vector) throws {
    let protobuf = SecureBytes([UInt8](hex: vector.privateKeyProtobuf))
    let key = try Libp2pPrivateKey.decode(protobuf: protobuf)
    #expect(key.rawRepresentation.revealHex() == vector.privateKeySeed)
    #expect(Hex.encode(key.publicKey.rawRepresentation) == vector.publicKey)
    #expect(Libp2pPrivateKey.protobuf(key) == protobuf)

    let peer = Libp2pPeerID(publicKey: key.publicKey)
    #expect(Hex.encode(peer.publicKeyProtobuf) == vector.publicKeyProtobuf)
    #expect(peer.base58 == vector.peerId)
    #expect(peer.description == vector.peerId)
    #expect(peer.base36 == vector.peerIdBase36)
  }

  @Test(arguments: vectors)
  func bothTextFormsParseBack(vector: Vector) throws {
    let expected = [UInt8](hex: vector.publicKey)
    for text in [vector.peerId, vector.peerIdBase36, vector.peerIdBase36.uppercased()] {
      let peer = try Libp2pPeerID(text)
      #expect(peer.publicKey.rawRepresentation == expected, "\(text)")
      #expect(peer.base58 == vector.peerId)
      #expect(peer.base36 == vector.peerIdBase36)
    }
  }

  @Test(arguments: vectors)
  func alteredTextIsRejected(vector: Vector) {
    let cases: [(String, Libp2pError)] = [
      ("", .notAPeerID),
      (vector.peerId + "0", .notAPeerID),  // '0' is not base58
      (String(vector.peerId.dropLast()), .malformed),  // truncated key
      (vector.peerId + "1", .malformed),  // a trailing zero byte
      (String(vector.peerIdBase36.dropLast(3)), .notAPeerID),  // the CID version byte is lost
      // CIDv1 libp2p-key whose key lacks its last byte, or has one byte too many.
      ("kpk3v8p4wd4pg2crnxhxdhvxopoba5kejlzvjfwb0f8m4dn8b83779fvhnmq", .malformed),
      ("kzwfwh5mmue7sji6ka45796ah8d0l6dy0dwrigwcb2ama77sij5xdicir2mjxfk", .malformed),
      ("k" + vector.peerIdBase36, .notAPeerID),  // version byte no longer 1
      ("kz" + vector.peerIdBase36.dropFirst(2), .notAPeerID),
      // An RSA bootstrap peer: SHA-256 multihash.
      ("QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N", .hashedKey),
      // secp256k1 (type 2): the generator point's peer ID.
      ("16Uiu2HAm3cuhhRL2msUuLF62KRSfneFDx94RsuouyW25Ho42cFMq", .unsupportedKeyType(2)),
      // The spec's CIDv1 in base32: a valid peer ID in a base not supported here.
      ("bafzaajaiaejcahwr5d5ofrfbis4l5d6uwr57hu5tjodrypfm6yaq6dsc2r2pzyt6", .notAPeerID),
      // A content CID (dag-pb of the SHA-256 of nothing), not a key.
      ("k2jmtxx1epa2wl096hsbpuhrz9xhppklonehzwkmskc9rmeb51kwn4ut", .notALibp2pKeyCID),
    ]
    for (text, error) in cases {
      #expect(throws: error, "\(text)") { try Libp2pPeerID(text) }
    }
  }
}

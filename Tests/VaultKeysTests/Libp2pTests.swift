import CryptoPrimitives
import Testing

@testable import VaultKeys

/// Values for the all-zero Ed25519 seed, computed with PyNaCl, base64 and base58 in Python.
@Suite struct Libp2pTests {
  static let zeroSeedPublicKey = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"
  static let zeroSeedPrivKey =
    "CAESQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAO2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik="

  static func zeroSeedKey() throws -> Ed25519.PrivateKey {
    try Ed25519.PrivateKey(rawRepresentation: SecureBytes([UInt8](repeating: 0, count: 32)))
  }

  /// The protobuf with a replaced byte, for malformed inputs.
  static func protobuf(replacing index: Int, with value: UInt8) throws -> SecureBytes {
    var bytes = try #require(
      Hex.decode("08011240" + String(repeating: "00", count: 32) + zeroSeedPublicKey))
    bytes[index] = value
    return SecureBytes(bytes)
  }

  @Test func privateKeyProtobufAndBase64() throws {
    let key = try Self.zeroSeedKey()
    #expect(
      Libp2pPrivateKey.protobuf(key).revealHex()
        == "08011240" + String(repeating: "00", count: 32) + Self.zeroSeedPublicKey)
    #expect(Libp2pPrivateKey.base64(key) == SecureBytes(utf8: Self.zeroSeedPrivKey))
  }

  @Test func peerIDOfTheZeroSeed() throws {
    let peer = Libp2pPeerID(publicKey: try Self.zeroSeedKey().publicKey)
    #expect(peer.base58 == "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN")
    #expect(Hex.encode(peer.publicKeyProtobuf) == "08011220" + Self.zeroSeedPublicKey)
    #expect(try Libp2pPeerID(peer.base58) == peer)
    #expect(try Libp2pPeerID(peer.base36) == peer)
    #expect(Set([peer, try Libp2pPeerID(peer.base36)]).count == 1)
  }

  @Test func base64DecodingToleratesWhitespaceAndMissingPadding() throws {
    let seed = SecureBytes([UInt8](repeating: 0, count: 32))
    for text in [
      Self.zeroSeedPrivKey, Self.zeroSeedPrivKey + "\n", "  " + Self.zeroSeedPrivKey + "\r\n",
      String(Self.zeroSeedPrivKey.dropLast()),
      Self.zeroSeedPrivKey.prefix(40) + "\n" + Self.zeroSeedPrivKey.dropFirst(40),
    ] {
      let key = try Libp2pPrivateKey.decode(base64: SecureBytes(utf8: text))
      #expect(key.rawRepresentation == seed, "\(text)")
    }
  }

  @Test func rejectsBadBase64() {
    for text in [
      "", "CAES", Self.zeroSeedPrivKey + "=", "-" + Self.zeroSeedPrivKey.dropFirst(),
      Self.zeroSeedPrivKey.dropLast(2) + "=A", "CAESQA=AAAA",
    ] {
      // "" and "CAES" are base64, but of protobufs too short to hold a key.
      let expected: Libp2pError = text.count <= 4 ? .malformedPrivateKey : .notBase64
      #expect(throws: expected, "\(text)") {
        try Libp2pPrivateKey.decode(base64: SecureBytes(utf8: String(text)))
      }
    }
  }

  @Test func rejectsMalformedPrivateKeyProtobufs() throws {
    let good = try Self.protobuf(replacing: 0, with: 0x08)
    #expect(
      try Libp2pPrivateKey.decode(protobuf: good).publicKey.rawRepresentation
        == Hex.decode(Self.zeroSeedPublicKey))

    #expect(throws: Libp2pError.unsupportedKeyType(2)) {
      try Libp2pPrivateKey.decode(protobuf: Self.protobuf(replacing: 1, with: 2))
    }
    #expect(throws: Libp2pError.malformedPrivateKey) {
      try Libp2pPrivateKey.decode(protobuf: Self.protobuf(replacing: 0, with: 0x10))
    }
    #expect(throws: Libp2pError.malformedPrivateKey) {
      try Libp2pPrivateKey.decode(protobuf: Self.protobuf(replacing: 3, with: 0x41))
    }
    #expect(throws: Libp2pError.publicKeyMismatch) {
      try Libp2pPrivateKey.decode(protobuf: Self.protobuf(replacing: 67, with: 0x28))
    }
    #expect(throws: Libp2pError.publicKeyMismatch) {
      try Libp2pPrivateKey.decode(protobuf: Self.protobuf(replacing: 4, with: 1))
    }
    #expect(throws: Libp2pError.malformedPrivateKey) {
      try Libp2pPrivateKey.decode(protobuf: good[0..<67])
    }
    // The early go-libp2p form repeated the public key: 96 bytes of data.
    let legacy = try #require(
      Hex.decode(
        "08011260" + String(repeating: "00", count: 32)
          + String(repeating: Self.zeroSeedPublicKey, count: 2)))
    #expect(throws: Libp2pError.wrongPrivateKeyLength(96)) {
      try Libp2pPrivateKey.decode(protobuf: SecureBytes(legacy))
    }
  }

  @Test func errorMessagesNameTheProblem() {
    #expect(
      Libp2pError.unsupportedKeyType(2).description
        == "the key is Secp256k1; only Ed25519 libp2p keys are supported")
    #expect(
      Libp2pError.publicKeyMismatch.description
        == "the libp2p private key is corrupt: its embedded public key does not match its seed")
  }

  /// RFC 4648 §10.
  @Test(arguments: [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
    ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
  ])
  func secureBase64(plain: String, encoded: String) throws {
    #expect(SecureBase64.encode(SecureBytes(utf8: plain)) == SecureBytes(utf8: encoded))
    #expect(SecureBase64.decode(SecureBytes(utf8: encoded)) == SecureBytes(utf8: plain))
  }

  @Test func secureBase64CoversTheWholeAlphabet() throws {
    // Python: base64.b64decode(text).hex()
    let bytes = try #require(
      Hex.decode(
        "00108310518720928b30d38f41149351559761969b71d79f"
          + "8218a39259a7a29aabb2dbafc31cb3d35db7e39ebbf3dfbf"))
    let text = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    #expect(SecureBase64.encode(SecureBytes(bytes)) == SecureBytes(utf8: text))
    #expect(SecureBase64.decode(SecureBytes(utf8: text)) == SecureBytes(bytes))
  }
}

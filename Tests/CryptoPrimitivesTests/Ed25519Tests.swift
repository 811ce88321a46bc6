import CryptoPrimitives
import Testing

/// RFC 8032 §7.1: the public key of each test's secret key (seed).
@Suite struct Ed25519Tests {
  @Test(arguments: [
    (
      "TEST 1", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
      "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    ),
    (
      "TEST 2", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
      "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"
    ),
    (
      "TEST 3", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
      "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025"
    ),
  ])
  func publicKeyFromSeed(_ name: String, _ seed: String, _ publicKey: String) throws {
    let key = try Ed25519.PrivateKey(rawRepresentation: SecureBytes(bytes(seed)))
    #expect(Hex.encode(key.publicKey.rawRepresentation) == publicKey, "\(name)")
    #expect(key.rawRepresentation.revealHex() == seed, "\(name)")
    var raw = [UInt8](repeating: 0, count: Ed25519.PublicKey.byteCount)
    raw.withUnsafeMutableBytes { out in
      bytes(seed).withUnsafeBytes {
        Ed25519.publicKey(seed: $0.baseAddress!, into: out.baseAddress!)
      }
    }
    #expect(Hex.encode(raw) == publicKey, "\(name), without allocation")
  }

  @Test func rejectsWrongSeedLength() {
    #expect(throws: CryptoError.invalidLength(what: "an Ed25519 seed", expected: 32, actual: 64)) {
      try Ed25519.PrivateKey(rawRepresentation: SecureBytes(counting(64)))
    }
  }

  @Test func publicKeyFromBytes() throws {
    let raw = bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    #expect(try Ed25519.PublicKey(rawRepresentation: raw).rawRepresentation == raw)
    #expect(
      throws: CryptoError.invalidLength(what: "an Ed25519 public key", expected: 32, actual: 31)
    ) {
      try Ed25519.PublicKey(rawRepresentation: Array(raw.dropLast()))
    }
  }
}

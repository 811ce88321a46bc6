import CryptoPrimitives
import Testing

/// secp256k1 (SEC 2 §2.4.1); tweak results cross-checked with Python `coincurve`.
@Suite struct Secp256k1Tests {
  static let order = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"
  static let orderMinusOne = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140"
  static let gx = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
  static let gy = "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"
  /// p − Gy: the y coordinate of −G = (n − 1)·G.
  static let negGy = "b7c52588d95c3b9aa25b0403f1eef75702e84bb7597aabe663b82f6f04ef2777"

  static func key(_ hex: String) throws -> Secp256k1.PrivateKey {
    try Secp256k1.PrivateKey(rawRepresentation: SecureBytes(bytes(hex)))
  }

  static func scalar(_ value: UInt8) -> String {
    String(repeating: "0", count: 62) + Hex.encode([value])
  }

  @Test func privateKeyOneIsGenerator() throws {
    let publicKey = try Self.key(Self.scalar(1)).publicKey
    #expect(Hex.encode(publicKey.compressedRepresentation) == "02" + Self.gx)
    #expect(Hex.encode(publicKey.uncompressedRepresentation) == "04" + Self.gx + Self.gy)
  }

  @Test func privateKeyTwo() throws {
    let publicKey = try Self.key(Self.scalar(2)).publicKey
    #expect(
      Hex.encode(publicKey.uncompressedRepresentation)
        == "04c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5"
        + "1ae168fea63dc339a3c58419466ceaeef7f632653266d0e1236431a950cfe52a")
  }

  @Test func orderMinusOneIsNegatedGenerator() throws {
    let publicKey = try Self.key(Self.orderMinusOne).publicKey
    #expect(Hex.encode(publicKey.compressedRepresentation) == "03" + Self.gx)
    #expect(Hex.encode(publicKey.uncompressedRepresentation) == "04" + Self.gx + Self.negGy)
  }

  @Test(arguments: [
    String(repeating: "0", count: 64),
    order,
    "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364142",
    String(repeating: "f", count: 64),
  ])
  func rejectsScalarsOutsideRange(_ hex: String) {
    #expect(throws: CryptoError.invalidPrivateKey) { try Self.key(hex) }
  }

  @Test func rejectsWrongLength() {
    #expect(
      throws: CryptoError.invalidLength(what: "a secp256k1 private key", expected: 32, actual: 31)
    ) {
      try Secp256k1.PrivateKey(rawRepresentation: SecureBytes(counting(31)))
    }
  }

  // BIP-32 test vector 1's master key plus an arbitrary tweak whose sum exceeds n, so the
  // addition wraps modulo the order.
  static let base = "e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35"
  static let tweak = bytes("3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368")
  static let sum = "255fe743348f58ce399861913c4174554af0566072bd83fff5f043bc95d65d5c"
  static let sumPublic = "0224ad131e9d3daa3e77d00fab82b9dbaee3a51cfbbb85eca383ae59a7ca45f933"

  @Test func privateTweakAddWrapsModuloOrder() throws {
    let child = try Self.key(Self.base).adding(tweak: Self.tweak)
    #expect(child.rawRepresentation.revealHex() == Self.sum)
    #expect(Hex.encode(child.publicKey.compressedRepresentation) == Self.sumPublic)
  }

  @Test func publicTweakAddMatchesPrivate() throws {
    let parent = try Self.key(Self.base).publicKey
    #expect(
      Hex.encode(parent.compressedRepresentation)
        == "0339a36013301597daef41fbe593a02cc513d0b55527ec2df1050e2e8ff49c85c2")
    let child = try parent.adding(tweak: Self.tweak)
    #expect(Hex.encode(child.compressedRepresentation) == Self.sumPublic)
  }

  @Test func tweakToZeroIsInvalid() throws {
    // 1 + (n − 1) ≡ 0: no private key, and G + (−G) is the point at infinity.
    let one = try Self.key(Self.scalar(1))
    #expect(throws: CryptoError.invalidTweak) { try one.adding(tweak: bytes(Self.orderMinusOne)) }
    #expect(throws: CryptoError.invalidTweak) {
      try one.publicKey.adding(tweak: bytes(Self.orderMinusOne))
    }
  }

  @Test func tweakNotBelowOrderIsInvalid() throws {
    let two = try Self.key(Self.scalar(2))
    #expect(throws: CryptoError.invalidTweak) { try two.adding(tweak: bytes(Self.order)) }
    #expect(throws: CryptoError.invalidTweak) { try two.publicKey.adding(tweak: bytes(Self.order)) }
  }

  @Test func tweakWrapsToOne() throws {
    // 2 + (n − 1) ≡ 1.
    let child = try Self.key(Self.scalar(2)).adding(tweak: bytes(Self.orderMinusOne))
    #expect(child.rawRepresentation.revealHex() == Self.scalar(1))
  }

  @Test func tweakWrongLength() throws {
    let one = try Self.key(Self.scalar(1))
    #expect(throws: CryptoError.invalidLength(what: "a secp256k1 tweak", expected: 32, actual: 33))
    {
      try one.adding(tweak: counting(33))
    }
  }

  @Test func parsesBothEncodings() throws {
    let compressed = try Secp256k1.PublicKey(sec1Representation: bytes("02" + Self.gx))
    let uncompressed = try Secp256k1.PublicKey(sec1Representation: bytes("04" + Self.gx + Self.gy))
    #expect(compressed == uncompressed)
    #expect(Hex.encode(uncompressed.compressedRepresentation) == "02" + Self.gx)
  }

  @Test(arguments: [
    // x = 5 has no square root for y² = x³ + 7.
    "02" + String(repeating: "0", count: 63) + "5",
    // A prefix byte that is neither 02/03 nor 04.
    "05" + gx + gy,
    // Right prefix, wrong length.
    "02" + gx + "00",
    "",
  ])
  func rejectsInvalidPoints(_ hex: String) {
    #expect(throws: CryptoError.invalidPublicKey) {
      try Secp256k1.PublicKey(sec1Representation: bytes(hex))
    }
  }
}

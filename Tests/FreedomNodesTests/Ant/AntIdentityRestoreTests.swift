import CryptoPrimitives
import FreedomNodes
import Testing
import VaultKeys

/// Ant's library rebuilds an identity from a bare key (`ant_identity_from_key`, freedom-hq/ant
/// `crates/ant-ffi/src/lib.rs`) with the overlay nonce keccak256("ant-ffi/overlay-nonce/v1" ‖
/// address), and reads `signing_key` trimmed and with an optional lowercase `0x`; antd reads it
/// exactly. Expected values computed with pycryptodome's Keccak-256 and coincurve.
@Suite struct AntIdentityRestoreTests {
  /// The Swarm key of abandon … about (m/44'/60'/0'/0/1), address 0x6Fac4D18…ab9C0.
  static let keyHex = "9a983cb3d832fbde5ab49d692b7a8bf5b5d232479c99333d0fc8e1d21f1b55b6"
  static let derivedNonce = "e604b3878302ee7ceead2e7c4d54dab1d22e660d5da47f34b3c11d759fadab32"
  static let derivedOverlay = "e9eecc7aa897d49525afbce496b29df4a1d0f52e7edc071d26faf68ae4903b3a"
  /// The key of ant-ffi's own `identity_from_key_*` tests and its derived nonce.
  static let antTestKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
  static let antTestNonce = "b005c819225bf57ea3646e54f7d4fb81f138a794cfdebc02ea2b879903b26978"
  static let zeros = String(repeating: "0", count: 64)

  static func key(_ hex: String) throws -> Secp256k1.PrivateKey {
    try Secp256k1.PrivateKey(rawRepresentation: SecureBytes(try #require(Hex.decode(hex))))
  }

  static func file(_ json: String) throws -> AntIdentityFile {
    try AntIdentityFile(json: Array(json.utf8))
  }

  @Test(arguments: [(keyHex, derivedNonce), (antTestKeyHex, antTestNonce)])
  func derivedNonceIsKeccakOfTheDomainAndTheAddress(key: String, nonce: String) throws {
    let address = EthereumAddress(publicKey: try Self.key(key).publicKey)
    #expect(Hex.encode(AntIdentity.derivedOverlayNonce(for: address)) == nonce)
  }

  @Test func buildsTheDerivedNonceFile() throws {
    let identity = AntIdentity(signingKey: try Self.key(Self.keyHex), nonce: .derivedFromKey)
    #expect(Hex.encode(identity.overlayNonce) == Self.derivedNonce)
    #expect(identity.overlay().hex == Self.derivedOverlay)
    #expect(identity.nonceOrigin == .derivedFromKey)
    // Written in the iOS app's layout, only the nonce differs.
    let text = identity.json.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    #expect(
      text
        == "{\n  \"overlay_nonce\" : \"\(Self.derivedNonce)\",\n  \"signing_key\" : \"\(Self.keyHex)\"\n}"
    )
    let zero = AntIdentity(signingKey: try Self.key(Self.keyHex), nonce: .zero)
    #expect(zero.overlayNonce == [UInt8](repeating: 0, count: 32))
    #expect(zero.nonceOrigin == .zero)
    #expect(
      zero.overlay().hex == "ffc594c6c113aedba5445e3b7405ea7845b605d562288a4491c7777ccd2b0279")
  }

  /// Fails on 5001ebb, which reported the derived nonce as a non-zero nonce.
  @Test func aDerivedNonceIsNoProblem() throws {
    let read = try Self.file(
      "{\"signing_key\":\"\(Self.keyHex)\",\"overlay_nonce\":\"\(Self.derivedNonce)\","
        + "\"libp2p_keypair\":\"08021220\(Self.keyHex)\"}")
    #expect(read.problems == [])
    #expect(read.antRefusesIt == false)
    #expect(read.nonceOrigin == .derivedFromKey)
    #expect(read.isRestoredFromKeyAsAntLibraryDoes)
    #expect(read.identity.overlay().hex == Self.derivedOverlay)
    #expect(read.acceptingReaders == [.antd, .antLibrary])
  }

  @Test func anotherNonceIsStillReported() throws {
    // The derived nonce of another key is not this key's.
    let read = try Self.file(
      "{\"signing_key\":\"\(Self.keyHex)\",\"overlay_nonce\":\"\(Self.antTestNonce)\"}")
    #expect(read.nonceOrigin == .other)
    #expect(read.isRestoredFromKeyAsAntLibraryDoes == false)
    let overlay = try SwarmOverlay(
      address: EthereumAddress(publicKey: read.identity.signingKey.publicKey),
      nonce: try #require(Hex.decode(Self.antTestNonce)))
    #expect(read.problems == [.nonZeroNonce(overlay: overlay.hex)])
    let zero = try Self.file(
      "{\"signing_key\":\"\(Self.keyHex)\",\"overlay_nonce\":\"\(Self.zeros)\"}")
    #expect(zero.nonceOrigin == .zero)
    #expect(zero.isRestoredFromKeyAsAntLibraryDoes == false)
  }

  /// Which reader takes which `signing_key`: ant-ffi trims it and drops a lowercase `0x`.
  @Test(arguments: [
    ("\(keyHex)", true, true, [AntIdentityProblem]()),
    ("0x\(keyHex)", false, true, [.hexPrefix(field: "signing_key")]),
    ("0X\(keyHex)", false, false, [.hexPrefix(field: "signing_key")]),
    ("  \(keyHex)\\n", false, true, [.whitespace(field: "signing_key")]),
    (
      "\\t0x\(keyHex) ", false, true,
      [.whitespace(field: "signing_key"), .hexPrefix(field: "signing_key")]
    ),
  ])
  func readersOfTheSigningKey(
    written: String, antd: Bool, antLibrary: Bool, problems: [AntIdentityProblem]
  ) throws {
    let read = try Self.file(
      "{\"signing_key\":\"\(written)\",\"overlay_nonce\":\"\(Self.zeros)\"}")
    #expect(read.identity.signingKey.rawRepresentation.revealHex() == Self.keyHex)
    #expect(read.problems == problems)
    #expect(read.isAccepted(by: .antd) == antd)
    #expect(read.isAccepted(by: .antLibrary) == antLibrary)
    #expect(read.antRefusesIt == !antd)
  }

  @Test func neitherReaderTakesAPrefixedNonceOrAMisspeltName() throws {
    let prefixed = try Self.file(
      "{\"signing_key\":\"\(Self.keyHex)\",\"overlay_nonce\":\"0x\(Self.zeros)\"}")
    #expect(prefixed.acceptingReaders.isEmpty)
    let misspelt = try Self.file(
      "{\"Signing_Key\":\"0x\(Self.keyHex)\",\"overlay_nonce\":\"\(Self.zeros)\"}")
    #expect(misspelt.acceptingReaders.isEmpty)
    let badKeypair = try Self.file(
      "{\"signing_key\":\"0x\(Self.keyHex)\",\"overlay_nonce\":\"\(Self.zeros)\","
        + "\"libp2p_keypair\":\"zz\"}")
    #expect(badKeypair.acceptingReaders.isEmpty)
  }

  @Test func theWhitespaceProblemSaysWhoTrimsIt() {
    #expect(
      AntIdentityProblem.whitespace(field: "signing_key").description
        == "'signing_key' has spaces or line breaks around it, which antd refuses: the node "
        + "will not start (Ant's library trims them)")
    #expect(AntIdentityProblem.whitespace(field: "signing_key").antRefusesIt)
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

/// Desktop Freedom's identities from keys it derived: the encodings must match byte for byte.
/// (Deriving those keys from the mnemonic is tested with the profile.)
@Suite struct DesktopIdentityVectorTests {
  static func vector(_ id: String) throws -> DesktopVector {
    try #require(DesktopVector.all().first { $0.id == id }, "no vector \(id)")
  }

  @Test func swarmAddressAndOverlay() throws {
    let vector = try Self.vector("abandon-about-12")
    let privateKey = try Secp256k1.PrivateKey(
      rawRepresentation: SecureBytes([UInt8](hex: try #require(vector.swarmPrivateKey))))
    let address = EthereumAddress(publicKey: privateKey.publicKey)
    #expect(address.checksummed == vector.swarmAddress)
    #expect(address.checksummed == "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0")
    #expect(address.lowercaseHex == "6fac4d18c912343bf86fa7049364dd4e424ab9c0")

    let overlay = try SwarmOverlay(address: address)
    #expect(overlay.hex == vector.swarmOverlay)
    #expect(overlay.hex == "ffc594c6c113aedba5445e3b7405ea7845b605d562288a4491c7777ccd2b0279")
  }

  @Test func ipfsIdentityFromItsSeed() throws {
    let vector = try Self.vector("abandon-about-12")
    let seed = SecureBytes([UInt8](hex: try #require(vector.ipfsPrivateKey)))
    let key = try Ed25519.PrivateKey(rawRepresentation: seed)
    #expect(Hex.encode(key.publicKey.rawRepresentation) == vector.ipfsPublicKey)

    let privKey = try #require(vector.ipfsPrivKey)
    #expect(Libp2pPrivateKey.base64(key) == SecureBytes(utf8: privKey))
    let decoded = try Libp2pPrivateKey.decode(base64: SecureBytes(utf8: privKey))
    #expect(decoded.rawRepresentation == seed)

    let peer = Libp2pPeerID(publicKey: key.publicKey)
    #expect(peer.base58 == vector.ipfsPeerId)
    #expect(peer.base58 == "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW")
    #expect(try Libp2pPeerID(peer.base36) == peer)
  }

  @Test func ipfsPeerIDOfTheTwentyFourWordMnemonic() throws {
    let vector = try Self.vector("abandon-art-24")
    let seed = SecureBytes([UInt8](hex: try #require(vector.ipfsPrivateKey)))
    let key = try Ed25519.PrivateKey(rawRepresentation: seed)
    #expect(Libp2pPeerID(publicKey: key.publicKey).base58 == vector.ipfsPeerId)
  }

  /// The Radicle key m/44'/73404'/0'/0'/0' of the abandon…about mnemonic (empty passphrase),
  /// computed in Python with SLIP-0010 ed25519 by hand (HMAC-SHA512 with key "ed25519 seed",
  /// then hardened children of `00 ‖ key ‖ index`) from the BIP-39 seed in the vector file;
  /// PyNaCl gave public key 1fbc19d1…3e248b.
  static let radiclePrivateKey =
    "b262e62fc6a558fd045ca68dd7000e30a135f678bc0816935e13ebe6a97e14bd"

  @Test func radicleIdentity() throws {
    let vector = try Self.vector("abandon-about-12")
    let key = try Ed25519.PrivateKey(
      rawRepresentation: SecureBytes([UInt8](hex: Self.radiclePrivateKey)))
    #expect(
      Hex.encode(key.publicKey.rawRepresentation)
        == "1fbc19d1e386f9969c5e7925d71ce5b332b399ee632b17f4743a3248823e248b")
    let identity = RadicleIdentity(publicKey: key.publicKey)
    #expect(identity.did == vector.radicleDid)
    #expect(identity.did == "did:key:z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn")
    #expect(identity.nodeID == "z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn")
    #expect(identity.sshFingerprint == vector.radicleSshFingerprint)
    #expect(identity.sshFingerprint == "SHA256:40DnrznWnBm9SGsgfPqOurDMkxMKNb3VzZd6P5At2A4")
    #expect(
      identity.sshPublicKey
        == "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB+8GdHjhvmWnF55Jdcc5bMys5nuYysX9HQ6MkiCPiSL")
    #expect(try RadicleIdentity(identity.did) == identity)
    #expect(try RadicleIdentity(identity.nodeID) == identity)
  }
}

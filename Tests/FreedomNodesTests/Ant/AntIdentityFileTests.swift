import CryptoPrimitives
import FreedomNodes
import Testing
import VaultKeys

private let keyHex = "9a983cb3d832fbde5ab49d692b7a8bf5b5d232479c99333d0fc8e1d21f1b55b6"
private let zeros = String(repeating: "0", count: 64)

private func file(_ json: String) throws -> AntIdentityFile {
  try AntIdentityFile(json: Array(json.utf8))
}

@Suite struct AntIdentityFileTests {
  @Test func theIOSFileHasNoProblems() throws {
    let key = try Secp256k1.PrivateKey(
      rawRepresentation: SecureBytes(try #require(Hex.decode(keyHex))))
    let written = try AntIdentity(signingKey: key).json
    let read = try AntIdentityFile(json: written)
    #expect(read.problems == [])
    #expect(read.antRefusesIt == false)
    // The secp256k1 PeerID Ant derives: identity multihash of 08 02 12 21 ‖ compressed key.
    #expect(read.peerID?.hasPrefix("16Uiu2HA") == true)
    #expect(read.peerID == AntIdentityFile.derivedPeerID(key.publicKey))
  }

  @Test func aHexPrefixIsAProblemAntRefuses() throws {
    let read = try file("{\"signing_key\":\"0x\(keyHex)\",\"overlay_nonce\":\"0X\(zeros)\"}")
    #expect(
      read.problems == [.hexPrefix(field: "signing_key"), .hexPrefix(field: "overlay_nonce")])
    #expect(read.antRefusesIt)
    #expect(read.problems[0].description.contains("starts with 0x"))
  }

  @Test func otherLetterCaseInANameIsNotFoundByAnt() throws {
    let read = try file("{\"Signing_Key\":\"\(keyHex)\",\"overlay_nonce\":\"\(zeros)\"}")
    #expect(read.problems == [.fieldNameCase(field: "signing_key")])
    #expect(read.antRefusesIt)
  }

  @Test func aNonZeroNonceNamesTheOverlayAntUses() throws {
    let nonce = "01" + String(repeating: "0", count: 62)
    let read = try file("{\"signing_key\":\"\(keyHex)\",\"overlay_nonce\":\"\(nonce)\"}")
    let key = read.identity.signingKey
    let expected = try SwarmOverlay(
      address: EthereumAddress(publicKey: key.publicKey), nonce: try #require(Hex.decode(nonce)))
    #expect(read.problems == [.nonZeroNonce(overlay: expected.hex)])
    #expect(expected.hex != "ffc594c6c113aedba5445e3b7405ea7845b605d562288a4491c7777ccd2b0279")
    #expect(read.antRefusesIt == false)
  }

  @Test func theLibp2pKeypairAntWouldDeriveIsFine() throws {
    let json =
      "{\"signing_key\":\"\(keyHex)\",\"overlay_nonce\":\"\(zeros)\",\"libp2p_keypair\":\"08021220\(keyHex)\"}"
    #expect(try file(json).problems == [])
    let null =
      "{\"signing_key\":\"\(keyHex)\",\"overlay_nonce\":\"\(zeros)\",\"libp2p_keypair\":null}"
    #expect(try file(null).problems == [])
  }

  @Test func aForeignLibp2pKeypairNamesBothPeerIDs() throws {
    let other = "560feedcad2979e64dd067f67220b5aeca62e8df8e6dda741bb1b20b8144cb1f"
    let json =
      "{\"signing_key\":\"\(keyHex)\",\"overlay_nonce\":\"\(zeros)\",\"libp2p_keypair\":\"08021220\(other)\"}"
    let read = try file(json)
    let otherKey = try Secp256k1.PrivateKey(
      rawRepresentation: SecureBytes(try #require(Hex.decode(other))))
    let derived = AntIdentityFile.derivedPeerID(read.identity.signingKey.publicKey)
    let found = AntIdentityFile.derivedPeerID(otherKey.publicKey)
    #expect(read.problems == [.foreignLibp2pKeypair(peerID: found, derivedPeerID: derived)])
    #expect(read.peerID == found)
    #expect(read.antRefusesIt == false)
  }

  @Test func anEd25519Libp2pKeypairGetsItsPeerID() throws {
    // The kubo PrivKey of abandon … about (08 01 12 40 ‖ seed ‖ public key), as hex.
    let seedAndKey = try #require(
      Base64Probe.decode(
        "CAESQG18MhmN/5Ywlrkylqyzg8m08r2FpOUsEjv+4eXNAMdJkSN61ZWaJeAlSH3uvnu65ETlrC381v0QRC1D3YfvVkc="
      ))
    let json =
      "{\"signing_key\":\"\(keyHex)\",\"overlay_nonce\":\"\(zeros)\",\"libp2p_keypair\":\"\(Hex.encode(seedAndKey))\"}"
    let read = try file(json)
    guard case .foreignLibp2pKeypair(let peerID, _) = try #require(read.problems.first) else {
      Issue.record("expected a foreign libp2p keypair, got \(read.problems)")
      return
    }
    #expect(peerID == "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW")
  }

  @Test func anUnreadableLibp2pKeypairIsRefused() throws {
    let json =
      "{\"signing_key\":\"\(keyHex)\",\"overlay_nonce\":\"\(zeros)\",\"libp2p_keypair\":\"zz\"}"
    let read = try file(json)
    #expect(read.problems == [.unreadableLibp2pKeypair])
    #expect(read.antRefusesIt)
    let number =
      "{\"signing_key\":\"\(keyHex)\",\"overlay_nonce\":\"\(zeros)\",\"libp2p_keypair\":7}"
    #expect(try file(number).problems == [.unreadableLibp2pKeypair])
  }
}

/// Standard base64 for the fixture (Foundation is not imported by this file on purpose).
enum Base64Probe {
  static func decode(_ text: String) -> [UInt8]? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var bits: UInt32 = 0
    var count = 0
    var out: [UInt8] = []
    for byte in text.utf8 where byte != UInt8(ascii: "=") {
      guard let value = alphabet.firstIndex(of: byte) else { return nil }
      bits = bits << 6 | UInt32(value)
      count += 6
      if count >= 8 {
        count -= 8
        out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
      }
    }
    return out
  }
}

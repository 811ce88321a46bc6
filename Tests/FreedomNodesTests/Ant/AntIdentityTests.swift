import CryptoPrimitives
import Foundation
import FreedomNodes
import Testing
import VaultKeys

private let keyHex = "560feedcad2979e64dd067f67220b5aeca62e8df8e6dda741bb1b20b8144cb1f"
private let zeros = String(repeating: "0", count: 64)

private func key() throws -> Secp256k1.PrivateKey {
  try Secp256k1.PrivateKey(rawRepresentation: SecureBytes(try #require(Hex.decode(keyHex))))
}

private func antError(_ json: String) -> AntIdentityError? {
  do {
    _ = try AntIdentity(json: Array(json.utf8))
    return nil
  } catch {
    return error
  }
}

@Suite struct AntIdentityTests {
  /// The bytes iOS's `SwarmNode.writeInjectedIdentity` writes: `JSONEncoder` with
  /// `[.prettyPrinted, .sortedKeys]`, typed out byte by byte so the encoder itself is not trusted.
  @Test func exactBytesOfTheIOSApp() throws {
    let identity = try AntIdentity(signingKey: try key())
    var expected: [UInt8] = [0x7B, 0x0A, 0x20, 0x20]  // "{\n  "
    expected += Array("\"overlay_nonce\"".utf8) + [0x20, 0x3A, 0x20]  // space, colon, space
    expected += [0x22] + Array(zeros.utf8) + [0x22, 0x2C, 0x0A, 0x20, 0x20]  // ",\n  "
    expected += Array("\"signing_key\"".utf8) + [0x20, 0x3A, 0x20]
    expected += [0x22] + Array(keyHex.utf8) + [0x22, 0x0A, 0x7D]  // no final newline
    let bytes = identity.json.withUnsafeBytes { Array($0) }
    #expect(bytes.count == 176)
    #expect(bytes == expected)
  }

  /// The same bytes as Foundation's own `JSONEncoder` makes with the iOS app's options.
  @Test func sameBytesAsJSONEncoder() throws {
    struct IdentityFile: Encodable {
      let signingKey: String
      let overlayNonce: String
      enum CodingKeys: String, CodingKey {
        case signingKey = "signing_key"
        case overlayNonce = "overlay_nonce"
      }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let encoded = try encoder.encode(IdentityFile(signingKey: keyHex, overlayNonce: zeros))
    let identity = try AntIdentity(signingKey: try key())
    #expect(identity.json.withUnsafeBytes { Array($0) } == Array(encoded))
  }

  @Test func roundTripWithAGivenNonce() throws {
    let nonce = (0..<32).map { UInt8($0 * 7 & 0xFF) }
    let identity = try AntIdentity(signingKey: try key(), overlayNonce: nonce)
    let read = try AntIdentity(json: identity.json)
    #expect(read.signingKey.rawRepresentation.revealHex() == keyHex)
    #expect(read.overlayNonce == nonce)
    #expect(read.json == identity.json)
  }

  @Test func readsOtherLayoutsAndIgnoresExtraFields() throws {
    let json =
      "{\"overlay_nonce\":\"0x\(zeros)\",\"libp2p_keypair\":\"CAESQ==\",\"signing_key\":\"\(keyHex.uppercased())\"}"
    let read = try AntIdentity(json: Array(json.utf8))
    #expect(read.signingKey.rawRepresentation.revealHex() == keyHex)
    #expect(read.overlayNonce == [UInt8](repeating: 0, count: 32))
  }

  @Test func clearErrors() throws {
    #expect(antError("{\"overlay_nonce\":\"\(zeros)\"}") == .missingField("signing_key"))
    #expect(antError("{\"signing_key\":\"\(keyHex)\"}") == .missingField("overlay_nonce"))
    #expect(
      antError("{\"signing_key\":\"\(keyHex)zz\",\"overlay_nonce\":\"\(zeros)\"}")
        == .invalidHex(field: "signing_key"))
    #expect(
      antError("{\"signing_key\":\"\(keyHex)00\",\"overlay_nonce\":\"\(zeros)\"}")
        == .invalidLength(field: "signing_key", expected: 32, actual: 33))
    #expect(
      antError("{\"signing_key\":\"\(zeros)\",\"overlay_nonce\":\"\(zeros)\"}")
        == .invalidSigningKey)
    #expect(
      antError("{\"signing_key\":\"\(keyHex)\",\"overlay_nonce\":\"00\"}")
        == .invalidLength(field: "overlay_nonce", expected: 32, actual: 1))
    #expect(
      antError("{\"signing_key\":1,\"overlay_nonce\":\"\(zeros)\"}")
        == .invalidHex(field: "signing_key"))
    #expect(
      throws: AntIdentityError.invalidLength(field: "overlay_nonce", expected: 32, actual: 31)
    ) {
      try AntIdentity(signingKey: try key(), overlayNonce: [UInt8](repeating: 0, count: 31))
    }
    let error = antError("{\"signing_key\":\"\(keyHex)zz\",\"overlay_nonce\":\"\(zeros)\"}")
    #expect(error?.description == "'signing_key' in the Ant identity file must be a hex string")
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

/// One vector of Vectors/freedom-ios.json: values the Freedom iOS app's tests publish.
struct IOSVector: Decodable, Sendable, CustomTestStringConvertible {
  let id: String
  let mnemonic: String
  let walletAddress: String?
  let ipfsPublicKey: String?
  let ipfsPrivKey: String?
  /// The app's test file and the commit it was read at (newer vectors).
  let source: String?
  let radiclePrivateKey: String?
  let radiclePublicKey: String?
  let radicleDid: String?
  var testDescription: String { id }
}

/// The iOS app's golden values, derived end to end from the mnemonic.
@Suite struct IOSVectorTests {
  static let vectors = (try? VectorFile<IOSVector>.load("freedom-ios").vectors) ?? []

  @Test func vectorsLoaded() {
    #expect(
      Self.vectors.map(\.id) == [
        "ios-vector-2-abandon-art-24", "ios-test-junk-12", "ios-radicle-test-junk-12",
        "ios-radicle-abandon-about-12",
      ])
  }

  @Test(arguments: vectors)
  func profileMatchesIOS(_ vector: IOSVector) throws {
    let profile = try FreedomProfile(mnemonic: try Mnemonic(phrase: vector.mnemonic))
    var checked = 0
    if let expected = vector.walletAddress {
      #expect(profile.wallet.address.checksummed == expected)
      checked += 1
    }
    if let expected = vector.ipfsPublicKey {
      #expect(Hex.encode(profile.ipfs.publicKey.rawRepresentation) == expected)
      checked += 1
    }
    if let expected = vector.ipfsPrivKey {
      #expect(profile.ipfs.privKeyBase64 == SecureBytes(utf8: expected))
      checked += 1
    }
    if let expected = vector.radiclePrivateKey {
      #expect(profile.radicle.privateKey.rawRepresentation.revealHex() == expected)
      checked += 1
    }
    if let expected = vector.radiclePublicKey {
      #expect(Hex.encode(profile.radicle.publicKey.rawRepresentation) == expected)
      checked += 1
    }
    if let expected = vector.radicleDid {
      #expect(profile.radicle.radicle.did == expected)
      checked += 1
    }
    #expect(checked > 0, "vector \(vector.id) publishes no value")
  }
}

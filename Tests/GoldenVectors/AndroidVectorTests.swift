import CryptoPrimitives
import FreedomNodes
import Testing
import VaultKeys

/// One vector of Vectors/freedom-android.json: values the Freedom Android app's tests publish.
struct AndroidVector: Decodable, Sendable, CustomTestStringConvertible {
  /// One account of a published list: its index and EIP-55 address (and key, where published).
  struct Account: Decodable, Sendable {
    let index: UInt32
    let address: String
    let privateKey: String?
  }

  let id: String
  /// The app's test file and the commit it was read at.
  let source: String
  let mnemonic: String
  let seed: String?
  let ipfsPrivateKey: String?
  let ipfsPublicKey: String?
  let ipfsPrivKey: String?
  let ipfsPeerId: String?
  let swarmPrivateKey: String?
  let swarmAddress: String?
  let swarmOverlay: String?
  let antSigningKey: String?
  let antOverlayNonce: String?
  let publishers: [Account]?
  let wallets: [Account]?
  var testDescription: String { id }
}

/// The Android app's golden values, derived end to end from the mnemonic. Each comparison is of
/// hex or text, so a failure names the vector and shows both values.
@Suite struct AndroidVectorTests {
  static let vectors = (try? VectorFile<AndroidVector>.load("freedom-android").vectors) ?? []

  @Test func vectorsLoaded() {
    #expect(
      Self.vectors.map(\.id) == [
        "android-node-identity-abandon-about-12", "android-node-identity-abandon-art-24",
        "android-node-identity-legal-winner-12", "android-publishers-abandon-about-12",
        "android-publishers-abandon-art-24", "android-wallets-abandon-about-12",
        "android-wallets-legal-winner-12",
      ])
    #expect(
      Self.vectors.allSatisfy { $0.source.hasPrefix("solardev-xyz/freedom-browser-android ") })
  }

  @Test(arguments: vectors)
  func profileMatchesAndroid(_ vector: AndroidVector) throws {
    let profile = try FreedomProfile(mnemonic: try Mnemonic(phrase: vector.mnemonic))
    var checked = 0
    func check(_ expected: String?, _ actual: String) {
      guard let expected else { return }
      #expect(actual == expected, "vector \(vector.id)")
      checked += 1
    }
    check(vector.seed, profile.seed.revealHex())
    check(vector.ipfsPrivateKey, profile.ipfs.privateKey.rawRepresentation.revealHex())
    check(vector.ipfsPublicKey, Hex.encode(profile.ipfs.publicKey.rawRepresentation))
    check(vector.ipfsPrivKey, Self.text(profile.ipfs.privKeyBase64))
    check(vector.ipfsPeerId, profile.ipfs.peerID.base58)
    check(vector.swarmPrivateKey, profile.swarm.privateKey.rawRepresentation.revealHex())
    check(vector.swarmAddress, profile.swarm.address.checksummed)
    check(vector.swarmOverlay, try profile.swarmOverlay().hex)

    if vector.antSigningKey != nil || vector.antOverlayNonce != nil {
      // Android's Ant document: the Swarm key and a zero nonce, read back as Ant would.
      let document = try AntIdentity(signingKey: profile.swarm.privateKey).json
      let file = try AntIdentityFile(json: document)
      check(vector.antSigningKey, file.identity.signingKey.rawRepresentation.revealHex())
      check(vector.antOverlayNonce, Hex.encode(file.identity.overlayNonce))
    }
    for account in vector.publishers ?? [] {
      let publisher = try profile.publisher(index: account.index)
      check(account.address, publisher.address.checksummed)
      check(account.privateKey, publisher.privateKey.rawRepresentation.revealHex())
    }
    for account in vector.wallets ?? [] {
      let wallet = try profile.wallet(index: account.index)
      check(account.address, wallet.address.checksummed)
      check(account.privateKey, wallet.privateKey.rawRepresentation.revealHex())
    }
    #expect(checked > 0, "vector \(vector.id) publishes no value")
  }

  private static func text(_ bytes: SecureBytes) -> String {
    bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}

import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

/// Desktop Freedom's golden values, derived end to end: mnemonic → seed → every identity.
@Suite struct FreedomProfileVectorTests {
  static let vectors = (try? DesktopVector.all()) ?? []

  @Test func vectorsLoaded() {
    #expect(Self.vectors.map(\.id) == ["abandon-about-12", "abandon-art-24"])
  }

  @Test(arguments: vectors)
  func profileMatchesDesktop(_ vector: DesktopVector) throws {
    let mnemonic = try Mnemonic(phrase: vector.mnemonic)
    let profile = try FreedomProfile(
      mnemonic: mnemonic, passphrase: SecureBytes(utf8: vector.passphrase))
    #expect(profile.seed.revealHex() == vector.seed)

    if let expected = vector.walletAddress {
      #expect(profile.wallet.address.checksummed == expected)
      #expect(try profile.wallet(index: 0).address.checksummed == expected)
    }
    if let expected = vector.swarmAddress { #expect(profile.swarm.address.checksummed == expected) }
    if let expected = vector.swarmPrivateKey {
      #expect(profile.swarm.privateKey.rawRepresentation.revealHex() == expected)
    }
    if let expected = vector.swarmOverlay { #expect(try profile.swarmOverlay().hex == expected) }
    if let expected = vector.ipfsPrivateKey {
      #expect(profile.ipfs.privateKey.rawRepresentation.revealHex() == expected)
    }
    if let expected = vector.ipfsPublicKey {
      #expect(Hex.encode(profile.ipfs.publicKey.rawRepresentation) == expected)
    }
    if let expected = vector.ipfsPrivKey {
      #expect(profile.ipfs.privKeyBase64 == SecureBytes(utf8: expected))
    }
    if let expected = vector.ipfsPeerId { #expect(profile.ipfs.peerID.base58 == expected) }
    if let expected = vector.radicleDid { #expect(profile.radicle.radicle.did == expected) }
    if let expected = vector.radicleSshFingerprint {
      #expect(profile.radicle.radicle.sshFingerprint == expected)
    }
  }

  @Test func pathsAreFreedoms() throws {
    #expect(FreedomProfile.walletPath.description == "m/44'/60'/0'/0/0")
    #expect(FreedomProfile.swarmPath.description == "m/44'/60'/0'/0/1")
    #expect(FreedomProfile.ipfsPath.description == "m/44'/73405'/0'/0'/0'")
    #expect(FreedomProfile.radiclePath.description == "m/44'/73404'/0'/0'/0'")
    #expect(try FreedomProfile.walletPath(index: 3).description == "m/44'/60'/3'/0/0")
    #expect(try FreedomProfile.publisherPath(index: 2).description == "m/44'/73406'/2'/0/0")
  }

  /// Extra wallets and publisher keys against bip_utils (BIP-44, abandon … about, no passphrase).
  @Test func extraWalletsAndPublishers() throws {
    let profile = try FreedomProfile(
      mnemonic: Mnemonic(phrase: Self.vectors.first { $0.id == "abandon-about-12" }?.mnemonic ?? "")
    )
    #expect(
      try profile.wallet(index: 1).address.checksummed
        == "0x78839F6054d7ed13918bAe0473BA31b1Ca9D7265")
    #expect(
      try profile.publisher(index: 0).address.checksummed
        == "0xA274614c1D3425568Fd100B30322287c86085220")
    #expect(
      try profile.publisher(index: 1).address.checksummed
        == "0xd2e7208e8026bf96945d56CBCae2f509cC6e4748")
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

/// Children of one node, the way `recover` derives many addresses: each reuses the parent's
/// cached public key, and must equal the same path derived from the master in one go.
@Suite struct ExtendedPrivateKeyChildTests {
  static let phrase =
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

  @Test func childrenOfOneNodeEqualWholePaths() throws {
    let master = try ExtendedPrivateKey(seed: Mnemonic(phrase: Self.phrase).seed())
    let account = try master.derive(DerivationPath("m/44'/60'/0'/0"))
    for index: UInt32 in [0, 1, 2, 7, 0x7fff_ffff] {
      for hardened in [false, true] {
        let component = try DerivationPath.Component(index: index, hardened: hardened)
        let child = try account.child(component)
        let whole = try master.derive(DerivationPath("m/44'/60'/0'/0/\(component)"))
        #expect(child.serialized() == whole.serialized(), "\(component)")
        #expect(child.parentFingerprint == account.fingerprint, "\(component)")
        #expect(
          child.publicKey.compressedRepresentation
            == whole.privateKey.publicKey.compressedRepresentation, "\(component)")
        #expect(
          child.ethereumAddress == EthereumAddress(publicKey: whole.privateKey.publicKey),
          "\(component)")
      }
    }
  }

  /// The published addresses of abandon … about (user wallet /0 and Swarm wallet /1), from a
  /// node whose public key is cached and from copies of it.
  @Test func knownAddressesFromACachedNode() throws {
    let master = try ExtendedPrivateKey(seed: Mnemonic(phrase: Self.phrase).seed())
    let account = try master.derive(DerivationPath("m/44'/60'/0'/0"))
    _ = account.publicKey
    let copy = account
    let first = try copy.child(DerivationPath.Component(index: 0, hardened: false))
    let second = try account.child(DerivationPath.Component(index: 1, hardened: false))
    #expect(first.ethereumAddress.checksummed == "0x9858EfFD232B4033E47d90003D41EC34EcaEda94")
    #expect(second.ethereumAddress.checksummed == "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0")
    #expect(
      first.ethereumAddress.rawRepresentation == bytes("9858effd232b4033e47d90003d41ec34ecaeda94"))
  }
}

private func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex)! }

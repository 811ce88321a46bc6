import CryptoPrimitives
import Testing
import VaultKeys

/// The README's library example, so that it keeps compiling and saying what it says.
@Test func readmeLibraryExample() throws {
  let phraseBytes = SecureBytes(
    utf8:
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
  )
  let password = SecureBytes(utf8: "correct horse battery staple")

  let mnemonic = try Mnemonic(phrase: phraseBytes)
  let profile = try FreedomProfile(mnemonic: mnemonic)
  #expect(profile.swarm.address.checksummed == "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0")
  #expect(profile.ipfs.peerID.base58 == "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW")
  #expect(profile.radicle.radicle.did == "did:key:z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn")
  #expect(
    try profile.publisher(index: 2).path.description == "m/44'/73406'/2'/0/0")
  let keystore = try Web3Keystore(
    json: Web3Keystore.encrypt(privateKey: profile.swarm.privateKey, password: password))
  #expect(
    try keystore.decrypt(password: password).rawRepresentation
      == profile.swarm.privateKey.rawRepresentation)
}

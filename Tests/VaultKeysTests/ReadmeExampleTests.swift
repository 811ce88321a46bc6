import CryptoPrimitives
import Foundation
import TestSupport
import Testing
import VaultKeys

/// The library example of docs/usage.md, so that it keeps compiling and saying what it says.
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

/// The README's front-door example, word for word: a phrase read from a file into `SecureBytes`
/// (or copied from bytes), a profile, its addresses. The README must hold `readmeExample`, and
/// the test runs the same lines (the file's path aside) and checks what their comments say.
@Suite("README: the library example")
struct ReadmeFrontDoorExampleTests {
  static let readmeExample = """
    import CryptoPrimitives
    import VaultKeys

    // Secrets live in SecureBytes: read from a file into locked memory, never a String,
    let phrase = try SecretInput.read(
      SecretSource(role: "mnemonic", path: "words.txt"), warning: nil)
    // or copied from bytes you hold (then wipe your own copy): SecureBytes(bytes).
    let mnemonic = try Mnemonic(phrase: phrase)           // language detected, checksum checked
    let profile = try FreedomProfile(mnemonic: mnemonic)  // passphrase: SecureBytes, none by default
    // For abandon … about:
    print(profile.wallet.address.checksummed)  // m/44'/60'/0'/0/0: 0x9858EfFD…
    print(profile.swarm.address.checksummed)   // m/44'/60'/0'/0/1: 0x6Fac4D18…
    print(profile.ipfs.peerID.base58)          // 12D3KooWKavf…
    print(profile.radicle.radicle.did)         // did:key:z6Mkgb93…
    """
  static let phrase =
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

  @Test func theReadmeHoldsTheExample() throws {
    let readme = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    #expect(text.contains("```swift\n" + Self.readmeExample + "\n```\n"))
    #expect(text.contains(".package(path: \"../freedom-keys\")"))
    #expect(text.contains(".product(name: \"VaultKeys\", package: \"freedom-keys\")"))
  }

  @Test func theExampleRunsFromAFileAndFromBytes() throws {
    let directory = try TemporaryDirectory()
    let words = try directory.file("words.txt", Self.phrase + "\n")

    let phrase = try SecretInput.read(
      SecretSource(role: "mnemonic", path: words), warning: nil)
    let mnemonic = try Mnemonic(phrase: phrase)
    let profile = try FreedomProfile(mnemonic: mnemonic)
    #expect(profile.wallet.path.description == "m/44'/60'/0'/0/0")
    #expect(profile.wallet.address.checksummed == "0x9858EfFD232B4033E47d90003D41EC34EcaEda94")
    #expect(profile.swarm.path.description == "m/44'/60'/0'/0/1")
    #expect(profile.swarm.address.checksummed == "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0")
    #expect(profile.ipfs.peerID.base58 == "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW")
    #expect(
      profile.radicle.radicle.did == "did:key:z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn")

    let fromBytes = try FreedomProfile(
      mnemonic: Mnemonic(phrase: SecureBytes(Array(Self.phrase.utf8))))
    #expect(fromBytes.seed == profile.seed)
  }
}

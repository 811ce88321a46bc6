import Testing
import VaultKeys

/// The notice before a slow key derivation: only above a second, rounded up below ten.
@Suite struct KeyDerivationNoticeTests {
  @Test func saysOnlyWhatTakesMoreThanASecond() {
    #expect(KeyDerivationNotice.text("opening the vault", seconds: 1) == nil)
    #expect(
      KeyDerivationNotice.text("opening the vault", seconds: 1.2)
        == "opening the vault takes about 2 s…")
    #expect(KeyDerivationNotice.text("x", seconds: 12.4) == "x takes about 12 s…")
  }

  @Test func namesTheKeystoresParameters() {
    #expect(KeyDerivationNotice.text("decrypting k", .scrypt(n: 1024, r: 8, p: 1)) == nil)
    let slow = KeyDerivationNotice.text("decrypting k", .scrypt(n: 1 << 24, r: 8, p: 1))
    #expect(slow?.hasPrefix("decrypting k (scrypt n=16777216, r=8, p=1) takes about ") == true)
  }
}

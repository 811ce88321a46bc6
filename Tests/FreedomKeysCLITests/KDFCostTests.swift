import Foundation
import TestSupport
import Testing

/// Issue 8, reproducer 6, as a user meets it: a key file whose scrypt parameters would make
/// libsodium allocate 6 GiB is refused by `keystore inspect` before any derivation.
@Suite("KDF costs")
struct KDFCostTests {
  @Test func keystoreThatNeedsTooMuchMemoryIsRefused() throws {
    let dir = try TemporaryDirectory()
    let json = """
      {"address":"839b825c908fff5e4b51d97893f2fe64422f8978","crypto":{"cipher":"aes-128-ctr",\
      "ciphertext":"ec7e9133d81aa40d10a1869a0d8bbbbbd447c23a55d2a73f47e5f5985abc0868",\
      "cipherparams":{"iv":"6465666768696a6b6c6d6e6f70717273"},"kdf":"scrypt","kdfparams":{"n":2,\
      "r":8388608,"p":2,"dklen":32,"salt":"000102030405060708090a0b0c0d0e0f"},\
      "mac":"7a96ec1ff70b92969913cb9b81d842d758c848aca20289301f2d0695b2fae8d1"},"version":3}
      """
    let path = try dir.file("swarm.key", json)
    let run = try CLI.run(["keystore", "inspect", path])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: \(path): refusing the key file's KDF parameters: scrypt n=2, r=8388608, p=2 needs 6144 MiB of memory; the limit is 2048 MiB\n"
    )
  }

  /// A derivation expected to take over a second is announced on stderr before it starts
  /// (the estimate comes from the parameters; nothing here measures time).
  @Test func slowDerivationIsAnnounced() throws {
    let dir = try TemporaryDirectory()
    let json = """
      {"crypto":{"cipher":"aes-128-ctr",\
      "ciphertext":"ec7e9133d81aa40d10a1869a0d8bbbbbd447c23a55d2a73f47e5f5985abc0868",\
      "cipherparams":{"iv":"6465666768696a6b6c6d6e6f70717273"},"kdf":"pbkdf2","kdfparams":{\
      "c":1500000,"prf":"hmac-sha256","dklen":32,"salt":"000102030405060708090a0b0c0d0e0f"},\
      "mac":"7a96ec1ff70b92969913cb9b81d842d758c848aca20289301f2d0695b2fae8d1"},"version":3}
      """
    let path = try dir.file("swarm.key", json)
    let password = try dir.file("password", "not-it\n")
    let run = try CLI.run(["keystore", "inspect", path, "--password-file", password])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: decrypting \(path) (pbkdf2 c=1500000) takes about 2 s…\n"
        + "freedom-keys: error: wrong password for \(path): its MAC does not match\n")
  }
}

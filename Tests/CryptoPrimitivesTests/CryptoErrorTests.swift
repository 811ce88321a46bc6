import CryptoPrimitives
import Testing

/// Messages are one line a user can act on, and never carry input bytes.
@Suite struct CryptoErrorTests {
  @Test(arguments: [
    (
      CryptoError.invalidLength(what: "an AES-128 key", expected: 16, actual: 32),
      "an AES-128 key must be 16 bytes, got 32"
    ),
    (.invalidPrivateKey, "the private key is zero or not below the secp256k1 group order"),
    (.invalidPublicKey, "the bytes are not a valid secp256k1 public key"),
    (.invalidTweak, "the derived key is invalid for this index (use the next index)"),
    (
      .invalidScryptParameters,
      "scrypt parameters rejected: N must be a power of two greater than 1"
    ),
    (.authenticationFailed, "authentication failed: wrong key or altered data"),
    (.libraryFailure("EVP_CipherInit_ex"), "EVP_CipherInit_ex failed"),
  ])
  func description(_ error: CryptoError, _ message: String) {
    #expect(error.description == message)
  }
}

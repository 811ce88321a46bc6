import CryptoPrimitives
import Foundation
import Testing

/// The SHA-256 batch against the single-stream PBKDF2-HMAC-SHA256 (checked against RFC 7914's
/// vectors in PBKDF2Tests) and against published vectors itself, on every engine here.
@Suite struct PBKDF2SHA256BatchTests {
  /// Passwords of 0–200 bytes (empty, below, at and above SHA-256's 64-byte block: a key longer
  /// than a block is hashed first), a salt each, batches that cross a burst (128 jobs).
  @Test(arguments: [1, 2, 17])
  func randomInputsAgreeOnEveryEngine(iterations: Int) throws {
    var generator = SystemRandomNumberGenerator()
    for engine in PBKDF2SHA256Batch.Engine.allAvailable {
      for batch in [1, 9, 33, 130] {
        let passwords = (0..<batch).map { i in
          let edge = [0, 63, 64, 65]
          return randomBytes(
            i < edge.count ? edge[i] : Int.random(in: 0...200, using: &generator), &generator)
        }
        let salts = (0..<batch).map { _ in
          randomBytes(Int.random(in: 0...100, using: &generator), &generator)
        }
        let keys = try #require(
          PBKDF2SHA256Batch.deriveKeys(
            passwords: passwords, salts: salts, iterations: iterations, engine: engine))
        #expect(keys.count == batch)
        let identical = (0..<batch).filter { i in
          keys[i]
            == PBKDF2.hmacSHA256(
              password: passwords[i], salt: salts[i], iterations: iterations, keyByteCount: 32)
        }.count
        #expect(identical == batch, "\(engine): \(identical) of \(batch) at c=\(iterations)")
      }
    }
  }

  /// RFC 7914 section 11's PBKDF2-HMAC-SHA256 vector ("passwd", "salt", c = 1), its first 32
  /// bytes, in a batch beside other passwords, on every engine.
  @Test func publishedVectorInABatch() throws {
    let expected = "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
    for engine in PBKDF2SHA256Batch.Engine.allAvailable {
      let passwords = [SecureBytes(utf8: "x"), SecureBytes(utf8: "passwd"), SecureBytes(utf8: "")]
      let salts = [SecureBytes(utf8: "y"), SecureBytes(utf8: "salt"), SecureBytes(utf8: "salt")]
      let keys = try #require(
        PBKDF2SHA256Batch.deriveKeys(
          passwords: passwords, salts: salts, iterations: 1, engine: engine))
      #expect(keys[1].withUnsafeBytes { Hex.encode(Array($0)) } == expected, "\(engine)")
    }
  }
}

extension PBKDF2SHA256Batch.Engine {
  static var allAvailable: [Self] { PBKDF2SHA256Batch.availableEngines }
}

/// PBKDF2-HMAC-SHA256 (RFC 8018) of many candidate passwords at once, 32-byte keys (one block):
/// what a browser-passworder vault (desktop Freedom's, 900,000 iterations) and a web3 keystore's
/// pbkdf2 (32-byte dklen) derive their key with.
///
/// The engines are those of `PBKDF2SHA512Batch`: freedom-keys' own SIMD lanes (`PBKDF2Lanes`,
/// 16 with AVX-512, 8 with AVX2), libIPSec_MB's `IMB_AUTH_HMAC_SHA_256` jobs (its AVX-512 and
/// AVX2 managers), or `PBKDF2.hmacSHA256` (OpenSSL, on the CPU's SHA extensions where present)
/// one password after another; the same key from each. `FREEDOM_KEYS_MULTIBUFFER` chooses as
/// it does for seeds.
public enum PBKDF2SHA256Batch {
  /// The byte length of each key.
  public static let keyByteCount = 32

  public typealias Engine = PBKDF2SHA512Batch.Engine

  /// One 32-byte key per password, in order, each with its own salt, on the fastest engine.
  public static func deriveKeys(
    passwords: [SecureBytes], salts: [SecureBytes], iterations: Int
  ) -> [SecureBytes] {
    deriveKeys(passwords: passwords, salts: salts, iterations: iterations, engine: engine)!
  }

  /// Every engine that works here, slowest first: those of seeds (a kernel of our own lanes
  /// passes its self-test for both hashes or is not offered).
  public static var availableEngines: [Engine] { PBKDF2SHA512Batch.availableEngines }

  /// The engine `deriveKeys(passwords:salts:iterations:)` uses: the one seeds use.
  public static var engine: Engine { PBKDF2SHA512Batch.engine }

  /// The keys computed by `engine`, or nil when that engine is not available here.
  public static func deriveKeys(
    passwords: [SecureBytes], salts: [SecureBytes], iterations: Int, engine: Engine
  ) -> [SecureBytes]? {
    precondition(iterations >= 1, "PBKDF2 needs at least one iteration")
    precondition(salts.count == passwords.count, "one salt per password")
    if let arch = engine.lanesArchitecture {
      guard PBKDF2Lanes.architectures.contains(arch) else { return nil }
      return PBKDF2Lanes.derive(OpenSSLSHA256.self, arch, passwords, salts, iterations)
    }
    guard let arch = engine.multiBufferArchitecture else {
      return singleStream(passwords, salts, iterations)
    }
    guard case .success(let library) = PBKDF2SHA512Batch.loaded,
      library.architectures.contains(arch)
    else { return nil }
    return library.derive(OpenSSLSHA256.self, arch, passwords, salts, iterations)
      ?? singleStream(passwords, salts, iterations)
  }

  /// How many passwords to pass in one call so every lane is busy (16 lanes, twice over).
  public static var preferredBatchSize: Int {
    engine == .singleStream ? 4 : 32
  }

  private static func singleStream(
    _ passwords: [SecureBytes], _ salts: [SecureBytes], _ iterations: Int
  ) -> [SecureBytes] {
    zip(passwords, salts).map {
      PBKDF2.hmacSHA256(password: $0, salt: $1, iterations: iterations, keyByteCount: keyByteCount)
    }
  }
}

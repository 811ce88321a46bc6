import CryptoPrimitives
import Foundation
import Testing

/// The batch engines (freedom-keys' own SIMD lanes, libIPSec_MB's managers) against the
/// single-stream PBKDF2 (itself checked against RFC and BIP-39 vectors), byte for byte.
@Suite struct PBKDF2SHA512BatchTests {
  static let batchEngines = PBKDF2SHA512Batch.availableEngines.filter {
    $0 != .singleStream
  }

  /// Random passwords of 0–300 bytes (empty, shorter than, equal to and longer than SHA-512's
  /// 128-byte block) and random salts of 0–200 bytes, at iteration counts 1, 2, 3 and 17.
  @Test(arguments: [1, 2, 3, 17])
  func randomInputsAgree(iterations: Int) throws {
    var generator = SystemRandomNumberGenerator()
    for engine in Self.batchEngines {
      for batch in [1, 7, 64, 129] {
        let passwords = (0..<batch).map { i in
          let edge = [0, 127, 128, 129]
          let count = i < edge.count ? edge[i] : Int.random(in: 0...300, using: &generator)
          return randomBytes(count, &generator)
        }
        let salt = randomBytes(Int.random(in: 0...200, using: &generator), &generator)
        let seeds = try #require(
          PBKDF2SHA512Batch.deriveBIP39Seeds(
            mnemonics: passwords, salt: salt, iterations: iterations, engine: engine))
        #expect(seeds.count == batch)
        let identical = zip(passwords, seeds).filter { password, seed in
          seed
            == PBKDF2.hmacSHA512(
              password: password, salt: salt, iterations: iterations, keyByteCount: 64)
        }.count
        #expect(
          identical == batch, "\(engine): \(identical) of \(batch) identical at c=\(iterations)")
      }
    }
  }

  /// A salt per password (0–200 random bytes each, an empty one first), on every engine and
  /// the single-stream one, in batches that cross a burst: each seed is its own password's
  /// with its own salt.
  @Test(arguments: [1, 3])
  func saltPerPasswordAgrees(iterations: Int) throws {
    var generator = SystemRandomNumberGenerator()
    for engine in PBKDF2SHA512Batch.availableEngines {
      for batch in [1, 5, 64, 130] {
        let passwords = (0..<batch).map { _ in
          randomBytes(Int.random(in: 0...200, using: &generator), &generator)
        }
        let salts = (0..<batch).map { i in
          randomBytes(i == 0 ? 0 : Int.random(in: 0...200, using: &generator), &generator)
        }
        let seeds = try #require(
          PBKDF2SHA512Batch.deriveBIP39Seeds(
            mnemonics: passwords, salts: salts, iterations: iterations, engine: engine))
        #expect(seeds.count == batch)
        let identical = (0..<batch).filter { i in
          seeds[i]
            == PBKDF2.hmacSHA512(
              password: passwords[i], salt: salts[i], iterations: iterations, keyByteCount: 64)
        }.count
        #expect(
          identical == batch, "\(engine): \(identical) of \(batch) identical at c=\(iterations)")
      }
    }
  }

  /// 2048 iterations, as BIP-39 runs them, on 16 random phrases and passphrases.
  @Test func randomInputsAgreeAtBIP39IterationCount() throws {
    var generator = SystemRandomNumberGenerator()
    let passwords = (0..<16).map { _ in
      randomBytes(Int.random(in: 40...250, using: &generator), &generator)
    }
    let salt = SecureBytes(
      utf8: "mnemonic" + String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 36))
    let expected = passwords.map {
      PBKDF2.hmacSHA512(password: $0, salt: salt, iterations: 2048, keyByteCount: 64)
    }
    for engine in Self.batchEngines {
      let seeds = try #require(
        PBKDF2SHA512Batch.deriveBIP39Seeds(
          mnemonics: passwords, salt: salt, iterations: 2048, engine: engine))
      #expect(seeds == expected, "\(engine)")
    }
    #expect(
      PBKDF2SHA512Batch.deriveBIP39Seeds(mnemonics: passwords, salt: salt, iterations: 2048)
        == expected, "default engine \(PBKDF2SHA512Batch.engine)")
  }

  /// Batches on several threads at once, as `recover` runs them: each takes its own manager.
  @Test func concurrentBatchesAgree() async throws {
    let salt = SecureBytes(utf8: "mnemonic")
    let results = await withTaskGroup(of: Bool.self) { group in
      for task in 0..<4 {
        group.addTask {
          let passwords = (0..<24).map { SecureBytes(utf8: "candidate \(task) \($0)") }
          let expected = passwords.map {
            PBKDF2.hmacSHA512(password: $0, salt: salt, iterations: 3, keyByteCount: 64)
          }
          return PBKDF2SHA512Batch.deriveBIP39Seeds(
            mnemonics: passwords, salt: salt, iterations: 3) == expected
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results == [true, true, true, true])
  }

  /// The published seeds of abandon … about (BIP-39 vectors, with and without "TREZOR").
  @Test func knownSeedsOnEveryEngine() throws {
    let phrase = SecureBytes(
      utf8: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        + "abandon about")
    for engine in PBKDF2SHA512Batch.availableEngines {
      let seeds = try #require(
        PBKDF2SHA512Batch.deriveBIP39Seeds(
          mnemonics: [phrase, phrase], salt: SecureBytes(utf8: "mnemonic"), iterations: 2048,
          engine: engine))
      let withPassphrase = try #require(
        PBKDF2SHA512Batch.deriveBIP39Seeds(
          mnemonics: [phrase], salt: SecureBytes(utf8: "mnemonicTREZOR"), iterations: 2048,
          engine: engine))
      for seed in seeds {
        #expect(
          seed.revealHex()
            == "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1"
            + "9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4", "\(engine)")
      }
      #expect(
        withPassphrase.map { $0.revealHex() }
          == [
            "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e5349553"
              + "1f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"
          ], "\(engine)")
    }
  }

  /// The fallback, forced: the same seeds as PBKDF2.hmacSHA512, in order.
  @Test func forcedSingleStreamFallback() throws {
    let passwords = [
      SecureBytes(utf8: "b"), SecureBytes(utf8: "a"), SecureBytes(count: 0) { _ in },
    ]
    let salt = SecureBytes(utf8: "mnemonic")
    let seeds = try #require(
      PBKDF2SHA512Batch.deriveBIP39Seeds(
        mnemonics: passwords, salt: salt, iterations: 5, engine: .singleStream))
    #expect(
      seeds
        == passwords.map {
          PBKDF2.hmacSHA512(password: $0, salt: salt, iterations: 5, keyByteCount: 64)
        })
    #expect(seeds[0] != seeds[1])
    #expect(
      PBKDF2SHA512Batch.deriveBIP39Seeds(
        mnemonics: [], salt: salt, iterations: 5, engine: .singleStream) == [])
  }

  /// What the machine offers, stated: freedom-keys' own lanes wherever the CPU has AVX2 (and
  /// AVX-512), libIPSec_MB's managers where the library loads; the default is the fastest.
  @Test func availabilityIsConsistent() throws {
    let engines = PBKDF2SHA512Batch.availableEngines
    #expect(engines.first == .singleStream)
    #expect(PBKDF2SHA512Batch.engine == engines.last)
    // A kernel that failed its known answers is left out: where the CPU has the instruction
    // set, its absence is a failure, not a fallback.
    let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let words = Set(flags.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }))
    #expect(engines.contains(.lanesAVX2) == words.contains("avx2"), "\(engines)")
    #expect(engines.contains(.lanesAVX512) == words.contains("avx512f"), "\(engines)")
    // The SIMD-lane HMAC (SLIP-0010's steps of a batch) runs wherever the seed engine is lanes.
    let lanes = PBKDF2SHA512Batch.engine.description.contains("SIMD lanes")
    #expect((HMACSHA512Lanes.laneCount != nil) == lanes, "\(PBKDF2SHA512Batch.engine)")
    #expect(
      !PBKDF2SHA512Batch.multiBufferFailedSelfTest,
      "\(PBKDF2SHA512Batch.multiBufferUnavailableReason ?? "")")
    // Set where libipsec-mb-dev is installed (scripts/test on x86-64), so a build that silently
    // lost the multi-buffer path fails instead of testing only the fallback.
    if ProcessInfo.processInfo.environment["FREEDOM_KEYS_EXPECT_MULTIBUFFER"] == "1" {
      #expect(PBKDF2SHA512Batch.multiBufferUnavailableReason == nil)
    }
    let managers = engines.filter(\.usesMultiBufferLibrary)
    if let reason = PBKDF2SHA512Batch.multiBufferUnavailableReason {
      print("libIPSec_MB not available here (\(reason)): engines \(engines)")
      #expect(managers.isEmpty)
      #expect(PBKDF2SHA512Batch.multiBufferLibraryVersion == nil)
      for engine in [PBKDF2SHA512Batch.Engine.multiBufferAVX2, .multiBufferAVX512] {
        #expect(
          PBKDF2SHA512Batch.deriveBIP39Seeds(
            mnemonics: [SecureBytes(utf8: "a")], salt: SecureBytes(utf8: "s"), iterations: 1,
            engine: engine) == nil)
      }
    } else {
      print(
        "batch PBKDF2: libIPSec_MB \(PBKDF2SHA512Batch.multiBufferLibraryVersion ?? "?"), "
          + "engines \(engines), default \(PBKDF2SHA512Batch.engine)")
      #expect(!managers.isEmpty)
      #expect(PBKDF2SHA512Batch.multiBufferLibraryVersion != nil)
    }
    if engines.count > 1 { #expect(PBKDF2SHA512Batch.preferredBatchSize >= 8) }
  }
}

func randomBytes(_ count: Int, _ generator: inout SystemRandomNumberGenerator)
  -> SecureBytes
{
  SecureBytes(count: count) { out in
    for i in 0..<count { out[i] = UInt8.random(in: 0...255, using: &generator) }
  }
}

import CryptoPrimitives
import Testing

/// The OpenCL kernels against the CPU's PBKDF2 (OpenSSL), on whatever OpenCL device is here:
/// PoCL's CPU device in CI (scripts/test installs pocl-opencl-icd), a GPU where there is one.
/// Without an OpenCL loader or device the suite is skipped, saying why; a device that is there
/// but computes a wrong key fails it.
@Suite(.enabled(if: OpenCLTestDevice.engine != nil, OpenCLTestDevice.skipReason))
struct OpenCLPBKDF2Tests {
  /// Passwords of every length from 0 to 300 bytes (below, at and above both hashes' blocks: a
  /// key longer than a block is hashed first), then salts of every length from 0 to 300 (the
  /// salt ‖ INT(1) crossing one, two and three blocks), random bytes, at 1 and 2 iterations.
  @Test(arguments: [1, 2])
  func everyLengthAgreesWithTheCPU(iterations: Int) throws {
    let engine = try #require(OpenCLTestDevice.engine)
    var generator = SystemRandomNumberGenerator()
    let lengths = Array(0...300)
    var passwords = lengths.map { randomBytes($0, &generator) }
    var salts = lengths.map { _ in
      randomBytes(Int.random(in: 0...300, using: &generator), &generator)
    }
    passwords += lengths.map { _ in
      randomBytes(Int.random(in: 0...300, using: &generator), &generator)
    }
    salts += lengths.map { randomBytes($0, &generator) }
    let seeds = try engine.deriveBIP39Seeds(
      mnemonics: passwords, salts: salts, iterations: iterations)
    let keys = try engine.deriveSHA256Keys(
      passwords: passwords, salts: salts, iterations: iterations)
    #expect(seeds.count == passwords.count && keys.count == passwords.count)
    var wrong: [String] = []
    for index in passwords.indices {
      let (password, salt) = (passwords[index], salts[index])
      let seed = PBKDF2.hmacSHA512(
        password: password, salt: salt, iterations: iterations, keyByteCount: 64)
      let key = PBKDF2.hmacSHA256(
        password: password, salt: salt, iterations: iterations, keyByteCount: 32)
      if seeds[index] != seed {
        wrong.append("SHA-512 password \(password.count) salt \(salt.count)")
      }
      if keys[index] != key {
        wrong.append("SHA-256 password \(password.count) salt \(salt.count)")
      }
    }
    #expect(wrong.isEmpty, "c=\(iterations): \(wrong.prefix(8)) (\(wrong.count) wrong)")
  }

  /// BIP-39's 2048 rounds: the published TREZOR vector (its 24-word phrase, passphrase
  /// "TREZOR") beside phrases of 120 and 129–200 bytes with passphrases crossing SHA-512's
  /// block, against the CPU.
  @Test func bip39SeedsAt2048Rounds() throws {
    let engine = try #require(OpenCLTestDevice.engine)
    var generator = SystemRandomNumberGenerator()
    let phrase = SecureBytes(
      utf8: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        + "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        + "abandon abandon abandon art")
    let expected =
      "bda85446c68413707090a52022edd26a1c9462295029f2e60cd7c4f2bbd3097170af7a4d73245cafa9c3cca8"
      + "d561a7c3de6f5d4a10be8ed2a5e608d68f92fcc8"
    let mnemonics =
      [phrase] + [120, 128, 129, 200, 250].map { randomBytes($0, &generator) }
    let salts =
      [SecureBytes(utf8: "mnemonicTREZOR")]
      + [8, 120, 124, 125, 260].map { randomBytes($0, &generator) }
    let seeds = try engine.deriveBIP39Seeds(mnemonics: mnemonics, salts: salts, iterations: 2048)
    #expect(seeds[0].withUnsafeBytes { Hex.encode(Array($0)) } == expected)
    for index in mnemonics.indices.dropFirst() {
      let seed = PBKDF2.hmacSHA512(
        password: mnemonics[index], salt: salts[index], iterations: 2048, keyByteCount: 64)
      #expect(
        seeds[index] == seed, "phrase \(mnemonics[index].count) salt \(salts[index].count)")
    }
  }

  /// A vault-like count (10,000 rounds; desktop's 900,000 runs the same loop) for passwords of
  /// 0, 76 and 65 bytes, and RFC 7914's PBKDF2-HMAC-SHA256 vector ("passwd", "salt", c = 1).
  @Test func sha256KeysAtAHighCount() throws {
    let engine = try #require(OpenCLTestDevice.engine)
    var generator = SystemRandomNumberGenerator()
    let passwords = [0, 76, 65].map { randomBytes($0, &generator) }
    let salts = [32, 32, 0].map { randomBytes($0, &generator) }
    let keys = try engine.deriveSHA256Keys(passwords: passwords, salts: salts, iterations: 10_000)
    for index in passwords.indices {
      let key = PBKDF2.hmacSHA256(
        password: passwords[index], salt: salts[index], iterations: 10_000, keyByteCount: 32)
      #expect(keys[index] == key, "password \(passwords[index].count)")
    }
    let vector = try engine.deriveSHA256Keys(
      passwords: [SecureBytes(utf8: "passwd")], salts: [SecureBytes(utf8: "salt")],
      iterations: 1)
    #expect(
      vector[0].withUnsafeBytes { Hex.encode(Array($0)) }
        == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
  }

  /// An empty batch is no launch; many threads at once each get their own queue and the
  /// right keys.
  @Test func concurrentBatchesAndAnEmptyOne() async throws {
    let engine = try #require(OpenCLTestDevice.engine)
    #expect(try engine.deriveBIP39Seeds(mnemonics: [], salts: [], iterations: 2048).isEmpty)
    let agreed = await withTaskGroup(of: Bool.self) { group in
      for task in 0..<4 {
        group.addTask {
          let passwords = (0..<9).map { i in
            SecureBytes(Array(repeating: UInt8(task), count: i * 17))
          }
          let salts = passwords.map { _ in SecureBytes(utf8: "mnemonic\(task)") }
          guard
            let keys = try? engine.deriveSHA256Keys(
              passwords: passwords, salts: salts, iterations: 3)
          else { return false }
          return passwords.indices.allSatisfy {
            keys[$0]
              == PBKDF2.hmacSHA256(
                password: passwords[$0], salt: salts[$0], iterations: 3, keyByteCount: 32)
          }
        }
      }
      return await group.reduce(true) { $0 && $1 }
    }
    #expect(agreed)
  }

  /// `auto` never takes a device that is not a GPU (PoCL's CPU device), so the CPU engine is
  /// what it was; a device number past the list is refused with the count.
  @Test func autoTakesOnlyAGPUAndANumberPastTheListIsRefused() throws {
    let devices = try OpenCLDevice.all()
    let auto = try PBKDF2Backend.resolve(.auto)
    if devices.contains(where: \.isGPU) {
      #expect(auto.device?.isGPU == true)
    } else {
      #expect(auto.device == nil)
    }
    #expect(throws: OpenCLError.noSuchDevice(number: devices.count + 1, count: devices.count)) {
      try PBKDF2Backend.resolve(.openCL, device: devices.count + 1)
    }
    #expect(throws: OpenCLError.noSuchDevice(number: 0, count: devices.count)) {
      try PBKDF2Backend.resolve(.auto, device: 0)
    }
    #expect(try PBKDF2Backend.resolve(.openCL, device: 1).device == devices[0])
  }
}

/// The OpenCL engine the suite runs on, opened once, or why there is none.
enum OpenCLTestDevice {
  static let opened = Result { () throws(OpenCLError) -> OpenCLPBKDF2 in
    let devices = try OpenCLDevice.all()
    return try OpenCLPBKDF2.open(devices.first(where: \.isGPU) ?? devices[0])
  }

  /// The engine, nil when none opened: the suite is skipped, and where a device is here but
  /// failed, `OpenCLDevicePresentTests` fails.
  static var engine: OpenCLPBKDF2? { try? opened.get() }

  static var skipReason: Comment {
    switch opened {
    case .success: "an OpenCL device is here"
    case .failure(let error):
      "no OpenCL device to test on (\(error)); install pocl-opencl-icd to run these tests"
    }
  }
}

/// A loader and a device that are here but cannot build or pass the kernels' self-test fail,
/// they are never skipped.
@Suite struct OpenCLDevicePresentTests {
  @Test func aDeviceThatIsHereOpens() {
    switch OpenCLTestDevice.opened {
    case .success, .failure(.loaderMissing), .failure(.noPlatform), .failure(.noDevice): break
    case .failure(let error): Issue.record("the OpenCL device here failed: \(error)")
    }
  }
}

/// The batch size: chosen from timings given as values (no device), and measured once on the
/// device here.
@Suite struct OpenCLBatchSizeTests {
  /// A call costs 10 ms plus 1 µs a candidate: the rate grows with the batch until the fixed
  /// cost is small; 131,072 is the last doubling to gain more than 5 % (262,144 gains 3.7 %).
  @Test func theRateStopsImprovingByMoreThanFivePercent() {
    let measured = OpenCLBatchSize.measure(sizes: 128...(1 << 18)) { (size: Int) -> Double in
      0.01 + Double(size) / 1e6
    }
    #expect(measured.chosen == 1 << 17)
    #expect(measured.trials.map(\.size) == (7...18).map { 1 << $0 })
  }

  /// Never past the largest size; a flat rate keeps the first; the time budget stops the
  /// doubling (0.3 s a call: a third call would pass 1 s).
  @Test func theBoundsAndTheBudget() {
    let capped = OpenCLBatchSize.measure(sizes: 128...1024) { (size: Int) -> Double in
      Double(size) / 1e9 + 1e-3
    }
    #expect(capped.chosen == 1024 && capped.trials.map(\.size) == [128, 256, 512, 1024])
    let flat = OpenCLBatchSize.measure(sizes: 128...(1 << 18)) { (size: Int) -> Double in
      Double(size) / 1000
    }
    #expect(flat.chosen == 128 && flat.trials.map(\.size) == [128, 256])
    let slow = OpenCLBatchSize.measure(sizes: 128...(1 << 18)) { (_: Int) -> Double in 0.3 }
    #expect(slow.chosen == 256 && slow.trials.map(\.size) == [128, 256])
    #expect(OpenCLBatchSize.bounds(computeUnits: 2, largest: 1 << 18) == 128...(1 << 18))
    #expect(OpenCLBatchSize.bounds(computeUnits: 0, largest: 32) == 32...32)
  }

  /// On the device: a size within the bounds that was one of the trials (doubling from the
  /// first), measured when the engine was opened and kept: opening it again measures nothing
  /// more, and both backends' batch sizes are it.
  @Test(.enabled(if: OpenCLTestDevice.engine != nil, OpenCLTestDevice.skipReason))
  func theDeviceIsMeasuredOnce() throws {
    let engine = try #require(OpenCLTestDevice.engine)
    let measured = engine.batchSize
    let bounds = OpenCLBatchSize.bounds(computeUnits: engine.device.computeUnits, largest: 1 << 18)
    #expect(bounds.contains(measured.chosen))
    #expect(measured.trials.map(\.size).contains(measured.chosen))
    #expect(measured.trials.first?.size == bounds.lowerBound)
    #expect(zip(measured.trials, measured.trials.dropFirst()).allSatisfy { $1.size == 2 * $0.size })
    #expect(measured.iterations == 256)
    let again = try OpenCLPBKDF2.open(engine.device)
    #expect(again === engine && again.batchSize == measured)
    #expect(PBKDF2Backend.openCL(engine).seedBatchSize == measured.chosen)
    #expect(PBKDF2Backend.openCL(engine).keyBatchSize == measured.chosen)
  }
}

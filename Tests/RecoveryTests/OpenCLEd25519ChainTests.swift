import CryptoPrimitives
import Recovery
import Testing
import VaultKeys

/// The device's fused kernel, BIP-39 seed then SLIP-0010 Ed25519 chain, against VaultKeys'
/// `SLIP10Ed25519Key` and against the matcher on CPU seeds, on whatever OpenCL device is here
/// (PoCL's CPU device in CI); skipped, saying why, without one. A device that is here but
/// fails its self-test (the chain's included) fails these tests.
@Suite(.enabled(if: OpenCLChainDevice.isHere, "no OpenCL device (install pocl-opencl-icd)"))
struct OpenCLEd25519ChainTests {
  static var engine: OpenCLPBKDF2 {
    get throws { try OpenCLChainDevice.opened.get() }
  }

  static let hardened: UInt32 = 1 << 31
  /// m/44'/73405'/0'/0'/0' (IPFS, node 5), m/44'/73404'/0'/0'/0' (Radicle, node 9), the master
  /// (node 0) and m/44'/73405' (node 2), as the paths they stand for.
  static let steps = SLIP10Ed25519Steps(
    steps: [
      .init(parent: 0, index: hardened + 44), .init(parent: 1, index: hardened + 73405),
      .init(parent: 2, index: hardened), .init(parent: 3, index: hardened),
      .init(parent: 4, index: hardened), .init(parent: 1, index: hardened + 73404),
      .init(parent: 6, index: hardened), .init(parent: 7, index: hardened),
      .init(parent: 8, index: hardened),
    ], outputs: [5, 9, 0, 2])
  static let paths = ["m/44'/73405'/0'/0'/0'", "m/44'/73404'/0'/0'/0'", "m", "m/44'/73405'"]

  /// Random passwords and salts of many lengths (a few iterations: the chain is what is
  /// tested, PBKDF2 has its own suite), with and without the seeds coming back: each key is
  /// `SLIP10Ed25519Key(seed:).derive(path)`'s private key.
  @Test(arguments: [false, true])
  func keysAreSLIP10Keys(keepingSeeds: Bool) throws {
    let engine = try Self.engine
    var generator = SystemRandomNumberGenerator()
    func random(_ count: Int) -> SecureBytes {
      SecureBytes((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
    let passwords = (0..<40).map { random($0 * 5) }
    let salts = (0..<40).map { _ in random(Int.random(in: 0...140, using: &generator)) }
    let (seeds, keys) = try engine.deriveBIP39Ed25519Keys(
      mnemonics: passwords, salts: salts, iterations: 3, steps: Self.steps,
      keepingSeeds: keepingSeeds)
    #expect(keys.count == passwords.count)
    #expect(seeds.count == (keepingSeeds ? passwords.count : 0))
    var wrong: [String] = []
    for index in passwords.indices {
      let seed = PBKDF2.hmacSHA512(
        password: passwords[index], salt: salts[index], iterations: 3, keyByteCount: 64)
      if keepingSeeds, seeds[index] != seed { wrong.append("seed \(index)") }
      let master = SLIP10Ed25519Key(seed: seed)
      for (output, path) in Self.paths.enumerated() {
        let expected = try master.derive(DerivationPath(path)).privateKey.rawRepresentation
        if keys[index][32 * output..<32 * (output + 1)] != expected {
          wrong.append("\(index) \(path)")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(8)) (\(wrong.count) wrong)")
  }

  /// BIP-39 phrases at 2048 rounds, abandon … about among random ones: the matcher given the
  /// device's keys finds the same seed, label and work as on CPU seeds, for Ed25519 targets
  /// alone (no seed comes back) and beside an address (the seeds come back too).
  @Test(arguments: [0, 9])
  func theMatcherFindsWhatTheCPUFinds(position: Int) throws {
    let engine = try Self.engine
    let profile = TargetMatcherTests.profile
    var phrases = try (0..<10).map { _ in try Mnemonic.generate(wordCount: 12).phrase() }
    phrases[position] = SecureBytes(utf8: TargetMatcherTests.phrase)
    let salts = phrases.map { _ in SecureBytes(utf8: "mnemonic") }
    let ed25519Paths = try DerivationPathTemplate("m/44'/73405'/{0-4}'/0'/0'").paths
    let third = try profile.ed25519Identity(at: TargetMatcherTests.path("m/44'/73405'/3'/0'/0'"))
    let cases: [(targets: [RecoveryTarget], label: String)] = [
      ([.peerID(profile.ipfs.peerID)], "ipfs.peerId"),
      ([.radicle(profile.radicle.radicle)], "radicle.did"),
      ([try .peerID(third.peerID, paths: ed25519Paths)], "m/44'/73405'/3'/0'/0'"),
      (
        [.address(TargetMatcherTests.other.swarm.address), .radicle(profile.radicle.radicle)],
        "radicle.did"
      ),
      (
        [.address(profile.swarm.address), .peerID(TargetMatcherTests.other.ipfs.peerID)],
        "swarm.address"
      ),
    ]
    let cpuSeeds = PBKDF2SHA512Batch.deriveBIP39Seeds(
      mnemonics: phrases, salts: salts, iterations: 2048)
    for (targets, label) in cases {
      let onDevice = TargetMatcher(targets: targets)
      let steps = try #require(onDevice.ed25519Steps)
      let (seeds, keys) = try engine.deriveBIP39Ed25519Keys(
        mnemonics: phrases, salts: salts, iterations: 2048, steps: steps,
        keepingSeeds: onDevice.needsSeeds)
      #expect(seeds.isEmpty == !onDevice.needsSeeds)
      let found = onDevice.firstMatch(in: seeds, ed25519Keys: keys)
      let onCPU = TargetMatcher(targets: targets)
      let expected = onCPU.firstMatch(in: cpuSeeds)
      #expect(found?.index == position && found?.label == label, "\(label)")
      #expect(expected?.index == found?.index && expected?.label == found?.label, "\(label)")
      #expect(onDevice.stats == onCPU.stats, "\(label): \(onDevice.stats) vs \(onCPU.stats)")
    }
  }
}

/// The OpenCL engine the chain tests run on, opened once, or why it did not open.
enum OpenCLChainDevice {
  static let isHere = (try? OpenCLDevice.all()) != nil
  static let opened = Result { () throws(OpenCLError) -> OpenCLPBKDF2 in
    let devices = try OpenCLDevice.all()
    return try OpenCLPBKDF2.open(devices.first(where: \.isGPU) ?? devices[0])
  }
}

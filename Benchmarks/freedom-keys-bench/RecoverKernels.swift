// The two kernels of `recover`, per core and side by side in one run (issue 11): BIP-39 seeds
// (PBKDF2-HMAC-SHA512, 2048 iterations) on every engine of PBKDF2SHA512Batch, OpenSSL's
// PKCS5_PBKDF2_HMAC and Python's hashlib; and addresses m/44'/60'/0'/0/i against a C loop over
// libsecp256k1 (Benchmarks/c/reference-loops.c, built here with cc). Rates come from thread CPU
// time, so they are per core whatever else the machine runs.

import CryptoPrimitives
import Foundation
import VaultKeys

struct RecoverKernelReport: Encodable {
  /// BIP-39 seeds per second on one core, by implementation.
  var seedsPerSecondPerCore: [String: Double] = [:]
  /// The default batch engine's rate over the single-stream rate (target ≥ 1.45).
  var batchVsSingleStream: Double?
  /// Why the multi-buffer engines did not run, when they did not.
  var multiBufferUnavailable: String?
  /// Addresses m/44'/60'/0'/0/i per second on one core.
  var addressesPerSecondPerCore: [String: Double] = [:]
  /// freedom-keys' address rate over the C loop's (target ≥ 0.8).
  var addressesVsC: Double?
  /// Microseconds of one call, for the small costs issue 11 names.
  var microseconds: [String: Double] = [:]
  /// A desktop vault's key (PBKDF2-HMAC-SHA256, 900,000 iterations): passwords per second on
  /// one core, by implementation (`recover password`'s kernel).
  var vaultPasswordsPerSecondPerCore: [String: Double] = [:]
}

private let knownSeedHex =
  "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1"
  + "9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4"
/// m/44'/60'/0'/0/0 of abandon … about.
private let knownAddress = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"

@MainActor func measureRecoverKernels() throws {
  var kernels = RecoverKernelReport()
  let ran = { (name: String) in filter.map { name.contains($0) } ?? true }
  func cpuMs(_ name: String) -> Double? {
    report.cases.last(where: { $0.name == name })?.medianCpuMs
  }

  // MARK: PBKDF2
  let batchSize = 64
  let phrases = [SecureBytes](repeating: phrase, count: batchSize)
  let bip39Salt = SecureBytes(utf8: "mnemonic")
  kernels.multiBufferUnavailable = PBKDF2SHA512Batch.multiBufferUnavailableReason
  for engine in PBKDF2SHA512Batch.availableEngines {
    let name = "PBKDF2 batch of \(batchSize) seeds, \(engine)"
    measure(name, iterations: engine == .singleStream ? 5 : 9) {
      let seeds = PBKDF2SHA512Batch.deriveBIP39Seeds(
        mnemonics: phrases, salt: bip39Salt, iterations: 2048, engine: engine)!
      for seed in seeds { check(name, seed.revealHex(), knownSeedHex) }
    }
    if let ms = cpuMs(name) {
      kernels.seedsPerSecondPerCore[engine.description] = 1000 * Double(batchSize) / ms
    }
  }
  if let single = kernels.seedsPerSecondPerCore["single-stream"],
    let batch = kernels.seedsPerSecondPerCore[PBKDF2SHA512Batch.engine.description],
    PBKDF2SHA512Batch.engine != .singleStream
  {
    kernels.batchVsSingleStream = batch / single
  }
  if ran("PBKDF2"), let c = referenceLoop("pbkdf2", count: 200) {
    check("OpenSSL PKCS5_PBKDF2_HMAC", c.result, knownSeedHex)
    kernels.seedsPerSecondPerCore["OpenSSL PKCS5_PBKDF2_HMAC"] = 1e6 / c.microseconds
  }
  if ran("PBKDF2"),
    let python = pythonNumbers(
      """
      import hashlib, statistics, time, timeit
      f = lambda: hashlib.pbkdf2_hmac('sha512', b'\(mnemonic)', b'mnemonic', 2048)
      f()
      print(statistics.median(timeit.repeat(f, timer=time.thread_time, number=10, repeat=21)) / 10)
      """), let seconds = python.first
  {
    kernels.seedsPerSecondPerCore["Python hashlib.pbkdf2_hmac"] = 1 / seconds
  }

  // MARK: The vault's PBKDF2-HMAC-SHA256
  let vaultIterations = 900_000
  let vaultSalt = SecureBytes(utf8: "0123456789abcdef0123456789abcdef")
  let vaultExpected = PBKDF2.hmacSHA256(
    password: SecureBytes(utf8: mnemonic), salt: vaultSalt, iterations: vaultIterations,
    keyByteCount: 32
  ).revealHex()
  for engine in PBKDF2SHA256Batch.availableEngines {
    let count = engine == .singleStream ? 2 : 32
    let passwords = [SecureBytes](repeating: SecureBytes(utf8: mnemonic), count: count)
    let salts = [SecureBytes](repeating: vaultSalt, count: count)
    let name = "vault PBKDF2-SHA256 900k × \(count), \(engine)"
    measure(name, iterations: 1) {
      let keys = PBKDF2SHA256Batch.deriveKeys(
        passwords: passwords, salts: salts, iterations: vaultIterations, engine: engine)!
      for key in keys { check(name, key.revealHex(), vaultExpected) }
    }
    if let ms = cpuMs(name) {
      kernels.vaultPasswordsPerSecondPerCore[engine.description] = 1000 * Double(count) / ms
    }
  }
  if ran("vault"),
    let python = pythonNumbers(
      """
      import hashlib, time
      t = time.thread_time()
      hashlib.pbkdf2_hmac('sha256', b'\(mnemonic)', b'0123456789abcdef0123456789abcdef', 900000)
      print(time.thread_time() - t)
      """), let seconds = python.first
  {
    kernels.vaultPasswordsPerSecondPerCore["Python hashlib.pbkdf2_hmac"] = 1 / seconds
  }

  // MARK: Addresses
  let account = try master.derive(DerivationPath("m/44'/60'/0'/0"))
  let addressCount = 500
  let addressCase = "\(addressCount) addresses m/44'/60'/0'/0/i (child + Keccak)"
  try measure(addressCase, iterations: 9) {
    for i in 0..<UInt32(addressCount) {
      let address = try account.child(DerivationPath.Component(index: i, hardened: false))
        .ethereumAddress
      sink &+= Int(address.rawRepresentation[0])
      if i == 0 { check(addressCase, address.checksummed, knownAddress) }
    }
  }
  if let ms = cpuMs(addressCase) {
    kernels.addressesPerSecondPerCore["freedom-keys"] = 1000 * Double(addressCount) / ms
  }
  if ran("addresses"), let c = referenceLoop("addresses", count: 3000, input: seed.revealHex()) {
    check("C address loop", "0x" + c.result, knownAddress.lowercased())
    kernels.addressesPerSecondPerCore["C loop over libsecp256k1"] = 1e6 / c.microseconds
  }
  if let ours = kernels.addressesPerSecondPerCore["freedom-keys"],
    let c = kernels.addressesPerSecondPerCore["C loop over libsecp256k1"]
  {
    kernels.addressesVsC = ours / c
  }

  // The per-candidate derivation of `recover` (seed → Swarm wallet address) and EIP-55 text.
  let swarmCase = "seed → m/44'/60'/0'/0/1 address"
  try measure(swarmCase, iterations: 500) {
    let key = try ExtendedPrivateKey(seed: seed).derive(FreedomProfile.swarmPath)
    sink &+= Int(key.ethereumAddress.rawRepresentation[0])
  }
  if let ms = cpuMs(swarmCase) { kernels.microseconds[swarmCase] = ms * 1000 }
  let address = try EthereumAddress(knownAddress)
  let checksumCase = "1000 × EthereumAddress.checksummed"
  measure(checksumCase, iterations: 21) {
    for _ in 0..<1000 { sink &+= address.checksummed.utf8.count }
  }
  if let ms = cpuMs(checksumCase) { kernels.microseconds["EthereumAddress.checksummed"] = ms }

  try? FileManager.default.removeItem(atPath: referenceLoopBinary)
  if !kernels.seedsPerSecondPerCore.isEmpty || !kernels.addressesPerSecondPerCore.isEmpty
    || !kernels.vaultPasswordsPerSecondPerCore.isEmpty
  {
    report.recoverKernels = kernels
  }
}

/// Builds Benchmarks/c/reference-loops.c with cc (once) and runs one mode: CPU µs an item and
/// the line it prints for the self-check. Nil without cc or the libraries' headers.
private func referenceLoop(_ mode: String, count: Int, input: String = "")
  -> (microseconds: Double, result: String)?
{
  let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("c/reference-loops.c").path
  let binary = referenceLoopBinary
  if !FileManager.default.fileExists(atPath: binary) {
    guard
      run(
        "/usr/bin/env",
        ["cc", "-O2", source, "-o", binary, "-lsecp256k1", "-lsodium", "-lcrypto"]) != nil
    else {
      FileHandle.standardError.write(Data("reference loops: cc could not build \(source)\n".utf8))
      return nil
    }
  }
  guard let output = run(binary, [mode, String(count)], input: input) else { return nil }
  let lines = output.split(separator: "\n").map(String.init)
  guard lines.count >= 2, let microseconds = Double(lines[0]) else { return nil }
  return (microseconds, lines[1])
}

private let referenceLoopBinary = FileManager.default.temporaryDirectory
  .appendingPathComponent("freedom-keys-reference-loops-\(getpid())").path

/// Runs a program; its stdout, or nil unless it exits 0.
private func run(_ path: String, _ arguments: [String], input: String = "") -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let output = Pipe()
  let stdin = Pipe()
  process.standardOutput = output
  process.standardInput = stdin
  do { try process.run() } catch { return nil }
  stdin.fileHandleForWriting.write(Data(input.utf8))
  try? stdin.fileHandleForWriting.close()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  return String(decoding: data, as: UTF8.self)
}

// The one-key search against hashcat on the same CPU, in one run (issue 30): hashcat -m 12100
// (PBKDF2-HMAC-SHA512, 2048 iterations: the bare BIP-39 seed, no checksum, no derivation) with
// PoCL on the CPU over random twelve-word phrases, before and after; our batch kernel on as
// many threads as cores (wall clock); and `freedom-keys recover` end to end over 12 words with
// two unknown (2048² candidates, 262,144 pass the checksum) against a --peer-id that matches
// nothing. What recover loses between the kernel and the answer is the overhead.
//
// hashcat and PoCL are Debian's (`apt-get install hashcat pocl-opencl-icd`); without them the
// hashcat lines are skipped. FREEDOM_KEYS_BENCH_RECOVER_SHARDS=N searches shard 1/N (default 1,
// the whole search).

import CryptoPrimitives
import Foundation
import Synchronization
import VaultKeys

struct AheadOfHashcatReport: Encodable {
  /// The CPU's widest vector extension (AVX-512 or AVX2) and the seed engine recover used.
  let vectorEngine: String
  let seedEngine: String
  /// hashcat's speed (H/s, all cores) measured just before and just after ours.
  var hashcatHashesPerSecond: [Double] = []
  /// Our batch kernel on every core at once: seeds per second, wall clock.
  var kernelSeedsPerSecond = 0.0
  /// recover's checksum-valid candidates per second, wall clock, on every core.
  var recoverCandidatesPerSecond = 0.0
  /// recover over hashcat (the mean of its two runs); the issue's goal is ≥ 1.1.
  var recoverVsHashcat: Double?
  /// recover over the kernel (goal ≥ 0.95), and what is lost between them, in per cent.
  var recoverVsKernel = 0.0
  var overheadPercent = 0.0
}

private func say(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

/// Runs `executable` with `arguments`; its exit status, stdout and the wall time in ms.
private func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil)
  -> (status: Int32, output: String, ms: Double)?
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = environment }
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  let start = now(CLOCK_MONOTONIC)
  guard (try? process.run()) != nil else { return nil }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: data, as: UTF8.self), now(CLOCK_MONOTONIC) - start
  )
}

/// `count` random twelve-word phrases.
private func randomPhrases(_ count: Int) -> [String] {
  let words = Wordlist.named(.english).words
  var generator = SystemRandomNumberGenerator()
  return (0..<count).map { _ in
    (0..<12).map { _ in words[Int.random(in: 0..<words.count, using: &generator)] }
      .joined(separator: " ")
  }
}

/// hashcat -m 12100 on the CPU over `phrases` random phrases, or nil without hashcat.
private func hashcat(_ directory: String, phrases: Int) -> Double? {
  // The seed of a phrase none of the candidates is (another published test phrase).
  let seed = PBKDF2.hmacSHA512(
    password: SecureBytes(
      utf8: "legal winner thank year wave sausage worth useful legal winner thank yellow"),
    salt: SecureBytes(utf8: "mnemonic"), iterations: 2048, keyByteCount: 64)
  let hash =
    "sha512:2048:\(Data("mnemonic".utf8).base64EncodedString()):"
    + seed.withUnsafeBytes { Data($0).base64EncodedString() }
  return hashcat(directory, mode: "12100", hash: hash, candidates: randomPhrases(phrases))
}

/// hashcat in `mode` on the CPU, `hash` against `candidates`: the median of the speeds its
/// JSON status lines report once it runs (H/s, all devices), or nil without hashcat.
private func hashcat(_ directory: String, mode: String, hash: String, candidates: [String])
  -> Double?
{
  guard
    let hashcat = ["/usr/bin/hashcat", "/usr/local/bin/hashcat"].first(where: {
      FileManager.default.isExecutableFile(atPath: $0)
    })
  else { return nil }
  _ = FileManager.default.createFile(
    atPath: directory + "/hash", contents: Data((hash + "\n").utf8))
  _ = FileManager.default.createFile(
    atPath: directory + "/candidates",
    contents: Data((candidates.joined(separator: "\n") + "\n").utf8))
  guard
    let result = run(
      hashcat,
      [
        "-m", mode, "-a", "0", "-D", "1", "-w", "3", "--potfile-disable", "--force",
        "--session", "freedom-keys-bench-\(getpid())", "--status", "--status-json",
        "--status-timer", "5", directory + "/hash", directory + "/candidates",
      ])
  else { return nil }
  // Exit 1: exhausted, as intended (no candidate is the phrase).
  let speeds = result.output.split(separator: "\n").compactMap { line -> Double? in
    guard line.hasPrefix("{"),
      let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let devices = json["devices"] as? [[String: Any]]
    else { return nil }
    let speed = devices.compactMap { ($0["speed"] as? NSNumber)?.doubleValue }.reduce(0, +)
    return speed > 0 ? speed : nil
  }.sorted()
  return speeds.isEmpty ? nil : speeds[speeds.count / 2]
}

/// Our batch kernel on every core at once for about `seconds`: seeds per second (wall).
private func kernelOnAllCores(seconds: Double) -> Double {
  let cores = ProcessInfo.processInfo.activeProcessorCount
  let batch = PBKDF2SHA512Batch.preferredBatchSize
  let phrases = [SecureBytes](repeating: SecureBytes(utf8: mnemonic), count: batch)
  let salt = SecureBytes(utf8: "mnemonic")
  let done = Mutex(0)
  let start = now(CLOCK_MONOTONIC)
  DispatchQueue.concurrentPerform(iterations: cores) { _ in
    while now(CLOCK_MONOTONIC) - start < seconds * 1000 {
      _ = PBKDF2SHA512Batch.deriveBIP39Seeds(mnemonics: phrases, salt: salt, iterations: 2048)
      done.withLock { $0 += batch }
    }
  }
  let wall = now(CLOCK_MONOTONIC) - start
  return Double(done.withLock { $0 }) * 1000 / wall
}

@MainActor func aheadOfHashcat() throws {
  let name = "ahead of hashcat: one-key search, 12 words, 2 unknown"
  if let filter, !name.contains(filter) { return }
  guard let binary = freedomKeysBinary() else { return }
  let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
  let vector =
    flags.contains(" avx512f") ? "AVX-512" : flags.contains(" avx2") ? "AVX2" : "neither"
  var result = AheadOfHashcatReport(
    vectorEngine: vector, seedEngine: PBKDF2SHA512Batch.engine.description)
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("freedom-keys-bench-hashcat-\(getpid())").path
  try FileManager.default.createDirectory(
    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  defer { try? FileManager.default.removeItem(atPath: directory) }

  if let speed = hashcat(directory, phrases: 60_000) { result.hashcatHashesPerSecond.append(speed) }
  result.kernelSeedsPerSecond = kernelOnAllCores(seconds: 10)

  let shards = max(
    1, Int(ProcessInfo.processInfo.environment["FREEDOM_KEYS_BENCH_RECOVER_SHARDS"] ?? "") ?? 1)
  var words = mnemonic.split(separator: " ").map(String.init)
  (words[2], words[6]) = ("?", "?")
  let file = directory + "/words"
  _ = FileManager.default.createFile(
    atPath: file, contents: Data((words.joined(separator: " ") + "\n").utf8),
    attributes: [.posixPermissions: 0o600])
  let other = try FreedomProfile(seed: SecureBytes([UInt8](repeating: 7, count: 64)))
  let arguments = [
    "recover", "--mnemonic-file", file, "--peer-id", other.ipfs.peerID.base58, "--typos", "0",
    "--shard", "1/\(shards)", "--json",
  ]
  if let recover = run(binary, arguments), recover.status == 4,
    let json = try? JSONSerialization.jsonObject(with: Data(recover.output.utf8)) as? [String: Any],
    let valid = (json["checksumValid"] as? NSNumber)?.doubleValue
  {
    result.recoverCandidatesPerSecond = valid * 1000 / recover.ms
  } else {
    say("\(name): recover failed")
  }
  if let speed = hashcat(directory, phrases: 60_000) { result.hashcatHashesPerSecond.append(speed) }

  result.recoverVsKernel = result.recoverCandidatesPerSecond / result.kernelSeedsPerSecond
  result.overheadPercent = 100 * (1 - result.recoverVsKernel)
  let hashcatMean =
    result.hashcatHashesPerSecond.isEmpty
    ? nil : result.hashcatHashesPerSecond.reduce(0, +) / Double(result.hashcatHashesPerSecond.count)
  result.recoverVsHashcat = hashcatMean.map { result.recoverCandidatesPerSecond / $0 }
  say(
    "\(name) (\(vector), \(result.seedEngine)): recover "
      + String(format: "%.0f", result.recoverCandidatesPerSecond) + "/s, kernel "
      + String(format: "%.0f", result.kernelSeedsPerSecond) + "/s (overhead "
      + String(format: "%.1f", result.overheadPercent) + " %), hashcat "
      + (result.hashcatHashesPerSecond.map { String(format: "%.0f", $0) }.joined(separator: " / ")
        .nonEmpty ?? "not installed") + " H/s"
      + (result.recoverVsHashcat.map { String(format: " → %.2f× hashcat", $0) } ?? ""))
  report.aheadOfHashcat = result
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

/// A desktop vault's key (PBKDF2-HMAC-SHA256, 900,000 iterations, the vault's 32-byte salt)
/// against hashcat -m 10900 on the CPU and hashlib on every core, in one run (issue 27).
struct VaultAgainstHashcatReport: Encodable {
  let vectorEngine: String
  let engine: String
  /// Passwords per second on every core, wall clock.
  var ours = 0.0
  /// The same on libIPSec_MB's fastest HMAC-SHA256 manager (its burst API, one lane a
  /// password), and ours over it.
  var ipsec: Double?
  var oursVsIPSec: Double?
  var hashcatHashesPerSecond: Double?
  var hashlib: Double?
  var oursVsHashcat: Double?
  var oursVsHashlib: Double?
}

@MainActor func vaultAgainstHashcat() throws {
  let name = "vault against hashcat: PBKDF2-HMAC-SHA256, 900,000 iterations"
  if let filter, !name.contains(filter) { return }
  let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
  let vector =
    flags.contains(" avx512f") ? "AVX-512" : flags.contains(" avx2") ? "AVX2" : "neither"
  var result = VaultAgainstHashcatReport(
    vectorEngine: vector, engine: PBKDF2SHA256Batch.engine.description)
  let iterations = 900_000
  let salt = Array("0123456789abcdef0123456789abcdef".utf8)
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("freedom-keys-bench-vault-\(getpid())").path
  try FileManager.default.createDirectory(
    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  defer { try? FileManager.default.removeItem(atPath: directory) }

  // Ours: a batch on every core at once, wall clock.
  let cores = ProcessInfo.processInfo.activeProcessorCount
  let batch = PBKDF2SHA256Batch.preferredBatchSize
  let done = Mutex(0)
  let start = now(CLOCK_MONOTONIC)
  DispatchQueue.concurrentPerform(iterations: cores) { core in
    let passwords = (0..<batch).map { SecureBytes(utf8: "password \(core) \($0)") }
    let salts = [SecureBytes](repeating: SecureBytes(salt), count: batch)
    _ = PBKDF2SHA256Batch.deriveKeys(passwords: passwords, salts: salts, iterations: iterations)
    done.withLock { $0 += batch }
  }
  result.ours = Double(done.withLock { $0 }) * 1000 / (now(CLOCK_MONOTONIC) - start)
  result.ipsec = vaultRate(cores: cores, iterations: iterations, salt: salt) { passwords, salts in
    for engine in [PBKDF2SHA512Batch.Engine.multiBufferAVX512, .multiBufferAVX2] {
      if PBKDF2SHA256Batch.deriveKeys(
        passwords: passwords, salts: salts, iterations: iterations, engine: engine) != nil
      {
        return true
      }
    }
    return false
  }
  result.oursVsIPSec = result.ipsec.map { result.ours / $0 }

  let key = PBKDF2.hmacSHA256(
    password: SecureBytes(utf8: "not one of the candidates"), salt: SecureBytes(salt),
    iterations: iterations, keyByteCount: 32)
  let hash =
    "sha256:\(iterations):\(Data(salt).base64EncodedString()):"
    + key.withUnsafeBytes { Data($0).base64EncodedString() }
  result.hashcatHashesPerSecond = hashcat(
    directory, mode: "10900", hash: hash,
    candidates: (0..<400).map { "candidate password \($0)" })

  // hashlib on every core (btcrecover's path): one process a core.
  let saltText = String(decoding: salt, as: UTF8.self)
  let script = """
    import hashlib, time
    t = time.monotonic()
    for i in range(4): hashlib.pbkdf2_hmac('sha256', b'p%d' % i, b'\(saltText)', \(iterations))
    print(4 / (time.monotonic() - t))
    """
  result.hashlib = pythonSum(script, processes: cores)
  result.oursVsHashcat = result.hashcatHashesPerSecond.map { result.ours / $0 }
  result.oursVsHashlib = result.hashlib.map { result.ours / $0 }
  say(
    "\(name) (\(vector), \(result.engine)): ours "
      + String(format: "%.1f", result.ours) + "/s on \(cores) cores, hashcat "
      + (result.hashcatHashesPerSecond.map { String(format: "%.1f H/s", $0) } ?? "not installed")
      + ", hashlib " + (result.hashlib.map { String(format: "%.1f/s", $0) } ?? "?")
      + ", libIPSec_MB " + (result.ipsec.map { String(format: "%.1f/s", $0) } ?? "not loaded")
      + (result.oursVsHashcat.map { String(format: " → %.2f× hashcat", $0) } ?? ""))
  report.vaultAgainstHashcat = result
}

/// Passwords per second on every core at once (wall clock) for one batch a core through
/// `derive`, or nil when it says its engine is not available.
private func vaultRate(
  cores: Int, iterations: Int, salt: [UInt8],
  derive: @Sendable ([SecureBytes], [SecureBytes]) -> Bool
) -> Double? {
  let batch = 32
  let done = Mutex(0)
  let available = Mutex(true)
  let start = now(CLOCK_MONOTONIC)
  DispatchQueue.concurrentPerform(iterations: cores) { core in
    let passwords = (0..<batch).map { SecureBytes(utf8: "password \(core) \($0)") }
    let salts = [SecureBytes](repeating: SecureBytes(salt), count: batch)
    if derive(passwords, salts) {
      done.withLock { $0 += batch }
    } else {
      available.withLock { $0 = false }
    }
  }
  let wall = now(CLOCK_MONOTONIC) - start
  return available.withLock { $0 } ? Double(done.withLock { $0 }) * 1000 / wall : nil
}

// Median timings of the expensive derivations, printed as JSON on stdout.
//
//   swift run -c release freedom-keys-bench [name-filter]
//
// Each case is one `measure(name, iterations:) { … }` line: the body runs once to warm up, then
// `iterations` times, each sample timed alone. Medians resist other work on a shared machine;
// thread CPU time (medianCpuMs) is reported beside wall time because it hardly moves when other
// processes compete for the cores. Only published test inputs (the abandon…about mnemonic) are used.

import CryptoPrimitives
import Foundation
import VaultKeys

struct CaseResult: Encodable {
  let name: String
  let iterations: Int
  let medianMs: Double
  let medianCpuMs: Double
  let minMs: Double
  let maxMs: Double
}

struct PythonResult: Encodable {
  let name: String
  let iterations: Int
  let medianMs: Double
  let medianCpuMs: Double
}

struct Report: Encodable {
  let machine: [String: String]
  var cases: [CaseResult] = []
  var python: PythonResult?
  /// Our mnemonic→seed median over Python's hashlib median, wall and CPU time (below 1 is faster).
  var mnemonicToSeedVsPython: [String: Double]?
  /// The whole profile (mnemonic → every identity) over mnemonic → seed alone (target ≤ 1.3).
  var wholeProfileVsSeed: Double?
  /// `export bee` as a whole process over the bare libsodium scrypt call (in process it was
  /// ≤ 1.1; the process adds its start and the reading of its files).
  var exportBeeVsScrypt: Double?
  var peakRSSKiB: Int?
  /// `recover`'s kernels: seeds and addresses per second per core (RecoverKernels.swift).
  var recoverKernels: RecoverKernelReport?
  /// `recover` as a whole, ×hashlib, on every engine (RecoverEndToEnd.swift).
  var recoverEndToEnd: RecoverEndToEndReport?
  /// `recover --order-lost` against the damage search, one key (RecoverOrderLost.swift).
  var recoverOrderLost: RecoverOrderLostReport?
  var aheadOfHashcat: AheadOfHashcatReport?
  var vaultAgainstHashcat: VaultAgainstHashcatReport?
  var keystoreScrypt: KeystoreScryptReport?
  /// `derive --json` as a whole process against a static-stdlib floor (WholeProcess.swift).
  var wholeProcess: WholeProcessResult?
  /// `recover`'s peak RSS against the parts of its search (RecoverMemory.swift).
  var recoverMemory: [RecoverMemoryPoint]?
  /// `recover password` over a token list (streamed) against a candidates file (held).
  var passwordStreaming: PasswordStreamingReport?
  var candidateFileStreaming: CandidateFileStreamingReport?
}

let filter = CommandLine.arguments.dropFirst().first
var report = Report(machine: [
  "cores": String(ProcessInfo.processInfo.activeProcessorCount),
  "loadAverageAtStart": (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
    .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown",
])

/// Times `body` `iterations` times after one warm-up run and records the medians in milliseconds.
@MainActor func measure(_ name: String, iterations: Int, _ body: () throws -> Void) rethrows {
  if let filter, !name.contains(filter) { return }
  try body()
  var wall: [Double] = []
  var cpu: [Double] = []
  for _ in 0..<iterations {
    let (wall0, cpu0) = (now(CLOCK_MONOTONIC), now(CLOCK_THREAD_CPUTIME_ID))
    try body()
    let (wall1, cpu1) = (now(CLOCK_MONOTONIC), now(CLOCK_THREAD_CPUTIME_ID))
    wall.append(wall1 - wall0)
    cpu.append(cpu1 - cpu0)
  }
  wall.sort()
  cpu.sort()
  report.cases.append(
    CaseResult(
      name: name, iterations: iterations, medianMs: median(wall), medianCpuMs: median(cpu),
      minMs: wall.first ?? 0, maxMs: wall.last ?? 0))
  FileHandle.standardError.write(Data("\(name): \(median(wall)) ms (CPU \(median(cpu)) ms)\n".utf8))
}

/// Times a whole freedom-keys process `iterations` times after one warm-up run: wall time, and
/// the child's CPU time (user + system). `arguments` gives each run's; its exit status must be
/// one the command documents (0, or 3 for a `verify` that found a mismatch).
@MainActor func measureCommand(
  _ name: String, iterations: Int, binary: String, _ arguments: () -> [String]
) {
  if let filter, !name.contains(filter) { return }
  var wall: [Double] = []
  var cpu: [Double] = []
  for iteration in 0...iterations {
    guard let run = runQuietly(binary, arguments()), run.status == 0 || run.status == 3 else {
      FileHandle.standardError.write(Data("\(name): skipped, the tool failed\n".utf8))
      return
    }
    if iteration > 0 {
      wall.append(run.wallMs)
      cpu.append(run.cpuMs)
    }
  }
  wall.sort()
  cpu.sort()
  report.cases.append(
    CaseResult(
      name: name, iterations: iterations, medianMs: median(wall), medianCpuMs: median(cpu),
      minMs: wall.first ?? 0, maxMs: wall.last ?? 0))
  FileHandle.standardError.write(Data("\(name): \(median(wall)) ms (CPU \(median(cpu)) ms)\n".utf8))
}

/// Milliseconds on `clock`.
func now(_ clock: clockid_t) -> Double {
  var time = timespec()
  clock_gettime(clock, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) * 1e-6
}

func median(_ sorted: [Double]) -> Double {
  guard !sorted.isEmpty else { return 0 }
  let mid = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Stops the run if a release build computes a wrong value: a fast wrong answer is no result.
func check(_ name: String, _ actual: String, _ expected: String) {
  guard actual == expected else {
    FileHandle.standardError.write(Data("self-check failed: \(name)\n".utf8))
    exit(1)
  }
}

/// Peak resident set size of this process (VmHWM), in KiB.
func peakRSSKiB() -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return nil
  }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
  }
  return nil
}

let mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
let phrase = SecureBytes(utf8: mnemonic)
let password = SecureBytes(utf8: "correct horse battery staple")
let salt = [UInt8](repeating: 0x5a, count: 32)

/// Keeps a result observable so no measured call can be optimised away.
nonisolated(unsafe) var sink = 0
func keep(_ result: SecureBytes) { sink &+= result.count }

// MARK: - Workloads

/// BIP-39 mnemonic→seed through VaultKeys: parse, checksum, NFKD, PBKDF2.
func bip39Seed() -> SecureBytes {
  try! Mnemonic(phrase: phrase).seed()
}
let seed = bip39Seed()
let master = try ExtendedPrivateKey(seed: seed)
let ed25519Master = SLIP10Ed25519Key(seed: seed)
func vaultKey() -> SecureBytes {
  PBKDF2.hmacSHA256(password: password, salt: salt, iterations: 900_000, keyByteCount: 32)
}
func scryptKey() throws -> SecureBytes {
  try Scrypt.deriveKey(password: password, salt: salt, n: 1 << 15, r: 8, p: 1, keyByteCount: 32)
}

check(
  "BIP-39 seed of abandon…about", bip39Seed().revealHex(),
  "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1"
    + "9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4")
check(
  "RFC 7914 PBKDF2-HMAC-SHA256 c=80000",
  PBKDF2.hmacSHA256(
    password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, keyByteCount: 64
  ).revealHex(),
  "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
    + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")

// MARK: - Cases (one line each)

measure("mnemonic→seed (PBKDF2-HMAC-SHA512, 2048)", iterations: 300) { keep(bip39Seed()) }
measure("PBKDF2-HMAC-SHA256, 900000 (desktop vault)", iterations: 9) { keep(vaultKey()) }
try measure("scrypt N=2^15 r=8 p=1 (libsodium)", iterations: 15) { keep(try scryptKey()) }
try measure("BIP-32 path m/44'/60'/0'/0/1 from the master", iterations: 2000) {
  keep(try master.derive(FreedomProfile.swarmPath).privateKey.rawRepresentation)
}
try measure("SLIP-0010 path m/44'/73405'/0'/0'/0' from the master", iterations: 2000) {
  keep(try ed25519Master.derive(FreedomProfile.ipfsPath).privateKey.rawRepresentation)
}
try measure("whole profile from the seed (masters, 4 identities)", iterations: 1000) {
  keep(try FreedomProfile(seed: seed).swarm.privateKey.rawRepresentation)
}
try measure("whole profile from the mnemonic", iterations: 300) {
  keep(try FreedomProfile(mnemonic: Mnemonic(phrase: phrase)).seed)
}
// `freedom-keys export bee` as a whole process: mnemonic → Swarm key → bee keystore (scrypt
// N=2^15, AES-128-CTR, Keccak MAC) → keys/swarm.key written atomically, in a new directory each
// run. The node engine is the package's own (`package` access), so the benchmark runs the tool.
let exportDirectory = FileManager.default.temporaryDirectory
  .appendingPathComponent("freedom-keys-bench-\(getpid())").path
if let binary = freedomKeysBinary() {
  try? FileManager.default.createDirectory(
    atPath: exportDirectory, withIntermediateDirectories: true)
  let phraseFile = exportDirectory + "/abandon-about.txt"
  let passwordFile = exportDirectory + "/password"
  for (file, text) in [(phraseFile, mnemonic), (passwordFile, "correct horse battery staple")] {
    _ = FileManager.default.createFile(
      atPath: file, contents: Data((text + "\n").utf8), attributes: [.posixPermissions: 0o600])
  }
  var run = 0
  measureCommand(
    "export bee: mnemonic → keys/swarm.key (N=2^15, whole process)", iterations: 15,
    binary: binary
  ) {
    run += 1
    return [
      "export", "bee", "--data-dir", exportDirectory + "/bee-\(run)", "--mnemonic-file",
      phraseFile,
      "--password-file", passwordFile,
    ]
  }
  // `verify --freedom-dir` of an app root whose profile-registry.json is at the 4 MiB limit
  // (issue 26 item 7: quadratic in the profiles before, 60k of them took 42 s).
  let registryDirectory = exportDirectory + "/registry"
  let registryProfiles = writeRegistryAtTheLimit(in: registryDirectory)
  measureCommand(
    "verify --freedom-dir, registry at the 4 MiB limit (\(registryProfiles) profiles, whole process)",
    iterations: 5, binary: binary
  ) {
    ["verify", "--mnemonic-file", phraseFile, "--freedom-dir", registryDirectory]
  }
}
try? FileManager.default.removeItem(atPath: exportDirectory)
if let scryptCase = report.cases.first(where: { $0.name.hasPrefix("scrypt") }),
  let exportCase = report.cases.first(where: { $0.name.hasPrefix("export bee") })
{
  report.exportBeeVsScrypt = exportCase.medianMs / scryptCase.medianMs
}
if let seedCase = report.cases.first(where: { $0.name.hasPrefix("mnemonic→seed") }),
  let profileCase = report.cases.first(where: { $0.name == "whole profile from the mnemonic" })
{
  report.wholeProfileVsSeed = profileCase.medianMs / seedCase.medianMs
}

// MARK: - Python reference, measured in the same run

let pythonIterations = 300
if filter.map({ "mnemonic→seed".contains($0) }) ?? true,
  let python = pythonNumbers(
    """
    import hashlib, statistics, time, timeit
    f = lambda: hashlib.pbkdf2_hmac('sha512', b'\(mnemonic)', b'mnemonic', 2048)
    f()
    for timer in (time.perf_counter, time.thread_time):
        print(statistics.median(timeit.repeat(f, timer=timer, number=1, repeat=\(pythonIterations))) * 1000)
    """), python.count == 2
{
  report.python = PythonResult(
    name: "python3 hashlib.pbkdf2_hmac('sha512', phrase, b'mnemonic', 2048)",
    iterations: pythonIterations, medianMs: python[0], medianCpuMs: python[1])
  if let ours = report.cases.first(where: { $0.name.hasPrefix("mnemonic→seed") }) {
    report.mnemonicToSeedVsPython = [
      "wall": ours.medianMs / python[0], "cpu": ours.medianCpuMs / python[1],
    ]
  }
}

// MARK: - recover, end to end

// MARK: - recover, end to end (RecoverEndToEnd.swift)

try recoverEndToEnd()
try recoverOrderLost()
try aheadOfHashcat()
try vaultAgainstHashcat()
try keystoreScryptAgainstLibsodium()
try measureRecoverKernels()
if filter.map({ "whole process".contains($0) }) ?? true {
  report.wholeProcess = measureWholeProcess()
}

if filter.map({ "recover memory: peak RSS against the parts".contains($0) }) ?? true {
  report.recoverMemory = measureRecoverMemory()
}
report.passwordStreaming = measurePasswordStreaming()
report.candidateFileStreaming = measureCandidateFileStreaming()
report.peakRSSKiB = peakRSSKiB()
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
FileHandle.standardOutput.write(try encoder.encode(report) + Data("\n".utf8))

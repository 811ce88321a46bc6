// `freedom-keys recover` end to end, side by side in one run (issue 18, item 7): bare PBKDF2 of
// Python's hashlib on 2 processes, then the release binary on 2 threads against targets that
// match nothing (one key, `--address --accounts 1`, the default `--address`), on the default
// seed engine, the AVX2 manager (FREEDOM_KEYS_MULTIBUFFER=avx2) and single-stream
// (FREEDOM_KEYS_MULTIBUFFER=off). Each rate is given as ×hashlib (above 1 is faster), against
// hashlib measured just before and just after that run, from wall time and from CPU time (CPU time hardly moves when other processes share the cores), with the
// secp256k1 public keys each candidate cost (recover's first line) against the fewest its
// targets need.
//
// The phrase is abandon … about with words 3 and 7 unknown: 2048² candidates, 262,144
// checksum-valid. FREEDOM_KEYS_BENCH_RECOVER_SHARDS=N searches shard 1/N of it (default 8; 1 is
// the whole space, as FREEDOM_KEYS_BENCH_RECOVER_FULL=1; 256 is a quick check of ~1,000
// candidates a run).

import CryptoPrimitives
import Foundation
import VaultKeys

struct RecoverEndToEndReport: Encodable {
  struct Run: Encodable {
    let target: String
    let checksumValid: Int
    let msPerCandidate: Double
    let cpuMsPerCandidate: Double
    /// hashlib's time per seed (2 processes), measured just before and just after this run
    /// (the mean), over ours per candidate (2 threads): wall, CPU.
    var hashlibMsPerSeed = 0.0
    var hashlibCpuMsPerSeed = 0.0
    var timesHashlib = 0.0
    var timesHashlibCPU = 0.0
    /// Per candidate, from recover's first line.
    let publicKeysPerCandidate: Double?
    let fewestPublicKeys: Int?
  }
  struct Engine: Encodable {
    /// FREEDOM_KEYS_MULTIBUFFER for these runs (nil: unset).
    let environment: String?
    /// What recover's first line named.
    let engine: String
    var runs: [Run] = []
  }
  let space: String
  /// hashlib.pbkdf2_hmac('sha512', …, 2048) on 2 processes: ms per seed, wall and CPU (the
  /// mean of the measurements between our runs; each run's ratio uses the two beside it, as
  /// hashlib's own speed drifts by ±15% over a few minutes on a shared machine).
  var hashlibMsPerSeed = 0.0
  var hashlibCpuMsPerSeed = 0.0
  var engines: [Engine] = []
  /// The targets of issue 18 (one key ≥ 4, accounts 1 ≥ 3, default ≥ 2 ×hashlib).
  let goals = ["--peer-id (one key)": 4.0, "--address --accounts 1": 3.0, "--address": 2.0]
}

private func say(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

/// hashlib's PBKDF2 on two processes at once: ms per seed of the pair (wall) and of one (CPU).
private func hashlibOnTwoProcesses(seeds: Int) -> (wall: Double, cpu: Double)? {
  let script = """
    import hashlib, time
    p = b'\(mnemonic)'
    hashlib.pbkdf2_hmac('sha512', p, b'mnemonic', 2048)
    t = time.process_time()
    for _ in range(\(seeds)): hashlib.pbkdf2_hmac('sha512', p, b'mnemonic', 2048)
    print(time.process_time() - t)
    """
  var before = rusage()
  getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &before)
  let wall0 = now(CLOCK_MONOTONIC)
  guard let seconds = pythonSum(script, processes: 2) else { return nil }
  let cpu = seconds * 1000
  let wall = now(CLOCK_MONOTONIC) - wall0
  return (wall / Double(2 * seeds), cpu / Double(2 * seeds))
}

@MainActor func recoverEndToEnd() throws {
  let name = "recover end to end: 12 words, 2 unknown, 2 threads"
  if let filter, !name.contains(filter) { return }
  guard let binary = freedomKeysBinary() else { return }
  let environment = ProcessInfo.processInfo.environment
  let shards =
    environment["FREEDOM_KEYS_BENCH_RECOVER_FULL"] == "1"
    ? 1 : max(1, Int(environment["FREEDOM_KEYS_BENCH_RECOVER_SHARDS"] ?? "") ?? 8)
  var words = mnemonic.split(separator: " ").map(String.init)
  (words[2], words[6]) = ("?", "?")
  let file = FileManager.default.temporaryDirectory
    .appendingPathComponent("freedom-keys-bench-recover-\(getpid())").path
  _ = FileManager.default.createFile(
    atPath: file, contents: Data((words.joined(separator: " ") + "\n").utf8),
    attributes: [.posixPermissions: 0o600])
  defer { try? FileManager.default.removeItem(atPath: file) }
  let other = try FreedomProfile(seed: SecureBytes([UInt8](repeating: 7, count: 64)))
  let targets: [(String, [String])] = [
    ("--peer-id (one key)", ["--peer-id", other.ipfs.peerID.base58]),
    ("--address --accounts 1", ["--address", other.swarm.address.checksummed, "--accounts", "1"]),
    ("--address", ["--address", other.swarm.address.checksummed]),
  ]

  // About as many seeds as one run of ours derives on a thread, at least 100.
  let hashlibSeeds = max(100, min(2000, 262_144 / shards / 2))
  guard let first = hashlibOnTwoProcesses(seeds: hashlibSeeds) else {
    say("\(name): skipped, python3 is needed for the hashlib reference")
    return
  }
  var hashlib = [first]
  var result = RecoverEndToEndReport(
    space: "2048² candidates (262,144 checksum-valid), shard 1/\(shards)")

  var seen: Set<String> = []
  for setting in [nil, "avx2", "off"] as [String?] {
    var engine: RecoverEndToEndReport.Engine?
    for (label, target) in targets {
      let arguments =
        ["recover", "--mnemonic-file", file, "--threads", "2", "--shard", "1/\(shards)", "--json"]
        + target
      var before = rusage()
      getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &before)
      let wall0 = now(CLOCK_MONOTONIC)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = arguments
      var childEnvironment = environment
      childEnvironment["FREEDOM_KEYS_MULTIBUFFER"] = setting
      process.environment = childEnvironment
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      let errorText = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let wall = now(CLOCK_MONOTONIC) - wall0
      var after = rusage()
      getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &after)
      // Exit 4: every candidate searched, none matched, as intended.
      guard process.terminationStatus == 4,
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let valid = (json["checksumValid"] as? NSNumber)?.doubleValue, valid > 0
      else {
        say("\(name) \(label): recover failed")
        continue
      }
      // "engine: multi-buffer AVX-512 (libIPSec_MB 1.3.0); per candidate 20 secp256k1 public
      // keys (the fewest these targets need: 20), …"
      let line = errorText.split(separator: "\n").first.map(String.init) ?? ""
      let engineName =
        line.hasPrefix("engine: ")
        ? String(line.dropFirst(8).prefix { $0 != ";" }) : "?"
      if engine == nil {
        // The same engine twice (AVX2 forced where it is the default already) is measured once.
        if seen.contains(engineName) { break }
        seen.insert(engineName)
        engine = .init(environment: setting, engine: engineName)
      }
      func number(after marker: String, upTo end: String) -> Double? {
        guard let start = line.range(of: marker)?.upperBound else { return nil }
        return Double(line[start...].prefix { !end.contains($0) })
      }
      func milliseconds(_ time: timeval) -> Double {
        Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000
      }
      let cpu =
        milliseconds(after.ru_utime) + milliseconds(after.ru_stime)
        - milliseconds(before.ru_utime) - milliseconds(before.ru_stime)
      // Two threads against two processes: wall per candidate against wall per seed of the
      // pair; CPU per candidate against CPU per seed.
      let previous = hashlib[hashlib.count - 1]
      let next = hashlibOnTwoProcesses(seeds: hashlibSeeds) ?? previous
      hashlib.append(next)
      var run = RecoverEndToEndReport.Run(
        target: label, checksumValid: Int(valid), msPerCandidate: wall / valid,
        cpuMsPerCandidate: cpu / valid,
        publicKeysPerCandidate: number(after: "per candidate ", upTo: " "),
        fewestPublicKeys: number(after: "need: ", upTo: ")").map { Int($0) })
      run.hashlibMsPerSeed = (previous.wall + next.wall) / 2
      run.hashlibCpuMsPerSeed = (previous.cpu + next.cpu) / 2
      run.timesHashlib = run.hashlibMsPerSeed / run.msPerCandidate
      run.timesHashlibCPU = run.hashlibCpuMsPerSeed / run.cpuMsPerCandidate
      engine?.runs.append(run)
      say(
        "\(name), \(engineName), \(label): \(Int(valid)) candidates in \(Int(wall)) ms"
          + String(
            format: " (%.3f ms each, CPU %.3f ms)", run.msPerCandidate, run.cpuMsPerCandidate)
          + ", \(run.publicKeysPerCandidate.map { String($0) } ?? "?") public keys a candidate "
          + "(fewest \(run.fewestPublicKeys.map { String($0) } ?? "?"))")
    }
    if let engine { result.engines.append(engine) }
  }
  result.hashlibMsPerSeed = hashlib.map(\.wall).reduce(0, +) / Double(hashlib.count)
  result.hashlibCpuMsPerSeed = hashlib.map(\.cpu).reduce(0, +) / Double(hashlib.count)
  say(
    "\(name): hashlib on 2 processes "
      + String(
        format: "%.3f ms a seed (CPU %.3f ms), from %.3f to %.3f over %d measurements",
        result.hashlibMsPerSeed, result.hashlibCpuMsPerSeed, hashlib.map(\.wall).min() ?? 0,
        hashlib.map(\.wall).max() ?? 0, hashlib.count))
  for engine in result.engines {
    for run in engine.runs {
      say(
        "  \(engine.engine), \(run.target): "
          + String(
            format: "%.2f× hashlib (CPU %.2f×; hashlib beside it %.3f ms a seed)",
            run.timesHashlib, run.timesHashlibCPU, run.hashlibMsPerSeed))
    }
  }
  report.recoverEndToEnd = result
}

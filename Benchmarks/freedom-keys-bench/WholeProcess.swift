// The whole-process comparison: `freedom-keys derive --json` as a user runs it, against the floor
// of any Swift tool, a static-stdlib program that reads the same file and prints it, and against
// the floor of the job, the same program linked with the three crypto libraries that also runs
// BIP-39's 2048 PBKDF2 rounds (OpenSSL's PKCS5_PBKDF2_HMAC) and prints the seed. All are
// started by a tiny C launcher (vfork + exec + wait4), so each sample's CPU time and peak RSS
// are the child's own (a Swift launcher would lend the child its own resident pages through
// fork's accounting). Rounds alternate between the two so load on the machine hits both alike.

import Foundation

struct WholeProcessResult: Encodable {
  struct Sample: Encodable {
    let medianCpuMs: Double
    let medianPeakRSSKiB: Int
  }
  let command: String
  let floorProgram: String
  let samplesEach: Int
  let derive: Sample
  let floor: Sample
  let jobFloorProgram: String
  let jobFloor: Sample
  /// derive over the floor (target ≤ 1.5 for both).
  let cpuVsFloor: Double
  let peakRSSVsFloor: Double
  /// derive over the floor of the job (what no BIP-39 tool can go below).
  let cpuVsJobFloor: Double
  let peakRSSVsJobFloor: Double
  let binary: String
  let binaryBytes: Int
  /// Whether the binary loads the Swift runtime as a shared library (false when built with
  /// --static-swift-stdlib).
  let binaryLinksSharedSwiftRuntime: Bool
}

private let launcherSource = """
  #include <fcntl.h>
  #include <stdio.h>
  #include <stdlib.h>
  #include <sys/resource.h>
  #include <sys/wait.h>
  #include <unistd.h>
  int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int runs = atoi(argv[1]);
    for (int i = 0; i < runs; i++) {
      pid_t pid = vfork();
      if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execv(argv[2], argv + 2);
        _exit(127);
      }
      int status;
      struct rusage usage;
      if (wait4(pid, &status, 0, &usage) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 1;
      long cpu = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L
        + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
      printf("%ld %ld\\n", cpu, usage.ru_maxrss);
    }
    return 0;
  }
  """

/// The floor: read the file named by the first argument and print it.
private let floorSource = """
  import Glibc
  let descriptor = open(CommandLine.arguments[1], O_RDONLY)
  var buffer = [UInt8](repeating: 0, count: 4096)
  let count = read(descriptor, &buffer, buffer.count)
  print(String(decoding: buffer[0..<max(count, 0)], as: UTF8.self))
  """

/// The floor of the job: the libraries loaded, the seed derived (2048 rounds of
/// PBKDF2-HMAC-SHA512, salt "mnemonic") the fastest plain way, two SHA-512 blocks a round with
/// the HMAC pads hashed once (OpenSSL's own PKCS5_PBKDF2_HMAC is slower: its EVP layer and
/// provider start-up cost more than our whole derive), its hex printed.
private let jobFloorSource = """
  import Glibc
  let descriptor = open(CommandLine.arguments[1], O_RDONLY)
  var buffer = [UInt8](repeating: 0, count: 4096)
  var phrase = Array(buffer[0..<max(read(descriptor, &buffer, buffer.count), 0)])
  while let last = phrase.last, last == 0x0A || last == 0x0D || last == 0x20 { phrase.removeLast() }
  guard sodium_init() >= 0, let context = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE)),
    phrase.count <= 128
  else { exit(1) }
  var inner = SHA512_CTX(), outer = SHA512_CTX()
  SHA512_Init(&inner)
  SHA512_Init(&outer)
  let key = phrase + [UInt8](repeating: 0, count: 128 - phrase.count)
  SHA512_Update(&inner, key.map { $0 ^ 0x36 }, 128)
  SHA512_Update(&outer, key.map { $0 ^ 0x5C }, 128)
  // One block: a 64-byte message after the 128-byte pad, padded (length 1536 bits).
  var block = [UInt8](repeating: 0, count: 128)
  var first = inner
  SHA512_Update(&first, Array("mnemonic".utf8) + [0, 0, 0, 1], 12)
  SHA512_Final(&block, &first)
  block[64] = 0x80
  block[126] = 0x06
  var seed = [UInt8](repeating: 0, count: 64)
  block.withUnsafeMutableBytes { block in
    func compress(_ start: SHA512_CTX) {
      var state = start
      SHA512_Transform(&state, block.baseAddress)
      withUnsafeBytes(of: state.h) { words in
        for k in 0..<8 { block.storeBytes(of: words.load(fromByteOffset: 8 * k, as: UInt64.self).bigEndian, toByteOffset: 8 * k, as: UInt64.self) }
      }
    }
    compress(outer)
    for index in 0..<64 { seed[index] = block[index] }
    for _ in 1..<2048 {
      compress(inner)
      compress(outer)
      for index in 0..<64 { seed[index] ^= block[index] }
    }
  }
  secp256k1_context_destroy(context)
  let digits = Array("0123456789abcdef".utf8)
  print(String(decoding: seed.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self))
  """

private let jobFloorHeader = """
  #include <openssl/sha.h>
  #include <secp256k1.h>
  #include <sodium.h>
  """

/// BIP-39's seed of abandon…about with the empty passphrase (the published test vector).
private let abandonAboutSeed =
  "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1"
  + "9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4"

/// The published test mnemonic the whole-process runs read.
private let abandonAbout =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

/// Runs `executable arguments…` and returns its stdout, or nil if it could not run or failed.
private func output(_ executable: String, _ arguments: [String]) -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch { return nil }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}

/// The first `name` on PATH.
private func onPath(_ name: String) -> String? {
  (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

private func note(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

/// The freedom-keys binary the whole-process cases run: `FREEDOM_KEYS_BINARY`, else the main
/// package's release build (`swift build -c release` in the repository's root); nil, with the
/// reason on stderr, when there is none.
func freedomKeysBinary() -> String? {
  let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  let binary =
    ProcessInfo.processInfo.environment["FREEDOM_KEYS_BINARY"]
    ?? repository + "/.build/release/freedom-keys"
  guard FileManager.default.isExecutableFile(atPath: binary) else {
    note("skipped: no freedom-keys binary at \(binary) (swift build -c release)")
    return nil
  }
  return binary
}

/// Measures the comparison; nil (with the reason on stderr) when a tool or the binary is missing.
/// The binary is `FREEDOM_KEYS_BINARY`, else the main package's release build
/// (`swift build -c release` in the repository's root).
func measureWholeProcess(rounds: Int = 7, runsPerRound: Int = 15) -> WholeProcessResult? {
  guard let binary = freedomKeysBinary() else { return nil }
  guard let swiftc = onPath("swiftc"), let clang = onPath("clang") ?? onPath("cc") else {
    note("whole process: skipped, swiftc and clang (or cc) are needed to build the floor")
    return nil
  }
  let work = FileManager.default.temporaryDirectory
    .appendingPathComponent("freedom-keys-bench-floor-\(getpid())").path
  try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: work) }
  let phraseFile = work + "/abandon-about.txt"
  _ = FileManager.default.createFile(
    atPath: phraseFile, contents: Data((abandonAbout + "\n").utf8),
    attributes: [.posixPermissions: 0o600])
  _ = FileManager.default.createFile(
    atPath: work + "/launcher.c", contents: Data(launcherSource.utf8))
  _ = FileManager.default.createFile(
    atPath: work + "/floor.swift", contents: Data(floorSource.utf8))
  _ = FileManager.default.createFile(
    atPath: work + "/job-floor.swift", contents: Data(jobFloorSource.utf8))
  _ = FileManager.default.createFile(
    atPath: work + "/job-floor.h", contents: Data(jobFloorHeader.utf8))
  guard output(clang, ["-O2", "-o", work + "/launcher", work + "/launcher.c"]) != nil,
    output(swiftc, ["-O", "-static-stdlib", "-o", work + "/floor", work + "/floor.swift"]) != nil,
    output(
      swiftc,
      [
        "-O", "-static-stdlib", "-import-objc-header", work + "/job-floor.h", "-o",
        work + "/job-floor", work + "/job-floor.swift", "-lcrypto", "-lsodium", "-lsecp256k1",
      ]) != nil
  else {
    note("whole process: skipped, the launcher or a floor program did not build")
    return nil
  }
  guard output(work + "/job-floor", [phraseFile])?.hasPrefix(abandonAboutSeed) == true else {
    note("self-check failed: the job floor's seed of abandon…about")
    exit(1)
  }
  let deriveArguments = [binary, "derive", "--json", "--mnemonic-file", phraseFile]
  // A fast wrong answer is no result.
  guard let json = output(binary, Array(deriveArguments.dropFirst())),
    json.contains("0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0")
  else {
    note("self-check failed: derive --json of abandon…about")
    exit(1)
  }

  func samples(_ arguments: [String]) -> [(cpuMs: Double, rssKiB: Int)] {
    guard let text = output(work + "/launcher", [String(runsPerRound)] + arguments) else {
      note("whole process: \(arguments[0]) failed")
      exit(1)
    }
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count == 2, let cpu = Double(fields[0]), let rss = Int(fields[1]) else {
        return nil
      }
      return (cpu / 1000, rss)
    }
  }
  var deriveSamples: [(cpuMs: Double, rssKiB: Int)] = []
  var floorSamples: [(cpuMs: Double, rssKiB: Int)] = []
  var jobFloorSamples: [(cpuMs: Double, rssKiB: Int)] = []
  _ = samples([work + "/floor", phraseFile])  // warm the page cache
  _ = samples([work + "/job-floor", phraseFile])
  _ = samples(deriveArguments)
  for _ in 0..<rounds {
    floorSamples += samples([work + "/floor", phraseFile])
    jobFloorSamples += samples([work + "/job-floor", phraseFile])
    deriveSamples += samples(deriveArguments)
  }
  func summary(_ samples: [(cpuMs: Double, rssKiB: Int)]) -> WholeProcessResult.Sample {
    let rss = samples.map(\.rssKiB).sorted()
    return .init(
      medianCpuMs: median(samples.map(\.cpuMs).sorted()), medianPeakRSSKiB: rss[rss.count / 2])
  }
  let derive = summary(deriveSamples)
  let floor = summary(floorSamples)
  let jobFloor = summary(jobFloorSamples)
  let bytes = (try? Data(contentsOf: URL(fileURLWithPath: binary))) ?? Data()
  note(
    "whole process: derive --json \(derive.medianCpuMs) ms CPU, \(derive.medianPeakRSSKiB) KiB; "
      + "floor \(floor.medianCpuMs) ms, \(floor.medianPeakRSSKiB) KiB; "
      + "job floor \(jobFloor.medianCpuMs) ms, \(jobFloor.medianPeakRSSKiB) KiB")
  return WholeProcessResult(
    command: "freedom-keys derive --json --mnemonic-file FILE",
    floorProgram: "swiftc -O -static-stdlib: read FILE, print it",
    samplesEach: rounds * runsPerRound, derive: derive, floor: floor,
    jobFloorProgram: "swiftc -O -static-stdlib, linked with libcrypto, libsodium, libsecp256k1: "
      + "read FILE, PBKDF2-HMAC-SHA512 × 2048 over OpenSSL's SHA512_Transform, print the seed",
    jobFloor: jobFloor,
    cpuVsFloor: derive.medianCpuMs / floor.medianCpuMs,
    peakRSSVsFloor: Double(derive.medianPeakRSSKiB) / Double(floor.medianPeakRSSKiB),
    cpuVsJobFloor: derive.medianCpuMs / jobFloor.medianCpuMs,
    peakRSSVsJobFloor: Double(derive.medianPeakRSSKiB) / Double(jobFloor.medianPeakRSSKiB),
    binary: binary, binaryBytes: bytes.count,
    binaryLinksSharedSwiftRuntime: bytes.range(of: Data("libswiftCore.so".utf8)) != nil)
}

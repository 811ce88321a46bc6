// The whole-process comparison: `freedom-keys derive --json` as a user runs it, against the floor
// of any Swift tool, a static-stdlib program that reads the same file and prints it. Both are
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
  /// derive over the floor (target ≤ 1.5 for both).
  let cpuVsFloor: Double
  let peakRSSVsFloor: Double
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

/// Measures the comparison; nil (with the reason on stderr) when a tool or the binary is missing.
/// The binary is `FREEDOM_KEYS_BINARY`, else the freedom-keys beside this benchmark
/// (`swift build -c release --static-swift-stdlib` builds both).
func measureWholeProcess(rounds: Int = 7, runsPerRound: Int = 15) -> WholeProcessResult? {
  let benchDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent().path
  let binary =
    ProcessInfo.processInfo.environment["FREEDOM_KEYS_BINARY"] ?? benchDirectory + "/freedom-keys"
  guard FileManager.default.isExecutableFile(atPath: binary) else {
    note("whole process: skipped, no binary at \(binary) (build the freedom-keys product)")
    return nil
  }
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
  guard output(clang, ["-O2", "-o", work + "/launcher", work + "/launcher.c"]) != nil,
    output(swiftc, ["-O", "-static-stdlib", "-o", work + "/floor", work + "/floor.swift"]) != nil
  else {
    note("whole process: skipped, the launcher or the floor program did not build")
    return nil
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
  _ = samples([work + "/floor", phraseFile])  // warm the page cache
  _ = samples(deriveArguments)
  for _ in 0..<rounds {
    floorSamples += samples([work + "/floor", phraseFile])
    deriveSamples += samples(deriveArguments)
  }
  func summary(_ samples: [(cpuMs: Double, rssKiB: Int)]) -> WholeProcessResult.Sample {
    let rss = samples.map(\.rssKiB).sorted()
    return .init(
      medianCpuMs: median(samples.map(\.cpuMs).sorted()), medianPeakRSSKiB: rss[rss.count / 2])
  }
  let derive = summary(deriveSamples)
  let floor = summary(floorSamples)
  let bytes = (try? Data(contentsOf: URL(fileURLWithPath: binary))) ?? Data()
  note(
    "whole process: derive --json \(derive.medianCpuMs) ms CPU, \(derive.medianPeakRSSKiB) KiB; "
      + "floor \(floor.medianCpuMs) ms, \(floor.medianPeakRSSKiB) KiB")
  return WholeProcessResult(
    command: "freedom-keys derive --json --mnemonic-file FILE",
    floorProgram: "swiftc -O -static-stdlib: read FILE, print it",
    samplesEach: rounds * runsPerRound, derive: derive, floor: floor,
    cpuVsFloor: derive.medianCpuMs / floor.medianCpuMs,
    peakRSSVsFloor: Double(derive.medianPeakRSSKiB) / Double(floor.medianPeakRSSKiB),
    binary: binary, binaryBytes: bytes.count,
    binaryLinksSharedSwiftRuntime: bytes.range(of: Data("libswiftCore.so".utf8)) != nil)
}

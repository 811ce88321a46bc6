// One way the benchmark runs a program and reads what it cost: posix_spawn and wait4, so the
// child's own peak RSS and CPU time come back with its exit status.

import Foundation

/// What one run of a program gave.
struct QuietRun {
  /// The exit status, or -1 when a signal ended it.
  let status: Int32
  let wallMs: Double
  /// User + system time of the child.
  let cpuMs: Double
  let peakRSSKiB: Int
}

/// Runs `binary arguments` with standard input, output and error on /dev/null; nil when it
/// could not be started.
func runQuietly(_ binary: String, _ arguments: [String]) -> QuietRun? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv = ([binary] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  let start = now(CLOCK_MONOTONIC)
  var pid: pid_t = 0
  guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else { return nil }
  var status: Int32 = 0
  var usage = rusage()
  guard wait4(pid, &status, 0, &usage) == pid else { return nil }
  let wallMs = now(CLOCK_MONOTONIC) - start
  func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1e3 + Double(time.tv_usec) * 1e-3 }
  // WIFEXITED / WEXITSTATUS by hand (macros Swift does not import).
  let exited = status & 0x7F == 0
  return QuietRun(
    status: exited ? (status >> 8) & 0xFF : -1, wallMs: wallMs,
    cpuMs: ms(usage.ru_utime) + ms(usage.ru_stime), peakRSSKiB: usage.ru_maxrss)
}

/// Two commands of `binary`, `runs` times each, which goes first alternating so a machine's
/// drift weighs on both alike; each run with a state directory of its own under `directory` (a
/// search keeps a checkpoint by itself, and the next run would continue from it). The median
/// wall time and the highest peak RSS of each; nil (said on stderr as `name`) when a run could
/// not start or exited other than `status`.
func alternatingRuns(
  _ name: String, _ binary: String, _ a: [String], _ b: [String], runs: Int,
  expecting status: Int32, statesIn directory: URL
) -> (a: (medianMs: Double, peakRSSKiB: Int), b: (medianMs: Double, peakRSSKiB: Int))? {
  func run(_ arguments: [String], _ number: Int) -> QuietRun? {
    setenv("XDG_STATE_HOME", directory.appendingPathComponent("state-\(number)").path, 1)
    return runQuietly(binary, arguments).flatMap { $0.status == status ? $0 : nil }
  }
  var first: [QuietRun] = []
  var second: [QuietRun] = []
  for number in 0..<runs {
    let bFirst = number % 2 == 0 ? nil : run(b, 2 * number + 1)
    guard let aRun = run(a, 2 * number), let bRun = bFirst ?? run(b, 2 * number + 1) else {
      FileHandle.standardError.write(Data("\(name): a run failed\n".utf8))
      return nil
    }
    first.append(aRun)
    second.append(bRun)
  }
  func summary(_ runs: [QuietRun]) -> (medianMs: Double, peakRSSKiB: Int) {
    (median(runs.map(\.wallMs).sorted()), runs.map(\.peakRSSKiB).max() ?? 0)
  }
  return (summary(first), summary(second))
}

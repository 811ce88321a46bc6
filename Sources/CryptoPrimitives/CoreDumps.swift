import SystemCalls

/// Keeps the process's memory (seeds, keys, passwords) out of every core dump: a core file
/// and a core piped to a program (`|/usr/lib/systemd/systemd-coredump`, apport), which
/// `RLIMIT_CORE` 0 alone does not stop — the kernel hands a piped core over whatever the limit.
/// A process that is not dumpable gets no core of either kind, and other processes of the same
/// user cannot attach to it with ptrace or read its `/proc/<pid>/mem`.
public enum CoreDumps {
  /// `setrlimit(RLIMIT_CORE, 0)` and `prctl(PR_SET_DUMPABLE, 0)`: true when both held. Call it
  /// before any secret is read; it lasts for the life of the process (an `exec` resets it).
  @discardableResult
  public static func forbid() -> Bool { Platform.forbidCoreDumps() }

  /// What happens when the process crashes: `line` on standard error and death by the signal
  /// (a non-zero status, no core file). Swift's runtime backtracer, enabled by default on
  /// Linux, would instead print every register and the memory they point at, which can hold a
  /// seed or a key. `SWIFT_BACKTRACE=enable=no` is read before `main` starts, so setting it then
  /// is too late; replacing the handlers the runtime installed works, and costs nothing at
  /// start. The handler runs on its own stack, so that a stack overflow is reported too.
  public static func reportCrashes(with line: StaticString) {
    Platform.installCrashHandler(line: line)
  }
}

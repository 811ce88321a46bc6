#if canImport(Glibc)
  import Glibc
#endif

/// Keeps the process's memory (seeds, keys, passwords) out of every core dump: a core file
/// and a core piped to a program (`|/usr/lib/systemd/systemd-coredump`, apport), which
/// `RLIMIT_CORE` 0 alone does not stop — the kernel hands a piped core over whatever the limit.
/// A process that is not dumpable gets no core of either kind, and other processes of the same
/// user cannot attach to it with ptrace or read its `/proc/<pid>/mem`.
public enum CoreDumps {
  /// `setrlimit(RLIMIT_CORE, 0)` and `prctl(PR_SET_DUMPABLE, 0)`: true when both held. Call it
  /// before any secret is read; it lasts for the life of the process (an `exec` resets it).
  @discardableResult
  public static func forbid() -> Bool {
    #if canImport(Glibc)
      var none = rlimit(rlim_cur: 0, rlim_max: 0)
      let limited = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) == 0
      guard let prctl else { return false }
      return prctl(setDumpable, 0, 0, 0, 0) == 0 && limited
    #else
      return false
    #endif
  }

  #if canImport(Glibc)
    /// `PR_SET_DUMPABLE` of <linux/prctl.h>, which Glibc's module does not export.
    private static let setDumpable: Int32 = 4
    private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    /// glibc's variadic `prctl`, which Swift cannot import; on the Linux ABIs (x86-64, AArch64)
    /// a variadic call with integer arguments passes them as a fixed call does.
    private static let prctl: Prctl? = dlsym(nil, "prctl").map {
      unsafeBitCast($0, to: Prctl.self)
    }
  #endif
}

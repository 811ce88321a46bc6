import CryptoPrimitives
import Glibc

/// What happens when the process crashes: one fixed line on stderr and death by the signal
/// (a non-zero status, no core file). Swift's runtime backtracer, enabled by default on Linux,
/// would instead print every register and the memory they point at, which can hold a seed or
/// a key. `SWIFT_BACKTRACE=enable=no` is read before `main` starts, so setting it here is too
/// late; replacing the handlers the runtime installed works, and costs nothing at start.
enum CrashHandler {
  /// The signals Swift's backtracer handles on Linux, plus SIGSYS.
  static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGQUIT, SIGSYS]

  /// Core dumps off (files and piped cores alike: `CoreDumps.forbid`), then our handler for
  /// every fatal signal, run on its own stack so that a stack overflow is reported too.
  static func install() {
    CoreDumps.forbid()

    let stackSize = 64 * 1024
    var alternateStack = stack_t(
      ss_sp: UnsafeMutableRawPointer.allocate(byteCount: stackSize, alignment: 16), ss_flags: 0,
      ss_size: stackSize)
    _ = sigaltstack(&alternateStack, nil)

    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      // Only async-signal-safe calls: a literal (no allocation), write(2), raise(3).
      let line: StaticString =
        "freedom-keys: error: stopped by a fatal signal; if you did not send it, please report this crash (nothing from memory is printed)\n"
      _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
      // SA_RESETHAND restored the default action: the signal, blocked until we return, then
      // ends the process with its own status.
      _ = raise(signal)
    }
    action.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
    sigemptyset(&action.sa_mask)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signal in signals {
      _ = sigaction(signal, &action, nil)
      sigaddset(&unblocked, signal)
    }
    // A mask inherited from the parent (a test runner's thread, say) must not hold them back.
    _ = pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
  }
}

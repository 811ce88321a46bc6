import CryptoPrimitives
import SystemCalls

/// What happens when the process crashes: one fixed line on stderr and death by the signal
/// (a non-zero status, no core file). Swift's runtime backtracer, enabled by default on Linux,
/// would instead print every register and the memory they point at, which can hold a seed or
/// a key. `SWIFT_BACKTRACE=enable=no` is read before `main` starts, so setting it here is too
/// late; replacing the handlers the runtime installed works, and costs nothing at start.
enum CrashHandler {
  /// Core dumps off (files and piped cores alike: `CoreDumps.forbid`), then our handler for
  /// every fatal signal (`Platform.fatalSignals`), run on its own stack so that a stack
  /// overflow is reported too.
  static func install() {
    CoreDumps.forbid()
    Platform.installCrashHandler(
      line:
        "freedom-keys: error: stopped by a fatal signal; if you did not send it, please report this crash (nothing from memory is printed)\n"
    )
  }
}

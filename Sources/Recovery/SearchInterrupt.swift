import Synchronization
import SystemCalls

/// Set by the SIGINT/SIGTERM handler; read by a search's `shouldStop`, which then stops
/// cleanly. A lock-free atomic, so the handler only stores to it.
private let interruptFlag = Atomic<Bool>(false)

/// Ctrl-C and SIGTERM (a batch system preempting or requeuing a task sends it first) during a
/// search, phrase or password: a flag the search polls, so it stops at a checkpoint instead of
/// dying between two.
package enum SearchInterrupt {
  /// Whether Ctrl-C or SIGTERM came.
  package static var requested: Bool { interruptFlag.load(ordering: .relaxed) }

  /// Runs `body` with SIGINT and SIGTERM caught, then gives them back their default action.
  package static func catching<R>(_ body: () throws -> R) rethrows -> R {
    // Initialised here, not first in the handler (a lazy global's initialiser is not
    // async-signal-safe).
    _ = requested
    // A parent may have blocked SIGINT (the mask is inherited); the threads started in `body`
    // inherit this thread's mask, so `catchInterrupts` unblocking it lets Ctrl-C reach the
    // handler.
    Platform.catchInterrupts { _ in interruptFlag.store(true, ordering: .relaxed) }
    defer { Platform.defaultInterrupts() }
    return try body()
  }
}

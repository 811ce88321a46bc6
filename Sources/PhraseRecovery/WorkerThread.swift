import Glibc
import VaultKeys

/// The two threading pieces the search needs, on pthreads directly (Foundation's `Thread` and
/// `NSLock` would bring all of Foundation into every process that links VaultKeys).
enum WorkerThread {
  /// Starts `body` on a new detached thread with a `stackSize`-byte stack; false if the system
  /// refused to create one.
  static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
    final class Body {
      let run: @Sendable () -> Void
      init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, &attributes,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    if created != 0 { Unmanaged<Body>.fromOpaque(context).release() }
    return created == 0
  }
}

/// A mutual-exclusion lock (a pthread mutex), for state several workers touch.
final class WorkerLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init() {
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
}

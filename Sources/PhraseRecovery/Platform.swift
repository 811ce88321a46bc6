// Every platform difference of PhraseRecovery: how a worker thread is started. Linux (what CI
// builds and tests) uses pthreads directly, with a stack size of our choosing; elsewhere a
// Dispatch worker stands in (untested).
#if canImport(Glibc)
  import Glibc
#else
  import Dispatch
#endif

/// Starts the search's worker threads (Foundation's `Thread` would bring all of Foundation into
/// every process that links PhraseRecovery).
enum WorkerThread {
  /// Starts `body` on a new detached thread with a `stackSize`-byte stack; false if the system
  /// refused to create one.
  static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
    #if canImport(Glibc)
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
    #else
      DispatchQueue.global().async(execute: body)
      return true
    #endif
  }
}

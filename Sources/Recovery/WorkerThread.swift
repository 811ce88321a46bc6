import SystemCalls

/// Starts the search's worker threads (Foundation's `Thread` would bring all of Foundation into
/// every process that links Recovery): pthreads, with a stack size of our choosing.
enum WorkerThread {
  /// Starts `body` on a new detached thread with a `stackSize`-byte stack; false if the system
  /// refused to create one.
  static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
    Platform.startThread(stackSize: stackSize, body)
  }
}

import Dispatch

extension WorkerThread {
  /// Runs `body` on `count` worker threads with 1 MiB stacks (on the calling thread when the
  /// system refuses every one), and calls `tick` on the calling thread about every `seconds`
  /// until all have returned.
  static func runAll(
    _ count: Int, tickEvery seconds: Double, tick: () -> Void,
    body: @escaping @Sendable () -> Void
  ) {
    let finished = DispatchSemaphore(value: 0)
    var remaining = 0
    for _ in 0..<count {
      let started = start(stackSize: 1 << 20) {
        body()
        finished.signal()
      }
      if started { remaining += 1 }
    }
    // Without a single worker thread (the system refused them all), search on this one.
    if remaining == 0 { body() }
    while remaining > 0 {
      if finished.wait(timeout: .now() + seconds) == .success {
        remaining -= 1
        continue
      }
      tick()
    }
  }
}

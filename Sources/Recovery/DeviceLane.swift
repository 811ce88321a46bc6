import Dispatch

/// One worker's way to an OpenCL device: the batches it hands over run one after another on a
/// thread of their own, which spends its time waiting on the device, so the worker goes on
/// making the next batch and checking the last one's keys while the device computes.
struct DeviceLane {
  private let queue = DispatchQueue(label: "freedom-keys.device-lane")

  /// Runs `work` after every batch handed over before it; its result is waited for with
  /// `PendingBatch.wait()`.
  func submit<Value: Sendable>(_ work: @escaping @Sendable () -> Value) -> PendingBatch<Value> {
    let pending = PendingBatch<Value>()
    queue.async { pending.fulfil(work()) }
    return pending
  }
}

/// A batch handed to a `DeviceLane`: its result once the device (or, where the device failed,
/// the CPU) has computed it.
final class PendingBatch<Value: Sendable>: @unchecked Sendable {
  // Written once on the lane's thread before `ready` is signalled, read once after it is.
  private var value: Value?
  private let ready = DispatchSemaphore(value: 0)

  fileprivate init() {}

  fileprivate func fulfil(_ value: Value) {
    self.value = value
    ready.signal()
  }

  /// Blocks until the batch is computed; its value, once.
  func wait() -> Value {
    ready.wait()
    defer { value = nil }
    return value!
  }
}

/// How many candidates one call on an OpenCL device is best given, measured on the device when
/// its engine is first opened: the PBKDF2-HMAC-SHA512 kernel timed on batches that double
/// from a few work items per compute unit, until the rate (candidates a second, the whole
/// call: packing, copies, kernel, read-back, wipe) stops improving by more than `gain`, or
/// the next batch would pass `largest` or the time budget. The rate a candidate costs grows
/// with the iterations alike for every batch size, so a short count measures what 2048 does.
public struct OpenCLBatchSize: Sendable, Equatable {
  /// One timed call.
  public struct Trial: Sendable, Equatable {
    /// Candidates in the call.
    public let size: Int
    /// How long it took.
    public let seconds: Double
    /// Candidates a second.
    public var rate: Double { Double(size) / max(seconds, 1e-9) }
  }

  /// The batch chosen: the smallest measured whose next doubling gained too little.
  public let chosen: Int
  /// Every call timed, in order.
  public let trials: [Trial]
  /// The PBKDF2 iterations each timed candidate ran.
  public let iterations: Int

  /// A larger batch is taken only if its rate beats the last by more than this factor.
  package static let gain = 1.05
  /// The PBKDF2 iterations of a timed candidate (BIP-39's 2048 scaled down 8 times).
  package static let iterations = 256
  /// The seconds the trials may take together, about.
  package static let budget = 1.0

  /// The first batch tried on a device of `computeUnits` (64 work items each, one wavefront
  /// or two warps) and the largest ever chosen (`largest`, the most one launch takes).
  package static func bounds(computeUnits: Int, largest: Int) -> ClosedRange<Int> {
    min(largest, 64 * max(1, computeUnits))...largest
  }

  /// The measurement: `time(size)` gives the seconds one call of `size` candidates takes;
  /// sizes double from `sizes.lowerBound` and never pass `sizes.upperBound`, and a next
  /// size is tried only while the trials so far, with twice the last, stay within `budget`.
  package static func measure<Failure: Error>(
    sizes: ClosedRange<Int>, iterations: Int = iterations, budget: Double = budget,
    time: (Int) throws(Failure) -> Double
  ) throws(Failure) -> OpenCLBatchSize {
    var trials: [Trial] = []
    var best: Trial?
    var spent = 0.0
    var size = sizes.lowerBound
    while true {
      let trial = Trial(size: size, seconds: try time(size))
      trials.append(trial)
      spent += trial.seconds
      if let best, trial.rate <= best.rate * gain { break }
      best = trial
      guard size <= sizes.upperBound / 2, spent + 2 * trial.seconds <= budget else { break }
      size *= 2
    }
    return OpenCLBatchSize(
      chosen: best?.size ?? sizes.lowerBound, trials: trials, iterations: iterations)
  }
}

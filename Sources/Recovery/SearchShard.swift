/// Which part of a search a run takes (`SearchSplit` cuts it): "K/N", or K and N from the batch
/// system's environment, so one job script serves every part. "slurm": an sbatch array task,
/// K its place in the array; "slurm/N": K the task's own number, so a task submitted again
/// keeps its part; "k8s/N": a Kubernetes Indexed Job's pod, K its completion index + 1.
package struct SearchShard: Sendable, Equatable {
  /// 1 ≤ index ≤ count.
  package let index: Int
  package let count: Int

  /// The most parts a search is cut into: what a part result may say.
  package static let maximumCount = ShardResult.maximumCount
  /// The whole search: part 1 of 1.
  package static let whole = SearchShard(index: 1, count: 1)

  private init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// The part `spec` names; `environment` is read only for "slurm", "slurm/N" and "k8s/N".
  package init(_ spec: String, environment: [String: String]) throws(SearchShardError) {
    if spec == "slurm" {
      self = try Self.slurm(environment)
    } else if spec.hasPrefix("slurm/") {
      // The task's own number is its part: an array resubmitted as --array=2 keeps part 2.
      guard let n = Self.count(spec.dropFirst(6)) else { throw .slurmCount }
      guard let value = environment["SLURM_ARRAY_TASK_ID"] else { throw .notSlurmTask }
      guard let k = Self.whole(value), (1...n).contains(k) else { throw .slurmTaskOutOfRange }
      self.init(index: k, count: n)
    } else if spec.hasPrefix("k8s/") {
      guard let n = Self.count(spec.dropFirst(4)) else { throw .kubernetesCount }
      guard let value = environment["JOB_COMPLETION_INDEX"] else { throw .notKubernetesJob }
      guard let k = Self.whole(value), k < n else { throw .kubernetesIndexOutOfRange }
      self.init(index: k + 1, count: n)
    } else {
      let parts = spec.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let k = Self.whole(parts[0]), let n = Self.count(parts[1]),
        (1...n).contains(k)
      else { throw .malformed }
      self.init(index: k, count: n)
    }
  }

  /// From an sbatch array task: index (ID − MIN) / STEP + 1 of COUNT, which must be every
  /// index from MIN to MAX (an array given as a list or with gaps would leave parts unsearched).
  private static func slurm(_ environment: [String: String]) throws(SearchShardError)
    -> SearchShard
  {
    let values = ["ID", "MIN", "MAX", "COUNT"].map { environment["SLURM_ARRAY_TASK_" + $0] }
    guard values.allSatisfy({ $0 != nil }) else { throw .notSlurmArray }
    let numbers = values.map { $0.flatMap(whole) }
    let step = environment["SLURM_ARRAY_TASK_STEP"].map(whole) ?? 1
    guard let id = numbers[0], let min = numbers[1], let max = numbers[2],
      let count = numbers[3], let step, step >= 1
    else { throw .slurmArrayNotNumbers }
    guard min <= id, id <= max, (id - min) % step == 0, (max - min) / step + 1 == count,
      (max - min) % step == 0, (1...maximumCount).contains(count)
    else { throw .slurmArrayNotContiguous }
    // One task of an array submitted again (--array=2 of 1-4): its count is not the search's.
    guard count > 1 || min <= 1 else { throw .slurmTaskResubmitted }
    return SearchShard(index: (id - min) / step + 1, count: count)
  }

  /// Digits only: no sign, no spaces.
  private static func whole(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    return Int(text)
  }

  private static func count(_ text: some StringProtocol) -> Int? {
    whole(text).flatMap { (1...maximumCount).contains($0) ? $0 : nil }
  }
}

/// Why a part cannot be named: the spec or the batch system's environment. Each names the
/// variables, never what was given.
package enum SearchShardError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Neither "K/N" with 1 ≤ K ≤ N, "slurm", "slurm/N" nor "k8s/N".
  case malformed
  /// "slurm/N" without a whole N from 1 to `SearchShard.maximumCount`.
  case slurmCount
  /// "slurm/N" outside an sbatch array task: SLURM_ARRAY_TASK_ID is not set.
  case notSlurmTask
  /// "slurm/N": SLURM_ARRAY_TASK_ID is not a whole number from 1 to N.
  case slurmTaskOutOfRange
  /// "k8s/N" without a whole N from 1 to `SearchShard.maximumCount`.
  case kubernetesCount
  /// "k8s/N" outside an Indexed Job's pod: JOB_COMPLETION_INDEX is not set.
  case notKubernetesJob
  /// "k8s/N": JOB_COMPLETION_INDEX is not a whole number from 0 to N-1.
  case kubernetesIndexOutOfRange
  /// "slurm" outside an sbatch array task: a SLURM_ARRAY_TASK_ variable is not set.
  case notSlurmArray
  /// "slurm": the SLURM_ARRAY_TASK_ variables are not whole numbers.
  case slurmArrayNotNumbers
  /// "slurm": the array is a list, has gaps or is too large.
  case slurmArrayNotContiguous
  /// "slurm": one task numbered above 1, alone in its array: a part submitted again.
  case slurmTaskResubmitted

  package var description: String {
    switch self {
    case .malformed: "a part is K/N with 1 ≤ K ≤ N, slurm, slurm/N or k8s/N"
    case .slurmCount, .kubernetesCount:
      "the number of parts must be a whole number from 1 to \(SearchShard.maximumCount)"
    case .notSlurmTask: "SLURM_ARRAY_TASK_ID is not set: this is not an sbatch array task"
    case .slurmTaskOutOfRange: "SLURM_ARRAY_TASK_ID is not a whole number from 1 to N"
    case .notKubernetesJob:
      "JOB_COMPLETION_INDEX is not set: this is not a pod of a Kubernetes Indexed Job"
    case .kubernetesIndexOutOfRange: "JOB_COMPLETION_INDEX is not a whole number from 0 to N-1"
    case .notSlurmArray:
      "SLURM_ARRAY_TASK_ID, _MIN, _MAX and _COUNT are not all set: this is not an sbatch "
        + "array task"
    case .slurmArrayNotNumbers: "the SLURM_ARRAY_TASK_ variables are not whole numbers"
    case .slurmArrayNotContiguous:
      "the sbatch array is not contiguous from its first task to its last"
    case .slurmTaskResubmitted:
      "the array holds one task numbered above 1: a part submitted again, whose array does "
        + "not say how many parts the search has"
    }
  }
}

import CommandLineKit
import FoundationEssentials
import PhraseRecovery

/// Which part of the search this run takes: `--shard K/N`, or K and N from the batch system's
/// environment (`--shard slurm`: an sbatch array task, K its place in the array; `--shard
/// slurm/N`: K the task's own number, so a task submitted again keeps its part; `--shard k8s/N`:
/// a Kubernetes Indexed Job's pod), so one job script serves every shard.
struct RecoverShard: Equatable {
  /// 1 ≤ index ≤ count.
  let index: Int
  let count: Int

  /// The most parts a search is cut into: what a part result may say (the library's rule).
  static let maximumCount = ShardResult.maximumCount
  static let whole = RecoverShard(index: 1, count: 1)

  private init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// A search's `--shard` (the whole search when not given, and whether it was) and its
  /// `--threads` (every core when not given), for `recover` and `recover password` alike.
  static func readRunControl(_ arguments: ParsedArguments) throws(CLIError)
    -> (shard: RecoverShard, given: Bool, threads: Int)
  {
    let threads =
      try arguments.integer(RecoverCommand.threads, in: 1...1024)
      ?? ProcessInfo.processInfo.activeProcessorCount
    guard let text = arguments.value(RecoverCommand.shard) else { return (.whole, false, threads) }
    let shard = try parse(
      text, environment: ProcessInfo.processInfo.environment, arguments: arguments)
    return (shard, true, threads)
  }

  /// The shard `text` names; the environment is read only for `slurm` and `k8s/N`. Messages
  /// name the variables, never what the user typed.
  static func parse(
    _ text: String, environment: [String: String], arguments: ParsedArguments
  ) throws(CLIError) -> RecoverShard {
    if text == "slurm" { return try slurm(environment, arguments: arguments) }
    if text.hasPrefix("slurm/") {
      // The task's own number is its part: an array resubmitted as --array=2 keeps part 2.
      guard let n = count(text.dropFirst(6)) else {
        throw arguments.usage(
          "--shard slurm/<n> needs the number of parts, a whole number from 1 to \(maximumCount), "
            + "as in --shard slurm/8")
      }
      guard let value = environment["SLURM_ARRAY_TASK_ID"] else {
        throw arguments.usage(
          "--shard slurm/<n> must run inside an sbatch array task (sbatch --array=1-N), which "
            + "sets SLURM_ARRAY_TASK_ID")
      }
      guard let k = whole(value), (1...n).contains(k) else {
        throw arguments.usage(
          "SLURM_ARRAY_TASK_ID must be a whole number from 1 to N for --shard slurm/<n>: submit "
            + "the array as --array=1-N (or a part of it, as --array=2)")
      }
      return RecoverShard(index: k, count: n)
    }
    if text.hasPrefix("k8s/") {
      guard let n = count(text.dropFirst(4)) else {
        throw arguments.usage(
          "--shard k8s/<n> needs the Job's completions, a whole number from 1 to \(maximumCount), "
            + "as in --shard k8s/8")
      }
      guard let value = environment["JOB_COMPLETION_INDEX"] else {
        throw arguments.usage(
          "--shard k8s/<n> must run in a pod of a Kubernetes Indexed Job (completionMode: "
            + "Indexed), which sets JOB_COMPLETION_INDEX")
      }
      guard let k = whole(value), k < n else {
        throw arguments.usage(
          "JOB_COMPLETION_INDEX must be a whole number from 0 to N-1 for --shard k8s/<n>: give "
            + "the Job's completions as N")
      }
      return RecoverShard(index: k + 1, count: n)
    }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = whole(parts[0]), let n = count(parts[1]), (1...n).contains(k)
    else {
      throw arguments.usage(
        "--shard <k/n> must be K/N with 1 ≤ K ≤ N (as in --shard 3/8), slurm or k8s/N")
    }
    return RecoverShard(index: k, count: n)
  }

  /// From an sbatch array task: index (ID − MIN) / STEP + 1 of COUNT, which must be every
  /// index from MIN to MAX (an array given as a list or with gaps would leave parts unsearched).
  private static func slurm(_ environment: [String: String], arguments: ParsedArguments)
    throws(CLIError) -> RecoverShard
  {
    let names = ["ID", "MIN", "MAX", "COUNT"].map { "SLURM_ARRAY_TASK_" + $0 }
    let values = names.map { environment[$0] }
    guard values.allSatisfy({ $0 != nil }) else {
      throw arguments.usage(
        "--shard slurm must run inside an sbatch array task (sbatch --array=1-N), which sets "
          + "SLURM_ARRAY_TASK_ID, _MIN, _MAX and _COUNT")
    }
    let numbers = values.map { $0.flatMap(whole) }
    let step = environment["SLURM_ARRAY_TASK_STEP"].map(whole) ?? 1
    guard let id = numbers[0], let min = numbers[1], let max = numbers[2],
      let count = numbers[3], let step, step >= 1
    else {
      throw arguments.usage(
        "the SLURM_ARRAY_TASK_ variables are not whole numbers: run --shard slurm in an sbatch "
          + "array task")
    }
    guard min <= id, id <= max, (id - min) % step == 0, (max - min) / step + 1 == count,
      (max - min) % step == 0, (1...maximumCount).contains(count)
    else {
      throw arguments.usage(
        "--shard slurm needs a contiguous array: submit it with sbatch --array=1-N (N shards), "
          + "or give --shard slurm/N")
    }
    // One task of an array submitted again (--array=2 of 1-4): its count is not the search's.
    guard count > 1 || min <= 1 else {
      throw arguments.usage(
        "--shard slurm in an array of one task numbered above 1 looks like a part submitted "
          + "again: give --shard slurm/N (N the parts of the search), so task K searches part K")
    }
    return RecoverShard(index: (id - min) / step + 1, count: count)
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

import CommandLineKit
import FoundationEssentials
import PhraseRecovery

/// `--shard` and `--threads`, for `recover` and `recover password` alike: the part of the
/// search this run takes (`SearchShard` reads "K/N", slurm, slurm/N and k8s/N) and its workers.
enum RecoverShard {
  /// A search's `--shard` (the whole search when not given, and whether it was) and its
  /// `--threads` (every core when not given).
  static func readRunControl(_ arguments: ParsedArguments) throws(CLIError)
    -> (shard: SearchShard, given: Bool, threads: Int)
  {
    let threads =
      try arguments.integer(RecoverCommand.threads, in: 1...1024)
      ?? ProcessInfo.processInfo.activeProcessorCount
    guard let text = arguments.value(RecoverCommand.shard) else { return (.whole, false, threads) }
    do {
      return (
        try SearchShard(text, environment: ProcessInfo.processInfo.environment), true, threads
      )
    } catch {
      throw arguments.usage(message(error))
    }
  }

  /// The one line for a part that cannot be named, with how to give it (never what was typed).
  static func message(_ error: SearchShardError) -> String {
    let maximumCount = SearchShard.maximumCount
    return switch error {
    case .slurmCount:
      "--shard slurm/<n> needs the number of parts, a whole number from 1 to \(maximumCount), "
        + "as in --shard slurm/8"
    case .notSlurmTask:
      "--shard slurm/<n> must run inside an sbatch array task (sbatch --array=1-N), which "
        + "sets SLURM_ARRAY_TASK_ID"
    case .slurmTaskOutOfRange:
      "SLURM_ARRAY_TASK_ID must be a whole number from 1 to N for --shard slurm/<n>: submit "
        + "the array as --array=1-N (or a part of it, as --array=2)"
    case .kubernetesCount:
      "--shard k8s/<n> needs the Job's completions, a whole number from 1 to \(maximumCount), "
        + "as in --shard k8s/8"
    case .notKubernetesJob:
      "--shard k8s/<n> must run in a pod of a Kubernetes Indexed Job (completionMode: "
        + "Indexed), which sets JOB_COMPLETION_INDEX"
    case .kubernetesIndexOutOfRange:
      "JOB_COMPLETION_INDEX must be a whole number from 0 to N-1 for --shard k8s/<n>: give "
        + "the Job's completions as N"
    case .malformed:
      "--shard <k/n> must be K/N with 1 ≤ K ≤ N (as in --shard 3/8), slurm or k8s/N"
    case .notSlurmArray:
      "--shard slurm must run inside an sbatch array task (sbatch --array=1-N), which sets "
        + "SLURM_ARRAY_TASK_ID, _MIN, _MAX and _COUNT"
    case .slurmArrayNotNumbers:
      "the SLURM_ARRAY_TASK_ variables are not whole numbers: run --shard slurm in an sbatch "
        + "array task"
    case .slurmArrayNotContiguous:
      "--shard slurm needs a contiguous array: submit it with sbatch --array=1-N (N shards), "
        + "or give --shard slurm/N"
    case .slurmTaskResubmitted:
      "--shard slurm in an array of one task numbered above 1 looks like a part submitted "
        + "again: give --shard slurm/N (N the parts of the search), so task K searches part K"
    }
  }
}

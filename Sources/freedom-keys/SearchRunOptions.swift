import CommandLineKit
import Dispatch
import FoundationEssentials
import PhraseRecovery

/// The options `recover` and `recover password` share, declared and read once: the keyboard
/// typos are made on, the part of the search this run takes and its workers, when it stops,
/// its checkpoint, progress and JSON (`--resume` is declared here, read by each command).
struct SearchRunOptions {
  static let keyboard = TypedOption<KeyboardLayout>(
    option: .value("keyboard", "layout", help: "Typos' keyboard: qwerty, qwertz, azerty."),
    parse: { KeyboardLayout(name: $0) }, requirement: "must be qwerty, qwertz or azerty")
  static let maxHours = TypedOption<SearchTimeLimit>(
    option: .value("max-hours", "h", help: "Stop (resumably) after H hours."),
    parse: { SearchTimeLimit(hours: $0) },
    requirement: "must be a number of hours above 0, as in --max-hours 1.5")
  static let threads = Option.value("threads", "n", help: "Worker threads (default: every core).")
  static let shard = Option.value(
    "shard", "k/n", help: "Search the K-th of N parts (slurm[/N], k8s/N).")
  static let resume = Option.value(
    "resume", "path", help: "Keep a checkpoint in <path>, resume from it.")
  static let progressInterval = TypedOption<Double>(
    option: .value(
      "progress-interval", "s", help: "Seconds between progress lines (default 30)."),
    parse: { ProgressInterval.seconds($0) },
    requirement: "must be a number of seconds above 0 and at most 86400, "
      + "as in --progress-interval 30")
  static let json = SharedOptions.json(help: "Print the result as JSON.")

  /// How the typist's keyboard mistypes (`--keyboard`, QWERTY when not given).
  let typoModel: TypoModel
  /// `--shard`: the part of the search this run takes (1/1 without); whether it was given
  /// (even 1/1: then exactly the search given, no phases).
  let shard: SearchShard
  let shardGiven: Bool
  /// `--threads`, every core when not given.
  let threads: Int
  /// `--max-hours`: the run stops (as Ctrl-C does) when they have passed.
  let timeLimit: SearchTimeLimit?
  /// Seconds between progress lines; nil: 1 on a terminal, else 30.
  let progressSeconds: Double?
  let printsJSON: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    typoModel = TypoModel(keyboard: try arguments.value(Self.keyboard) ?? .qwerty)
    threads =
      try arguments.integer(Self.threads, in: 1...1024)
      ?? ProcessInfo.processInfo.activeProcessorCount
    if let text = arguments.value(Self.shard) {
      do {
        shard = try SearchShard(text, environment: ProcessInfo.processInfo.environment)
      } catch {
        throw arguments.usage(Self.message(error))
      }
      shardGiven = true
    } else {
      (shard, shardGiven) = (.whole, false)
    }
    timeLimit = try arguments.value(Self.maxHours)
    progressSeconds = try arguments.value(Self.progressInterval)
    printsJSON = arguments.flag(Self.json)
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

extension SearchRunOptions {
  /// When a run starting now stops (`--max-hours`); nil without a limit.
  func deadline() -> DispatchTime? { timeLimit?.deadline() }

  /// Seconds between lines on `progress`: as given, else every second on a terminal.
  func progressInterval(on progress: ProgressLine) -> Double {
    progressSeconds ?? ProgressInterval.standard(redrawn: progress.onTerminal)
  }

  /// How a run that reached `--max-hours` begins its last line.
  var stoppedAtLimit: String { "stopped after --max-hours \(timeLimit?.text ?? "")" }
}

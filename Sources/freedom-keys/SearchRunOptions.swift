import CommandLineKit
import CryptoPrimitives
import Dispatch
import FoundationEssentials
import Recovery

/// The options `recover` and `recover password` share, declared and read once: the keyboard
/// typos are made on, the part of the search this run takes, its workers and the engine their
/// PBKDF2 runs on, when it stops, its checkpoint, progress and JSON (`--resume` is declared
/// here, read by each command).
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
  static let engine = TypedOption<PBKDF2Backend.Choice>.choice(
    "engine", "kind", help: "PBKDF2 on: auto (a GPU if any), cpu, opencl.",
    PBKDF2Backend.Choice.allCases.map { ($0.rawValue, $0) })
  static let device = TypedOption<Int>.integer(
    "device", "n", help: "The OpenCL device (1: the first listed).", in: 1...64)
  /// The options that choose the engine, in the order help lists them.
  static let engineOptions = [engine.option, device.option]

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
  /// `--engine` (auto when not given) and `--device`.
  let engine: PBKDF2Backend.Choice
  let device: Int?

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
    engine = try arguments.value(Self.engine) ?? .auto
    device = try arguments.value(Self.device)
    if engine == .cpu, device != nil {
      throw arguments.usage("--device <n> names an OpenCL device: drop it, or give --engine opencl")
    }
  }

  /// Where the search's PBKDF2 runs: `--engine cpu` the CPU; `auto` a GPU that works, else the
  /// CPU without a word; `opencl` (or a `--device`) that device, or one line saying why not.
  func backend() throws(CLIError) -> PBKDF2Backend {
    do {
      return try PBKDF2Backend.resolve(engine, device: device)
    } catch {
      throw .failure(Self.message(error))
    }
  }

  /// The one line for an OpenCL engine that cannot run, with what to install or give instead.
  static func message(_ error: OpenCLError) -> String {
    let instead = "or give --engine cpu"
    return switch error {
    case .loaderMissing:
      "--engine opencl needs the OpenCL loader libOpenCL.so.1: install ocl-icd-libopencl1 and "
        + "a driver (a GPU's, or pocl-opencl-icd), \(instead)"
    case .noPlatform, .noDevice:
      "--engine opencl found no OpenCL device: install a GPU's OpenCL driver (or "
        + "pocl-opencl-icd for the CPU), \(instead)"
    case .noSuchDevice(_, let count):
      "--device <n> must be a device from 1 to \(count) (clinfo -l lists them), \(instead)"
    default:
      "--engine opencl cannot run: \(error); \(instead)"
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

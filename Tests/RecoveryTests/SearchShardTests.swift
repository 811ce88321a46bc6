import Dispatch
import Testing

@testable import Recovery

/// The part of a search a run takes, named as K/N or read from a batch system's environment,
/// and the run's time limit and progress interval as typed values.
@Suite("recover: naming a part and a time limit")
struct SearchShardTests {
  static func part(_ spec: String, _ environment: [String: String] = [:]) throws -> (Int, Int) {
    let part = try SearchShard(spec, environment: environment)
    return (part.index, part.count)
  }

  static func slurm(id: Int, min: Int, max: Int, count: Int, step: Int? = nil) -> [String: String] {
    var environment = [
      "SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(min)",
      "SLURM_ARRAY_TASK_MAX": "\(max)", "SLURM_ARRAY_TASK_COUNT": "\(count)",
    ]
    environment["SLURM_ARRAY_TASK_STEP"] = step.map(String.init)
    return environment
  }

  @Test func partsAsWritten() throws {
    #expect(try Self.part("3/8") == (3, 8))
    #expect(try Self.part("1/1") == (1, 1))
    #expect(try Self.part("1048576/1048576") == (1_048_576, 1_048_576))
    #expect(SearchShard.whole == (try SearchShard("1/1", environment: [:])))
    for bad in ["0/8", "9/8", "3/0", "3", "3/8/1", "+3/8", " 3/8", "3/1048577", "a/b", ""] {
      #expect(throws: SearchShardError.malformed, "\(bad)") { try Self.part(bad) }
    }
  }

  @Test func slurmArrayTasks() throws {
    #expect(try Self.part("slurm", Self.slurm(id: 3, min: 1, max: 4, count: 4)) == (3, 4))
    // Numbered from 0, and with a step: the task's place in the array.
    #expect(try Self.part("slurm", Self.slurm(id: 0, min: 0, max: 3, count: 4)) == (1, 4))
    #expect(try Self.part("slurm", Self.slurm(id: 5, min: 1, max: 7, count: 4, step: 2)) == (3, 4))
    #expect(throws: SearchShardError.notSlurmArray) {
      try Self.part("slurm", ["SLURM_ARRAY_TASK_ID": "1"])
    }
    var words = Self.slurm(id: 1, min: 1, max: 4, count: 4)
    words["SLURM_ARRAY_TASK_MIN"] = "one"
    #expect(throws: SearchShardError.slurmArrayNotNumbers) { try Self.part("slurm", words) }
    // A list or gaps would leave parts unsearched.
    #expect(throws: SearchShardError.slurmArrayNotContiguous) {
      try Self.part("slurm", Self.slurm(id: 2, min: 1, max: 5, count: 3))
    }
    // One task of 1-4 submitted again as --array=2: its array says nothing of the search.
    #expect(throws: SearchShardError.slurmTaskResubmitted) {
      try Self.part("slurm", Self.slurm(id: 2, min: 2, max: 2, count: 1))
    }
  }

  @Test func slurmTaskNumbersAndKubernetesIndexes() throws {
    #expect(try Self.part("slurm/8", ["SLURM_ARRAY_TASK_ID": "2"]) == (2, 8))
    #expect(throws: SearchShardError.slurmCount) { try Self.part("slurm/0") }
    #expect(throws: SearchShardError.notSlurmTask) { try Self.part("slurm/8") }
    #expect(throws: SearchShardError.slurmTaskOutOfRange) {
      try Self.part("slurm/8", ["SLURM_ARRAY_TASK_ID": "9"])
    }
    #expect(try Self.part("k8s/8", ["JOB_COMPLETION_INDEX": "0"]) == (1, 8))
    #expect(try Self.part("k8s/8", ["JOB_COMPLETION_INDEX": "7"]) == (8, 8))
    #expect(throws: SearchShardError.kubernetesCount) { try Self.part("k8s/x") }
    #expect(throws: SearchShardError.notKubernetesJob) { try Self.part("k8s/8") }
    #expect(throws: SearchShardError.kubernetesIndexOutOfRange) {
      try Self.part("k8s/8", ["JOB_COMPLETION_INDEX": "8"])
    }
    // The error names the variable, never what was given.
    #expect(SearchShardError.slurmTaskOutOfRange.description.contains("SLURM_ARRAY_TASK_ID"))
  }

  @Test func timeLimitsAndProgressIntervals() throws {
    let limit = try #require(SearchTimeLimit(hours: "1.5"))
    #expect(limit.hours == 1.5 && limit.text == "1.5")
    // Written another way, a message repeats the number read.
    #expect(SearchTimeLimit(hours: "2e0")?.text == "2.0")
    for bad in ["0", "-1", "nan", "inf", "1000001", "", "an hour"] {
      #expect(SearchTimeLimit(hours: bad) == nil, "\(bad)")
    }
    let start = DispatchTime(uptimeNanoseconds: 1_000)
    #expect(limit.deadline(from: start).uptimeNanoseconds == 1_000 + 5_400_000_000_000)

    #expect(ProgressInterval.seconds("0.5") == 0.5)
    #expect(ProgressInterval.seconds("86400") == 86_400)
    for bad in ["0", "86401", "-3", "nan", "soon"] {
      #expect(ProgressInterval.seconds(bad) == nil, "\(bad)")
    }
    #expect(ProgressInterval.standard(redrawn: true) == 1)
    #expect(ProgressInterval.standard(redrawn: false) == 30)
  }
}

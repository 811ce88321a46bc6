import CommandLineKit
import FreedomNodes
import Recovery
import VaultKeys

/// `freedom-keys recover collect DIR`: merges the `--json` results of a sharded search (one
/// file per shard, of `recover` or of `recover password`) into one answer: found, exhausted,
/// or incomplete (and which shards).
struct RecoverCollectCommand: Command {
  static let directory = Option.value(
    "dir", "dir", help: "The directory of the shards' --json results (*.json).")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "collect",
      abstract: "Merge the shards' --json results of a search.",
      discussion: """
        Reads every <dir>/*.json, each the --json output of one 'recover --shard'
        or 'recover password --shard' run, checks they are shards of one search
        (the same "search" hash, which holds no word or password; for passwords the
        same file) split the same N ways, and says whether a shard found the phrase
        (which one, the words it changed and the target it matched) or the password
        (which one, what it opened), whether all N searched everything without a
        match, or which shards are missing or were interrupted. The phrase and the
        password are never in the results, so never printed.
        Exit status: 0 found, 4 every shard complete and none matched, 1 shards
        missing or incomplete (run them again, they resume) and errors, 2 usage
        errors.
        """,
      options: [SearchRunOptions.json], argument: directory)
  }

  let path: String
  let printsJSON: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    path = arguments.value(Self.directory) ?? ""
    guard !path.isEmpty else { throw arguments.usage("<dir> must not be empty") }
    printsJSON = arguments.flag(SearchRunOptions.json)
  }

  func run() throws {
    let files = try readResults()
    let collection: ShardCollection
    do {
      collection = try ShardCollection(files: files)
    } catch {
      throw Self.failure(error)
    }
    if printsJSON {
      Output.standardOutput(collection.json().rendered() + "\n")
    } else {
      Output.standardOutput(text(collection))
    }
    switch collection.status {
    case .found:
      return
    case .exhausted where collection.kind == .password:
      throw CLIError.notFound(
        collection.exhaustedReason + "; widen the search (a higher --password-typos, "
          + "--password-candidates FILE) or check the file")
    case .exhausted:
      throw CLIError.notFound(
        collection.exhaustedReason + "; widen the search (--typos, --swaps, --missing, more ? "
          + "words) or check the targets")
    case .incomplete:
      throw CLIError.failure(
        collection.incompleteReason + ": wait for running shards, run the others (again, they "
          + "resume with their --resume files) and collect once more")
    }
  }

  /// The one line for results that cannot be merged, with what to do.
  private static func failure(_ error: ShardCollectionError) -> CLIError {
    let fix =
      switch error {
      case .noResults: "give the directory the shards' --json output went to"
      case .allUnfinished: "wait for the shards, or run them again (they resume), and collect again"
      case .unreadable(_, .unfinished):
        "wait for its shard, or run it again (it resumes), and collect again"
      case .unreadable(_, .completeButUnsearched):
        "run its shard again and collect again"
      case .unreadable:
        "it is not the --json output of 'freedom-keys recover' — move it out of the directory, "
          + "or run its shard again"
      case .otherKind:
        "collect the results of one search in a directory of their own ('recover' writes phrase "
          + "shards, 'recover password' password shards)"
      case .countsExceedSearch, .countsDoNotAddUp:
        "the results were changed or are of different versions; run the shards again"
      case .otherFile, .otherSearch, .otherSplit, .duplicate: error.remedy ?? ""
      }
    return .failure("\(error): \(fix)")
  }

  /// The results in `path`, in name order; at least one.
  private func readResults() throws -> [(name: String, bytes: [UInt8])] {
    do {
      return try UserFiles.files(in: path, endingIn: ".json")
    } catch {
      let message =
        switch error {
        case .unlistable(let reason):
          "cannot read the directory \(path): \(reason): give the directory the shards wrote "
            + "their --json results to"
        case .empty:
          "\(path) holds no .json results: give the directory the shards' --json output went to"
        case .disappeared(let file): "\(file) disappeared while it was read: collect again"
        case .unreadable(let message): message
        }
      throw CLIError.failure(message)
    }
  }

  /// What the shards found and how to write it, then how far they got.
  private func text(_ collection: ShardCollection) -> String {
    let count = collection.count
    var lines: [String] = []
    for entry in collection.found {
      let index = entry.result.index
      lines += collection.foundLines(entry)
      lines.append(
        entry.result.kind == .password
          ? "the password is not in the results: to write it, run that shard's recover password "
            + "command again with --shard \(index)/\(count) --out FILE (with its --resume "
            + "file the file is opened again without searching; without, that shard is searched "
            + "again)"
          : "to write the corrected phrase, run that shard's recover command again with "
            + "--shard \(index)/\(count) --out FILE (with its --resume file it is written "
            + "without searching)")
    }
    return (lines + collection.summaryLines).joined(separator: "\n") + "\n"
  }
}

import CommandLineKit
import CryptoPrimitives
import PhraseRecovery
import SystemCalls
import VaultKeys

/// `freedom-keys recover collect DIR`: merges the `--json` results of a sharded search (one
/// file per shard, of `recover` or of `recover password`) into one answer: found, exhausted,
/// or incomplete (and which shards).
struct RecoverCollectCommand: ParsableCommand {
  static let directory = Option.value(
    "dir", "dir", help: "The directory of the shards' --json results (*.json).")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
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
      options: [RecoverCommand.json], argument: directory)
  }

  let path: String
  let printsJSON: Bool

  init(_ arguments: ParsedArguments) throws(CLIError) {
    path = arguments.value(Self.directory) ?? ""
    guard !path.isEmpty else { throw arguments.usage("<dir> must not be empty") }
    printsJSON = arguments.flag(RecoverCommand.json)
  }

  func run() throws {
    let files = try readResults()
    let collection: ShardCollection
    do {
      collection = try ShardCollection(files: files)
    } catch {
      throw Self.failure(error)
    }
    let whole = RecoveryText.grouped(collection.searchCandidates)
    if printsJSON {
      var object: JSONObject = [
        "status": .string(collection.status.rawValue), "shards": .number(UInt64(collection.count)),
        "missing": .array(collection.missing.map { .number(UInt64($0)) }),
        "incomplete": .array(collection.interrupted.map { .number(UInt64($0)) }),
        "unfinished": .array(collection.unfinished.map { .string($0) }),
        "candidates": .number(collection.candidates), "searched": .number(collection.searched),
        "searchCandidates": .number(collection.searchCandidates),
        "search": .string(Hex.encode(collection.search)),
        "results": .array(collection.results.map(Self.json)),
      ]
      if collection.kind == .password {
        object.append("kind", .string("password"))
        object.append("file", .string(Hex.encode(collection.file ?? [])))
      }
      Output.standardOutput(JSONValue.object(object).rendered() + "\n")
    } else {
      Output.standardOutput(text(collection))
    }
    switch collection.status {
    case .found:
      return
    case .exhausted where collection.kind == .password:
      throw CLIError.notFound(
        "no shard opened the file: all \(collection.count) shards tried all \(whole) passwords; "
          + "widen the search (a higher --password-typos, --password-candidates FILE) or check "
          + "the file")
    case .exhausted:
      throw CLIError.notFound(
        "no shard matched the targets: all \(collection.count) shards searched all \(whole) "
          + "candidates; widen the search (--typos, --swaps, --missing, more ? words) or check "
          + "the targets")
    case .incomplete:
      let shards =
        collection.missing.map { "\($0) missing" }
        + collection.interrupted.map { "\($0) interrupted" }
      let running =
        collection.unfinished.isEmpty
        ? ""
        : "; \(collection.unfinished.joined(separator: ", ")) still being written (a shard "
          + "running, or stopped while writing its result)"
      throw CLIError.failure(
        "the search is incomplete (\(RecoveryText.grouped(collection.searched)) of \(whole) "
          + "candidates searched\(shards.isEmpty ? "" : "; shard " + shards.joined(separator: ", "))"
          + "\(running)): wait for running shards, run the others (again, they resume with "
          + "their --resume files) and collect once more")
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
      case .otherFile:
        "collect the results of one file's search in a directory of their own"
      case .otherSearch(_, _, .password):
        "collect the results of one search in a directory of their own (a search whose "
          + "passwords, typos, tokens or candidates changed is another search)"
      case .otherSearch:
        "collect the results of one search in a directory of their own (a search whose words, "
          + "passphrases, options or targets changed is another search)"
      case .otherSplit: "a search is split one way; remove the results of the other split"
      case .duplicate: "keep one"
      case .countsExceedSearch, .countsDoNotAddUp:
        "the results were changed or are of different versions; run the shards again"
      }
    return .failure("\(error): \(fix)")
  }

  /// The results in `path`, in name order; at least one.
  private func readResults() throws -> [(name: String, bytes: [UInt8])] {
    guard let entries = Platform.names(path: path) else {
      throw CLIError.failure(
        "cannot read the directory \(path): \(Platform.message(Platform.errno)): give the "
          + "directory the shards wrote their --json results to")
    }
    let names = entries.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
    guard !names.isEmpty else {
      throw CLIError.failure(
        "\(path) holds no .json results: give the directory the shards' --json output went to")
    }
    return try names.sorted().map { name in
      let file = path.hasSuffix("/") ? path + name : path + "/" + name
      guard let bytes = try ExportFiles.read(file) else {
        throw CLIError.failure("\(file) disappeared while it was read: collect again")
      }
      return (file, bytes.withUnsafeBytes { Array($0) })
    }
  }

  private static func json(_ entry: ShardCollection.Entry) -> JSONValue {
    let result = entry.result
    var object: JSONObject = [
      "shard": .number(UInt64(result.index)), "file": .string(entry.file),
      "complete": .bool(result.complete), "found": .bool(result.found),
    ]
    if result.kind == .phrase {
      object.append(
        "changes",
        .array(
          result.changes.map {
            .object([
              "position": .number($0.position), "word": .string($0.word), "was": .string($0.was),
            ])
          }))
    }
    if let matched = result.matched { object.append("matched", .string(matched)) }
    object.append("candidates", .number(result.candidates))
    object.append("searched", .number(result.searched))
    if result.kind == .phrase {
      object.append("checksumValid", .number(result.checksumValid))
    }
    return .object(object)
  }

  private func text(_ collection: ShardCollection) -> String {
    let count = collection.count
    var lines: [String] = []
    for (file, result) in collection.found where result.kind == .password {
      lines.append("found by shard \(result.index) of \(count) (\(file))")
      let matched = result.matched ?? ""
      lines.append(
        matched == "vault"
          ? "the password opens the vault" : "the password opens the keystore of \(matched)")
      lines.append(
        "the password is not in the results: to write it, run that shard's recover password "
          + "command again with --shard \(result.index)/\(count) --out FILE (with its --resume "
          + "file the file is opened again without searching; without, that shard is searched "
          + "again)")
    }
    for (file, result) in collection.found where result.kind == .phrase {
      lines.append("found by shard \(result.index) of \(count) (\(file))")
      for change in result.changes {
        let was = change.was.isEmpty ? "missing" : "'\(change.was)'"
        lines.append("word \(change.position) is '\(change.word)' (was \(was))")
      }
      if result.changes.isEmpty { lines.append("the phrase was right as remembered") }
      lines.append("matched \(result.matched ?? "")")
      lines.append(
        "to write the corrected phrase, run that shard's recover command again with "
          + "--shard \(result.index)/\(count) --out FILE (with its --resume file it is written "
          + "without searching)")
    }
    lines.append(
      "\(collection.results.count) of \(count) shards: "
        + "\(RecoveryText.grouped(collection.searched)) of "
        + "\(RecoveryText.grouped(collection.searchCandidates)) "
        + (collection.kind == .password ? "passwords tried" : "candidates searched"))
    if !collection.missing.isEmpty {
      lines.append("missing: shard " + collection.missing.map(String.init).joined(separator: ", "))
    }
    if !collection.interrupted.isEmpty {
      lines.append(
        "interrupted: shard " + collection.interrupted.map(String.init).joined(separator: ", "))
    }
    if !collection.unfinished.isEmpty {
      lines.append("still being written: " + collection.unfinished.joined(separator: ", "))
    }
    if collection.status == .exhausted {
      lines.append("every shard searched everything; none matched")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

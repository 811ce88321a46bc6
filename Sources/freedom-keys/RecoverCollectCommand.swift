import CryptoPrimitives
import Glibc
import VaultKeys

/// `freedom-keys recover collect DIR`: merges the `--json` results of a sharded search (one
/// file per shard) into one answer: found, exhausted, or incomplete (and which shards).
struct RecoverCollectCommand: ParsableCommand {
  static let directory = Option.value(
    "dir", "dir", help: "The directory of the shards' --json results (*.json).")

  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "collect",
      abstract: "Merge the shards' --json results of a search.",
      discussion: """
        Reads every <dir>/*.json, each the --json output of one 'recover --shard'
        run, checks they are shards of one search (the same "search" hash, which
        holds no word) split the same N ways, and says whether a shard found the
        phrase (which one, the words it changed and the target it matched), whether
        all N searched everything without a match, or which shards are missing or
        were interrupted. The phrase is never in the results, so never printed.
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

  /// One shard's result file, as `recover --json` writes it.
  struct ShardResult {
    struct Change {
      let position: UInt64
      let word: String
      let was: String
    }
    let file: String
    let index: Int
    let count: Int
    let search: String
    let searchCandidates: UInt64
    let complete: Bool
    let found: Bool
    let changes: [Change]
    let matched: String?
    let candidates: UInt64
    let searched: UInt64
    let checksumValid: UInt64

    /// Reads `bytes`; a problem is one line naming `file`, never its content.
    init(file: String, bytes: [UInt8]) throws(CLIError) {
      self.file = file
      let malformed = { (why: String) in
        CLIError.failure(
          "\(file): \(why); it is not the --json output of 'freedom-keys recover' — remove it or "
            + "run its shard again")
      }
      var result: Result<Parsed, CLIError> = .failure(malformed("it is empty"))
      bytes.withUnsafeBytes { raw in
        result = Result { () throws(CLIError) -> Parsed in
          let root: JSONNode
          do {
            root = try JSONText.parse(raw)
          } catch {
            throw malformed("\(error)")
          }
          guard case .object = root.kind else { throw malformed("it is not a JSON object") }
          func member(_ name: String, of node: JSONNode) throws(CLIError) -> JSONNode {
            let found = node.members(named: name)
            guard found.count == 1 else { throw malformed("it needs exactly one \"\(name)\"") }
            return found[0].value
          }
          func number(_ name: String, of node: JSONNode = root) throws(CLIError) -> UInt64 {
            guard let value = JSONText.unsignedInteger(try member(name, of: node), in: raw) else {
              throw malformed("\"\(name)\" is not a whole number")
            }
            return value
          }
          func bool(_ name: String) throws(CLIError) -> Bool {
            guard case .bool(let value) = try member(name, of: root).kind else {
              throw malformed("\"\(name)\" is not true or false")
            }
            return value
          }
          func string(_ name: String, of node: JSONNode = root) throws(CLIError) -> String {
            let value = try member(name, of: node)
            guard JSONText.isString(value) else { throw malformed("\"\(name)\" is not a string") }
            return JSONText.string(value, in: raw)
          }
          let shard = try member("shard", of: root)
          let index = try number("index", of: shard)
          let count = try number("count", of: shard)
          guard count >= 1, count <= UInt64(RecoverShard.maximumCount), (1...count).contains(index)
          else { throw malformed("\"shard\" is not an index from 1 to its count") }
          let search = try string("search")
          guard search.utf8.count == 2 * SHA256.byteCount, Hex.decode(search) != nil else {
            throw malformed("\"search\" is not a SHA-256 in hex")
          }
          guard case .array(let changeNodes) = try member("changes", of: root).kind else {
            throw malformed("\"changes\" is not an array")
          }
          var changes: [Change] = []
          for node in changeNodes {
            changes.append(
              Change(
                position: try number("position", of: node), word: try string("word", of: node),
                was: try string("was", of: node)))
          }
          let found = try bool("found")
          let matched = root.members(named: "matched").isEmpty ? nil : try string("matched")
          guard found == (matched != nil) else {
            throw malformed("\"matched\" is given exactly when \"found\" is true")
          }
          let parsed = Parsed(
            index: Int(index), count: Int(count), search: search.lowercased(),
            searchCandidates: try number("searchCandidates"), complete: try bool("complete"),
            found: found, changes: changes, matched: matched, candidates: try number("candidates"),
            searched: try number("searched"), checksumValid: try number("checksumValid"))
          guard parsed.searched <= parsed.candidates, parsed.candidates <= parsed.searchCandidates
          else { throw malformed("its counts are larger than its shard or search") }
          return parsed
        }
      }
      let parsed = try result.get()
      (index, count, search, searchCandidates) =
        (parsed.index, parsed.count, parsed.search, parsed.searchCandidates)
      (complete, found, changes, matched) =
        (parsed.complete, parsed.found, parsed.changes, parsed.matched)
      (candidates, searched, checksumValid) =
        (parsed.candidates, parsed.searched, parsed.checksumValid)
    }

    private struct Parsed {
      let index: Int
      let count: Int
      let search: String
      let searchCandidates: UInt64
      let complete: Bool
      let found: Bool
      let changes: [Change]
      let matched: String?
      let candidates: UInt64
      let searched: UInt64
      let checksumValid: UInt64
    }
  }

  enum Status: String {
    case found, exhausted, incomplete
  }

  func run() throws {
    let results = try readResults()
    let first = results[0]
    let count = first.count
    var byShard: [Int: ShardResult] = [:]
    for result in results {
      guard result.search == first.search, result.searchCandidates == first.searchCandidates
      else {
        throw CLIError.failure(
          "\(result.file) is a shard of another search than \(first.file): collect the results "
            + "of one search in a directory of their own")
      }
      guard result.count == count else {
        throw CLIError.failure(
          "\(result.file) is shard \(result.index) of \(result.count), \(first.file) of "
            + "\(count): a search is split one way; remove the results of the other split")
      }
      if let other = byShard[result.index] {
        throw CLIError.failure(
          "\(other.file) and \(result.file) are both shard \(result.index) of \(count): keep one")
      }
      byShard[result.index] = result
    }
    let ordered = byShard.keys.sorted().compactMap { byShard[$0] }
    let missing = (1...count).filter { byShard[$0] == nil }
    let incomplete = ordered.filter { !$0.complete }.map(\.index)
    let candidates = ordered.reduce(0) { $0 + $1.candidates }
    let searched = ordered.reduce(0) { $0 + $1.searched }
    let status: Status =
      ordered.contains(where: \.found)
      ? .found : missing.isEmpty && incomplete.isEmpty ? .exhausted : .incomplete
    if missing.isEmpty, candidates != first.searchCandidates {
      throw CLIError.failure(
        "the \(count) shards' candidates add up to \(RecoverCommand.grouped(candidates)), not "
          + "the search's \(RecoverCommand.grouped(first.searchCandidates)): the results were "
          + "changed or are of different versions; run the shards again")
    }

    if printsJSON {
      let object: JSONObject = [
        "status": .string(status.rawValue), "shards": .number(UInt64(count)),
        "missing": .array(missing.map { .number(UInt64($0)) }),
        "incomplete": .array(incomplete.map { .number(UInt64($0)) }),
        "candidates": .number(candidates), "searched": .number(searched),
        "searchCandidates": .number(first.searchCandidates), "search": .string(first.search),
        "results": .array(ordered.map(Self.json)),
      ]
      Output.standardOutput(JSONValue.object(object).rendered() + "\n")
    } else {
      Output.standardOutput(
        text(status, ordered, count: count, missing: missing, incomplete: incomplete))
    }
    let whole = RecoverCommand.grouped(first.searchCandidates)
    switch status {
    case .found:
      return
    case .exhausted:
      throw CLIError.notFound(
        "no shard matched the targets: all \(count) shards searched all \(whole) candidates; "
          + "widen the search (--typos, --swaps, --missing, more ? words) or check the targets")
    case .incomplete:
      let shards = (missing.map { "\($0) missing" } + incomplete.map { "\($0) interrupted" })
      throw CLIError.failure(
        "the search is incomplete (\(RecoverCommand.grouped(searched)) of \(whole) candidates "
          + "searched; shard \(shards.joined(separator: ", "))): run those shards (again, they "
          + "resume with their --resume files) and collect once more")
    }
  }

  /// The results in `path`, in name order; at least one.
  private func readResults() throws -> [ShardResult] {
    guard let stream = opendir(path) else {
      throw CLIError.failure(
        "cannot read the directory \(path): \(String(cString: strerror(errno))): give the "
          + "directory the shards wrote their --json results to")
    }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasSuffix(".json"), !name.hasPrefix(".") { names.append(name) }
    }
    closedir(stream)
    guard !names.isEmpty else {
      throw CLIError.failure(
        "\(path) holds no .json results: give the directory the shards' --json output went to")
    }
    return try names.sorted().map { name in
      let file = path.hasSuffix("/") ? path + name : path + "/" + name
      guard let bytes = try ExportFiles.read(file) else {
        throw CLIError.failure("\(file) disappeared while it was read: collect again")
      }
      return try ShardResult(file: file, bytes: bytes.withUnsafeBytes { Array($0) })
    }
  }

  private static func json(_ result: ShardResult) -> JSONValue {
    var object: JSONObject = [
      "shard": .number(UInt64(result.index)), "file": .string(result.file),
      "complete": .bool(result.complete), "found": .bool(result.found),
      "changes": .array(
        result.changes.map {
          .object([
            "position": .number($0.position), "word": .string($0.word), "was": .string($0.was),
          ])
        }),
    ]
    if let matched = result.matched { object.append("matched", .string(matched)) }
    object.append("candidates", .number(result.candidates))
    object.append("searched", .number(result.searched))
    object.append("checksumValid", .number(result.checksumValid))
    return .object(object)
  }

  private func text(
    _ status: Status, _ results: [ShardResult], count: Int, missing: [Int], incomplete: [Int]
  ) -> String {
    var lines: [String] = []
    for result in results where result.found {
      lines.append("found by shard \(result.index) of \(count) (\(result.file))")
      for change in result.changes {
        let was = change.was.isEmpty ? "missing" : "'\(change.was)'"
        lines.append("word \(change.position) is '\(change.word)' (was \(was))")
      }
      if result.changes.isEmpty { lines.append("the phrase was right as remembered") }
      lines.append("matched \(result.matched ?? "")")
    }
    let candidates = results.reduce(0) { $0 + $1.candidates }
    let searched = results.reduce(0) { $0 + $1.searched }
    lines.append(
      "\(results.count) of \(count) shards: \(RecoverCommand.grouped(searched)) of "
        + "\(RecoverCommand.grouped(candidates)) candidates searched")
    if !missing.isEmpty {
      lines.append("missing: shard " + missing.map(String.init).joined(separator: ", "))
    }
    if !incomplete.isEmpty {
      lines.append("interrupted: shard " + incomplete.map(String.init).joined(separator: ", "))
    }
    if status == .exhausted { lines.append("every shard searched everything; none matched") }
    if status == .found {
      lines.append("run the found shard again with --out FILE to write the corrected phrase")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

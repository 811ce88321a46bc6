/// The part results of one search, merged: found (by which part), exhausted (every part
/// searched everything), or incomplete (which parts are missing, interrupted or still running).
/// Results of another kind (phrase and password parts), of another file, of another search
/// (other words, passphrases, passwords, damage options or targets: the public hash differs) or
/// of another split are refused, and so are counts that cannot be true.
package struct ShardCollection: Sendable {
  package enum Status: String, Sendable {
    case found, exhausted, incomplete
  }

  /// One part's result and the file it came from.
  package typealias Entry = (file: String, result: ShardResult)

  package let status: Status
  /// What the search looked for, and for a password the file's hash (`ShardResult.file`).
  package let kind: ShardResult.Kind
  package let file: [UInt8]?
  /// The number of parts the search was cut into.
  package let count: Int
  /// The results read, by part.
  package let results: [Entry]
  /// Parts with no result.
  package let missing: [Int]
  /// Parts whose result says they stopped before their end.
  package let interrupted: [Int]
  /// Files still being written (empty or cut short): their parts are running, or stopped.
  package let unfinished: [String]
  /// The candidates of the parts read, and how many of them were searched.
  package let candidates: UInt64
  package let searched: UInt64
  /// The whole search's candidates and public hash.
  package let searchCandidates: UInt64
  package let search: [UInt8]

  /// Merges the files' contents, in the order given.
  package init(files: [(name: String, bytes: [UInt8])]) throws(ShardCollectionError) {
    var entries: [Entry] = []
    var unfinished: [String] = []
    for (name, bytes) in files {
      do throws(ShardResultError) {
        entries.append((name, try ShardResult(json: bytes)))
      } catch .unfinished {
        unfinished.append(name)
      } catch {
        throw .unreadable(file: name, error)
      }
    }
    guard let first = entries.first else {
      throw unfinished.isEmpty ? .noResults : .allUnfinished(unfinished)
    }
    var byPart: [Int: Entry] = [:]
    for entry in entries {
      let result = entry.result
      guard result.kind == first.result.kind else {
        throw .otherKind(file: entry.file, kind: result.kind, first: first.file)
      }
      guard result.file == first.result.file else {
        throw .otherFile(file: entry.file, first: first.file)
      }
      guard result.search == first.result.search,
        result.searchCandidates == first.result.searchCandidates
      else { throw .otherSearch(file: entry.file, first: first.file, kind: result.kind) }
      guard result.count == first.result.count else {
        throw .otherSplit(
          file: entry.file, index: result.index, count: result.count, first: first.file,
          firstCount: first.result.count)
      }
      if let other = byPart[result.index] {
        throw .duplicate(first: other.file, second: entry.file, index: result.index)
      }
      byPart[result.index] = entry
    }
    let count = first.result.count
    let ordered = byPart.keys.sorted().compactMap { byPart[$0] }
    var candidates: UInt64 = 0
    var searched: UInt64 = 0
    for (_, result) in ordered {
      let (sum, overflow) = candidates.addingReportingOverflow(result.candidates)
      guard !overflow, sum <= result.searchCandidates else {
        throw .countsExceedSearch(searchCandidates: result.searchCandidates)
      }
      candidates = sum
      searched += result.searched  // at most `candidates`: each part's is
    }
    let missing = (1...count).filter { byPart[$0] == nil }
    if missing.isEmpty, candidates != first.result.searchCandidates {
      throw .countsDoNotAddUp(
        count: count, candidates: candidates, searchCandidates: first.result.searchCandidates)
    }
    let interrupted = ordered.filter { !$0.result.complete }.map(\.result.index)
    self.count = count
    kind = first.result.kind
    file = first.result.file
    results = ordered
    self.missing = missing
    self.interrupted = interrupted
    self.unfinished = unfinished
    self.candidates = candidates
    self.searched = searched
    searchCandidates = first.result.searchCandidates
    search = first.result.search
    status =
      ordered.contains(where: \.result.found)
      ? .found
      : missing.isEmpty && interrupted.isEmpty && unfinished.isEmpty
        ? .exhausted
        : .incomplete
  }

  /// The results that found the phrase.
  package var found: [Entry] { results.filter(\.result.found) }
}

/// Why part results cannot be merged. Each names files, never their content.
package enum ShardCollectionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No result was given.
  case noResults
  /// Every result is still being written (empty or cut short).
  case allUnfinished([String])
  /// A file is not a part result.
  case unreadable(file: String, ShardResultError)
  /// A result is of another kind (a phrase part among password parts, or the reverse) than
  /// the first one read; `kind` is its own.
  case otherKind(file: String, kind: ShardResult.Kind, first: String)
  /// A password part is of another file (another vault or keystore) than the first one read.
  case otherFile(file: String, first: String)
  /// A result is of another search (of the same kind) than the first one read.
  case otherSearch(file: String, first: String, kind: ShardResult.Kind = .phrase)
  /// A result is of the same search cut another number of ways.
  case otherSplit(file: String, index: Int, count: Int, first: String, firstCount: Int)
  /// Two results are of the same part.
  case duplicate(first: String, second: String, index: Int)
  /// The parts' candidates add up to more than the search has (or past 2^64).
  case countsExceedSearch(searchCandidates: UInt64)
  /// Every part is there, but their candidates do not add up to the search's.
  case countsDoNotAddUp(count: Int, candidates: UInt64, searchCandidates: UInt64)

  package var description: String {
    switch self {
    case .noResults: "no part results"
    case .allUnfinished(let files):
      "\(files.joined(separator: ", ")) \(files.count == 1 ? "is" : "are") empty or cut short: "
        + "their parts are still running, or stopped while writing"
    case .unreadable(let file, let error): "\(file): \(error)"
    case .otherKind(let file, let kind, let first):
      "\(file) is a part of a \(kind.rawValue) search, \(first) of a "
        + "\(kind == .phrase ? "password" : "phrase") search"
    case .otherFile(let file, let first):
      "\(file) is a part of a search for the password of another file than \(first)"
    case .otherSearch(let file, let first, .phrase):
      "\(file) is a shard of another search than \(first) (other words, passphrases, options "
        + "or targets)"
    case .otherSearch(let file, let first, .password):
      "\(file) is a part of another search than \(first) (other passwords, or the same ones "
        + "made another way)"
    case .otherSplit(let file, let index, let count, let first, let firstCount):
      "\(file) is shard \(index) of \(count), \(first) of \(firstCount)"
    case .duplicate(let first, let second, let index):
      "\(first) and \(second) are both shard \(index)"
    case .countsExceedSearch(let searchCandidates):
      "the shards' candidates add up to more than the search's \(searchCandidates)"
    case .countsDoNotAddUp(let count, let candidates, let searchCandidates):
      "the \(count) shards' candidates add up to \(candidates), not the search's "
        + "\(searchCandidates)"
    }
  }
}

import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How far a search got: which chunks of its candidate range are done, the counts so far, and
/// a match if one was found. It holds no phrase, only a hash of the search definition and, for
/// a match, which words differ from the phrase as remembered, so it cannot resume a different
/// search and alone does not give the phrase.
package struct RecoveryProgress: Sendable, Equatable {
  /// A match, recorded as the part of the search that held it and the words that differ from
  /// the remembered ones there; the phrase is derived again from the damaged phrase.
  package struct Match: Sendable, Equatable {
    /// The index of the search part that held the match.
    package let part: Int
    /// The index of the passphrase that matched, when the search tries several (nil: one).
    package var passphrase: Int? = nil
    /// The 1-based positions (in the recovered phrase) whose word is not the remembered one,
    /// increasing, each with its word's index in the wordlist.
    package let changes: [Change]

    /// One word of a match that differs from the remembered one.
    package struct Change: Sendable, Equatable {
      package let position: Int
      package let wordIndex: Int
    }
  }

  /// SHA-256 of the search definition (phrase sets, damage models, passphrase, targets, shard,
  /// chunk size).
  package let searchHash: [UInt8]
  /// Every chunk below this one is done.
  package internal(set) var doneBelow: Int
  /// Chunks above `doneBelow` that are done, increasing.
  package internal(set) var doneChunks: [Int]
  /// Candidates enumerated (checksum tested).
  package internal(set) var candidates: UInt64
  /// Candidates that passed the checksum.
  package internal(set) var checksumValid: UInt64
  /// Candidates whose seed was derived and compared with the targets.
  package internal(set) var checked: UInt64
  /// Time spent searching, over every run.
  package internal(set) var seconds: Double
  /// The match found, recorded in the same step that marks its chunk done.
  package internal(set) var match: Match?
  /// The part of the search (1-based `index` of `count`), to say so when the checkpoint is
  /// given to another part; nil in checkpoints of earlier versions.
  package internal(set) var shard: Shard?
  /// `PhraseRecovery.shapeHash` (public), to tell other options or targets from other words or
  /// passphrases when the checkpoint does not fit; nil in checkpoints of earlier versions.
  package internal(set) var shape: [UInt8]?

  /// A part of a search: `index` of `count`, 1-based.
  package struct Shard: Sendable, Equatable {
    package let index: Int
    package let count: Int
  }

  init(searchHash: [UInt8], shard: (Int, Int)? = nil, shape: [UInt8]? = nil) {
    self.searchHash = searchHash
    self.shard = shard.map { Shard(index: $0.0, count: $0.1) }
    self.shape = shape
    doneBelow = 0
    doneChunks = []
    candidates = 0
    checksumValid = 0
    checked = 0
    seconds = 0
  }

  static let format = "freedom-keys recover checkpoint 1"

  /// The checkpoint as one JSON object.
  package func jsonBytes() -> [UInt8] {
    let seconds = (self.seconds * 1000).rounded() / 1000
    var text =
      "{\"format\": \"\(Self.format)\", \"search\": \"\(Hex.encode(searchHash))\", "
      + "\"doneBelow\": \(doneBelow), \"doneChunks\": [\(doneChunks.map(String.init).joined(separator: ", "))], "
      + "\"candidates\": \(candidates), \"checksumValid\": \(checksumValid), \"checked\": \(checked), "
      + "\"milliseconds\": \(UInt64(seconds * 1000))"
    if let shard { text += ", \"shard\": [\(shard.index), \(shard.count)]" }
    if let shape { text += ", \"shape\": \"\(Hex.encode(shape))\"" }
    if let match {
      let changes = match.changes.map { "[\($0.position), \($0.wordIndex)]" }
      let passphrase = match.passphrase.map { ", \"passphrase\": \($0)" } ?? ""
      text +=
        ", \"found\": {\"part\": \(match.part)\(passphrase), "
        + "\"changes\": [\(changes.joined(separator: ", "))]}"
    }
    return Array((text + "}\n").utf8)
  }

  /// Reads a checkpoint written by `jsonBytes()`. Whether it fits a search is
  /// `PhraseRecovery.validate(_:)`'s to say.
  package init(json: some ContiguousBytes) throws(RecoveryCheckpointError) {
    let parsed: Result<RecoveryProgress, RecoveryCheckpointError> = json.withUnsafeBytes { raw in
      do throws(RecoveryCheckpointError) {
        return .success(try Self.parse(raw))
      } catch {
        return .failure(error)
      }
    }
    self = try parsed.get()
  }

  private static func parse(_ raw: UnsafeRawBufferPointer) throws(RecoveryCheckpointError)
    -> RecoveryProgress
  {
    let root: JSONNode
    do {
      root = try JSONText.parse(raw)
    } catch {
      throw .malformed(error.description)
    }
    guard case .object = root.kind else { throw .malformed("it is not a JSON object") }
    func member(_ name: String, of node: JSONNode = root) throws(RecoveryCheckpointError)
      -> JSONNode
    {
      let found = node.members(named: name)
      guard found.count == 1 else { throw .malformed("it needs exactly one \"\(name)\"") }
      return found[0].value
    }
    func whole(_ node: JSONNode, _ name: String) throws(RecoveryCheckpointError) -> UInt64 {
      guard let value = JSONText.unsignedInteger(node, in: raw) else {
        throw .malformed("\"\(name)\" is not a whole number")
      }
      return value
    }
    func number(_ name: String) throws(RecoveryCheckpointError) -> UInt64 {
      try whole(try member(name), name)
    }
    /// A chunk, part, position or word number: it must fit an `Int`.
    func index(_ node: JSONNode, _ name: String) throws(RecoveryCheckpointError) -> Int {
      guard let value = Int(exactly: try whole(node, name)) else {
        throw .malformed("\"\(name)\" is out of range")
      }
      return value
    }
    func array(_ node: JSONNode, _ name: String) throws(RecoveryCheckpointError) -> [JSONNode] {
      guard case .array(let elements) = node.kind else {
        throw .malformed("\"\(name)\" is not an array")
      }
      return elements
    }
    let format = try member("format")
    guard JSONText.isString(format), JSONText.string(format, in: raw) == Self.format else {
      throw .malformed("it is not a freedom-keys recover checkpoint")
    }
    let hash = try member("search")
    guard JSONText.isString(hash), let bytes = Hex.decode(JSONText.string(hash, in: raw)),
      bytes.count == SHA256.byteCount
    else { throw .malformed("\"search\" is not a SHA-256 in hex") }
    var progress = RecoveryProgress(searchHash: bytes)
    progress.doneBelow = try index(try member("doneBelow"), "doneBelow")
    var done: [Int] = []
    for chunk in try array(try member("doneChunks"), "doneChunks") {
      let value = try index(chunk, "doneChunks")
      guard value > done.last ?? progress.doneBelow else {
        throw .malformed(
          "\"doneChunks\" must list distinct chunks above \"doneBelow\" in increasing order")
      }
      done.append(value)
    }
    progress.doneChunks = done
    progress.candidates = try number("candidates")
    progress.checksumValid = try number("checksumValid")
    progress.checked = try number("checked")
    progress.seconds = Double(try number("milliseconds")) / 1000
    if let shard = root.members(named: "shard").first?.value {
      let numbers = try array(shard, "shard")
      guard numbers.count == 2 else { throw .malformed("\"shard\" is [index, count]") }
      progress.shard = Shard(
        index: try index(numbers[0], "shard"), count: try index(numbers[1], "shard"))
    }
    if let shape = root.members(named: "shape").first?.value {
      guard JSONText.isString(shape), let bytes = Hex.decode(JSONText.string(shape, in: raw)),
        bytes.count == SHA256.byteCount
      else { throw .malformed("\"shape\" is not a SHA-256 in hex") }
      progress.shape = bytes
    }
    let found = root.members(named: "found")
    guard found.count <= 1 else { throw .malformed("it needs at most one \"found\"") }
    if let found = found.first?.value {
      guard case .object = found.kind else { throw .malformed("\"found\" is not an object") }
      let part = try index(try member("part", of: found), "part")
      let passphrases = found.members(named: "passphrase")
      guard passphrases.count <= 1 else {
        throw .malformed("\"found\" needs at most one \"passphrase\"")
      }
      let passphrase = try passphrases.first.map { node throws(RecoveryCheckpointError) in
        try index(node.value, "passphrase")
      }
      var changes: [Match.Change] = []
      for pair in try array(try member("changes", of: found), "changes") {
        let numbers = try array(pair, "changes")
        guard numbers.count == 2 else {
          throw .malformed("each of \"changes\" is [position, word]")
        }
        let position = try index(numbers[0], "changes")
        let word = try index(numbers[1], "changes")
        guard position > changes.last?.position ?? 0 else {
          throw .malformed("\"changes\" must name distinct positions in increasing order")
        }
        changes.append(Match.Change(position: position, wordIndex: word))
      }
      progress.match = Match(part: part, passphrase: passphrase, changes: changes)
    }
    return progress
  }
}

/// Why a checkpoint file cannot be used.
package enum RecoveryCheckpointError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not a checkpoint this version wrote.
  case malformed(String)
  /// The checkpoint belongs to another search (other words, models, passphrase, targets or
  /// shard).
  case otherSearch
  /// The checkpoint carries this search's hash but what it says cannot be true of the search
  /// (a chunk or count out of range, a match the search does not hold): it was changed.
  case inconsistent(String)
  /// The match the checkpoint records is not one of this search's targets any more.
  case matchFailsTargets
  /// The checkpoint is of part `index` of `count`; this run searches part `runIndex` of
  /// `runCount`.
  case otherPart(index: Int, count: Int, runIndex: Int, runCount: Int)
  /// The checkpoint is of a search with other damage options or targets.
  case otherOptions
  /// The checkpoint is of a search with the same options and targets but other words or
  /// passphrases.
  case otherWordsOrPassphrases
  /// The passphrase candidates file read line by line cannot be read, or changed since it was
  /// counted: the search stopped.
  case candidates(CandidateFileError)

  package var description: String {
    switch self {
    case .malformed(let reason):
      "the checkpoint cannot be read: \(reason)"
    case .otherSearch:
      "the checkpoint belongs to a different search (other words, options, passphrase, "
        + "targets or shard)"
    case .inconsistent(let reason):
      "the checkpoint does not fit its search: \(reason)"
    case .matchFailsTargets:
      "the match the checkpoint records does not match the targets"
    case .otherPart(let index, let count, let runIndex, let runCount):
      "the checkpoint is of part \(index) of \(count), and this run searches part \(runIndex) "
        + "of \(runCount)"
    case .otherOptions:
      "the checkpoint belongs to a search with other damage options or targets"
    case .otherWordsOrPassphrases:
      "the checkpoint belongs to a search of other words or passphrases (the same options and "
        + "targets)"
    case .candidates(let error):
      "the passphrase candidates file: \(error)"
    }
  }
}

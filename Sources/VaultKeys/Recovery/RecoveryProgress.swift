import CryptoPrimitives

/// How far a search got: which chunks of its candidate range are done, and the counts so far.
/// It holds no word of the phrase, only a hash of the search definition, so a checkpoint file
/// reveals nothing about the phrase and cannot resume a different search.
public struct RecoveryProgress: Sendable, Equatable {
  /// SHA-256 of the search definition (phrase sets, damage models, passphrase, targets, shard,
  /// chunk size).
  public let searchHash: [UInt8]
  /// Every chunk below this one is done.
  public internal(set) var doneBelow: Int
  /// Chunks at or above `doneBelow` that are done, sorted.
  public internal(set) var doneChunks: [Int]
  /// Candidates enumerated (checksum tested).
  public internal(set) var candidates: UInt64
  /// Candidates that passed the checksum.
  public internal(set) var checksumValid: UInt64
  /// Candidates whose seed was derived and compared with the targets.
  public internal(set) var checked: UInt64
  /// Time spent searching, over every run.
  public internal(set) var seconds: Double

  init(searchHash: [UInt8]) {
    self.searchHash = searchHash
    doneBelow = 0
    doneChunks = []
    candidates = 0
    checksumValid = 0
    checked = 0
    seconds = 0
  }

  static let format = "freedom-keys recover checkpoint 1"

  /// The checkpoint as one JSON object.
  public func jsonBytes() -> [UInt8] {
    let seconds = (self.seconds * 1000).rounded() / 1000
    let text =
      "{\"format\": \"\(Self.format)\", \"search\": \"\(Hex.encode(searchHash))\", "
      + "\"doneBelow\": \(doneBelow), \"doneChunks\": [\(doneChunks.map(String.init).joined(separator: ", "))], "
      + "\"candidates\": \(candidates), \"checksumValid\": \(checksumValid), \"checked\": \(checked), "
      + "\"milliseconds\": \(UInt64(seconds * 1000))}\n"
    return Array(text.utf8)
  }

  /// Reads a checkpoint written by `jsonBytes()`.
  public init(json: [UInt8]) throws(RecoveryCheckpointError) {
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
    func member(_ name: String) throws(RecoveryCheckpointError) -> JSONNode {
      let found = root.members(named: name)
      guard found.count == 1 else { throw .malformed("it needs exactly one \"\(name)\"") }
      return found[0].value
    }
    func number(_ name: String) throws(RecoveryCheckpointError) -> UInt64 {
      guard let value = JSONText.unsignedInteger(try member(name), in: raw) else {
        throw .malformed("\"\(name)\" is not a whole number")
      }
      return value
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
    progress.doneBelow = Int(clamping: try number("doneBelow"))
    guard case .array(let chunks) = try member("doneChunks").kind else {
      throw .malformed("\"doneChunks\" is not an array")
    }
    var done: [Int] = []
    for chunk in chunks {
      guard let value = JSONText.unsignedInteger(chunk, in: raw) else {
        throw .malformed("\"doneChunks\" holds something other than chunk numbers")
      }
      done.append(Int(clamping: value))
    }
    progress.doneChunks = done.sorted()
    progress.candidates = try number("candidates")
    progress.checksumValid = try number("checksumValid")
    progress.checked = try number("checked")
    progress.seconds = Double(try number("milliseconds")) / 1000
    return progress
  }
}

/// Why a checkpoint file cannot be used.
public enum RecoveryCheckpointError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not a checkpoint this version wrote.
  case malformed(String)
  /// The checkpoint belongs to another search (other words, models, passphrase, targets or
  /// shard).
  case otherSearch

  public var description: String {
    switch self {
    case .malformed(let reason):
      "the checkpoint cannot be read: \(reason)"
    case .otherSearch:
      "the checkpoint belongs to a different search (other words, options, passphrase, "
        + "targets or shard): give another --resume file, or the same options as before"
    }
  }
}

import CryptoPrimitives
import Wording

/// Why a password search cannot run or what it found cannot be used. Messages never quote a
/// password, and name no option: what can be changed is a typed `RecoveryRemedy`.
package enum PasswordRecoveryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Neither a remembered password nor any candidate was given, or the candidates file holds
  /// no line.
  case noPasswords
  /// The passwords or candidates given are not valid UTF-8 text.
  case invalidUTF8
  /// The passwords to try would be more than can be held or numbered (about this many, before
  /// duplicates are dropped).
  case tooManyPasswords(UInt64)
  /// The typos asked for would make up to this many passwords: too many to count before the
  /// search (`TypoTree.maximumWalk`).
  case tooManyPasswordsToCount(UInt64)
  /// A line of a token list holds a token that is only an anchor (`^`, `$`), or a `+` alone.
  case invalidTokenLine(Int)
  /// A line of a token list holds a wildcard or anchor that is not read (or a count or range
  /// out of bounds): its number.
  case unsupportedToken(Int)
  /// A token list has more lines than `PasswordTokens.maximumLines`.
  case tooManyTokenLines(Int)
  /// A checkpoint is not one a password search wrote (edited, damaged, another file).
  case malformedCheckpoint
  /// A checkpoint is of another password search (another file, other passwords).
  case otherSearch
  /// A checkpoint is of part `index` of `count` of the search, not the part run (1 of 1: the
  /// search not cut into parts).
  case otherPart(index: Int, count: Int)
  /// One try of the file's scrypt needs more memory (`needed` bytes) than the search may
  /// take (`available` bytes: what the machine has available, at most
  /// `Scrypt.maximumMemoryByteCount` for every thread together).
  case notEnoughMemory(needed: UInt64, available: UInt64)
  /// The checkpoint says more passwords were tried than the search has: changed or damaged.
  case checkpointPastEnd(doneBelow: Int, count: Int)
  /// The key derivation could not run (scrypt's memory could not be had): why.
  case kdfFailed(String)
  /// The candidates file read line by line cannot be read, or changed since it was counted.
  case candidates(CandidateFileError)
  /// A password gave the file's MAC or tag, but the file does not open with it as the app would
  /// open it (the key does not match the address, the vault holds no mnemonic): why.
  case damagedFile(String)

  /// The one line for this error, its remedies typed (`RecoveryRemedy`) for a tool to word.
  package var message: RecoveryMessage {
    switch self {
    case .noPasswords:
      "there is no password to try: give the password as remembered or a list of candidates, "
        + "one a line"
    case .invalidUTF8:
      "the password candidates are not valid UTF-8 text"
    case .tooManyPasswords(let count):
      "the passwords to try would be more than \(RecoveryText.grouped(count)), more than can "
        + "be held or numbered: \(remedy: .fewerPasswords)"
    case .tooManyPasswordsToCount(let bound):
      "the typos asked for would make up to \(RecoveryText.grouped(bound)) passwords, too many "
        + "to count before the search: \(remedy: .fewerPasswords)"
    case .invalidTokenLine(let line):
      "line \(line) of the token list holds a token that is only an anchor (^ or $) or a + "
        + "with no token: write the tokens of a line separated by spaces"
    case .unsupportedToken(let line):
      "line \(line) of the token list holds a wildcard or anchor that cannot be read (or a "
        + "count out of bounds): write it with the wildcards and anchors the recovery manual "
        + "lists"
    case .tooManyTokenLines(let count):
      "the token list has \(count) lines of tokens; at most \(PasswordTokens.maximumLines) "
        + "can be searched: merge or drop some"
    case .malformedCheckpoint:
      "it is not a password search's checkpoint (changed or damaged)"
    case .otherSearch:
      "it is the checkpoint of another search (another file, or other passwords)"
    case .otherPart(let index, let count):
      count == 1
        ? "it is the checkpoint of the whole search, not of one part of it"
        : "it is the checkpoint of part \(index) of \(count) of the search, not of this part"
    case .notEnoughMemory(let needed, let available):
      "one try of the file's scrypt needs "
        + "\(RecoveryText.grouped(RecoveryText.mebibytes(needed, roundedUp: true))) MiB of "
        + "memory, more than the \(RecoveryText.grouped(RecoveryText.mebibytes(available))) MiB "
        + "this search may take (what this machine has available, at most "
        + "\(RecoveryText.grouped(Scrypt.maximumMemoryByteCount >> 20)) MiB for every thread "
        + "together): free memory, or search on a machine with more"
    case .checkpointPastEnd(let doneBelow, let count):
      "the checkpoint says the first \(RecoveryText.grouped(UInt64(doneBelow))) passwords were "
        + "tried, and the search has \(RecoveryText.grouped(UInt64(count))): it was changed or "
        + "damaged"
    case .kdfFailed(let reason):
      "the key derivation could not run: \(reason)"
    case .damagedFile(let reason):
      "a password matched the file's check, but the file does not open with it: \(reason)"
    case .candidates(let error):
      "the password candidates file: \(error)"
    }
  }

  /// The message in the library's own words.
  package var description: String { message.rendered(\.plainWording) }
}

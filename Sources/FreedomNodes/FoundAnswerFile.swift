import CryptoPrimitives
import NodeFiles

/// Where a search writes what it found (a phrase, a passphrase, a password), by one rule for
/// every search, so that an answer found is never lost to a file: the new file asked for;
/// failing that (it appeared meanwhile, its folder went, the disk filled), a new file beside it
/// (`FILE.1` … `FILE.9`); failing that too, nowhere, for the caller to print it.
package enum FoundAnswerFile {
  /// Where an answer went.
  package enum Place: Equatable, Sendable {
    /// The file asked for.
    case asked(path: String)
    /// A new file beside the one asked for, which could not be written (`reason`).
    case beside(path: String, asked: String, reason: SecureFileError)
    /// No file: the one asked for could not be written (`reason`), nor one beside it.
    case nowhere(asked: String, reason: SecureFileError)

    /// The file the answer is in; nil when it is in none.
    package var path: String? {
      switch self {
      case .asked(let path), .beside(let path, _, _): path
      case .nowhere: nil
      }
    }
  }

  /// How many names beside the one asked for are tried.
  package static let besideCount = 9

  /// Writes `bytes` to a new file (mode 0600) at `path`, else beside it; never replaces a file.
  package static func write(_ bytes: SecureBytes, to path: String) -> Place {
    let reason: SecureFileError
    do {
      try UserFiles.write(bytes, to: path, mode: 0o600, replacing: false)
      return .asked(path: path)
    } catch {
      reason = error
    }
    for number in 1...besideCount {
      let beside = "\(path).\(number)"
      do {
        try UserFiles.write(bytes, to: beside, mode: 0o600, replacing: false)
        return .beside(path: beside, asked: path, reason: reason)
      } catch .alreadyExists {
        continue
      } catch {
        break
      }
    }
    return .nowhere(asked: path, reason: reason)
  }
}

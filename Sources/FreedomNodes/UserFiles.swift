import CryptoPrimitives
import NodeFiles

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The files a user names outside every node directory (a vault backup, a keystore, a
/// checkpoint, a new mnemonic): read with the engine's one reader, written as key files are
/// (a temporary file in the same directory, its mode set with fchmod, fsync, rename).
package enum UserFiles {
  /// The bytes of the regular file at `path` (links followed), or nil when there is none.
  package static func read(_ path: String) throws(NodeFileError) -> SecureBytes? {
    try NodeFileReader.read(path)
  }

  /// Writes `bytes` to `path` with `mode`; an existing file is replaced only when `replacing`
  /// (else `.alreadyExists`).
  package static func write(
    _ bytes: some ContiguousBytes, to path: String, mode: UInt32, replacing: Bool
  ) throws(SecureFileError) {
    try SecureFileWriter.write(
      bytes, to: path, mode: mode, replace: replacing ? .replace : .refuseExisting)
  }
}

/// What an export moved aside, and where.
package typealias KeptAside = NodeChangeResult.KeptAside
/// A change an earlier run left unfinished, and what became of it.
package typealias InterruptedChange = NodeDirectory.InterruptedChange

extension NodeSession {
  /// The folder in a node directory that holds what exports replaced.
  package static let backupFolder = NodeLayout.replacedName
}

extension UserFiles {
  /// Why the files of a directory a user names cannot be read.
  package enum DirectoryError: Error, Equatable, Sendable {
    /// The directory cannot be listed; `reason` is the system's explanation.
    case unlistable(reason: String)
    /// It holds no file with the extension asked for.
    case empty
    /// A file listed was gone when it was read.
    case disappeared(file: String)
    /// A file listed cannot be read: the reader's message.
    case unreadable(message: String)
  }

  /// The files of `directory` whose names end in `suffix` (hidden ones left out), in name
  /// order, each with its bytes: a directory of results, read as a whole.
  package static func files(in directory: String, endingIn suffix: String) throws(DirectoryError)
    -> [(name: String, bytes: [UInt8])]
  {
    let entries: [String]
    do {
      entries = try NodeFileReader.names(inDirectory: directory)
    } catch {
      throw .unlistable(reason: error.reason)
    }
    let names = entries.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted()
    guard !names.isEmpty else { throw .empty }
    var files: [(name: String, bytes: [UInt8])] = []
    for name in names {
      let file = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      let bytes: SecureBytes?
      do {
        bytes = try read(file)
      } catch {
        throw .unreadable(message: error.message)
      }
      guard let bytes else { throw .disappeared(file: file) }
      files.append((file, bytes.withUnsafeBytes { Array($0) }))
    }
    return files
  }
}

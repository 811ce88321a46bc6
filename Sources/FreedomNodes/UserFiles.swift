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
public enum UserFiles {
  /// The bytes of the regular file at `path` (links followed), or nil when there is none.
  public static func read(_ path: String) throws(NodeFileError) -> SecureBytes? {
    try NodeFileReader.read(path)
  }

  /// Writes `bytes` to `path` with `mode`; an existing file is replaced only when `replacing`
  /// (else `.alreadyExists`).
  public static func write(
    _ bytes: some ContiguousBytes, to path: String, mode: UInt32, replacing: Bool
  ) throws(SecureFileError) {
    try SecureFileWriter.write(
      bytes, to: path, mode: mode, replace: replacing ? .replace : .refuseExisting)
  }
}

/// What an export moved aside, and where.
public typealias KeptAside = NodeChangeResult.KeptAside
/// A change an earlier run left unfinished, and what became of it.
public typealias InterruptedChange = NodeDirectory.InterruptedChange

extension NodeSession {
  /// The folder in a node directory that holds what exports replaced.
  public static let backupFolder = NodeLayout.replacedName
}

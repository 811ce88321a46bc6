import CommandLineKit
import CryptoPrimitives
import NodeFiles

/// Reads the files a user names on the command line (a vault backup, a keystore, a checkpoint)
/// with NodeFiles' one reader. Node directories are read by FreedomNodes, not here.
enum ExportFiles {
  /// The bytes of the regular file at `path`, or nil when there is none.
  static func read(_ path: String) throws(CLIError) -> SecureBytes? {
    do {
      return try NodeFileReader.read(path)
    } catch {
      throw .failure(error.message)
    }
  }
}

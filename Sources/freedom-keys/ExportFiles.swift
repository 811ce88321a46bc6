import CommandLineKit
import CryptoPrimitives
import FreedomNodes

/// Reads the files a user names on the command line (a vault backup, a keystore, a checkpoint)
/// with the engine's one reader (`UserFiles`). Node directories are read by FreedomNodes, not here.
enum ExportFiles {
  /// The bytes of the regular file at `path`, or nil when there is none.
  static func read(_ path: String) throws(CLIError) -> SecureBytes? {
    do {
      return try UserFiles.read(path)
    } catch {
      throw .failure(error.message)
    }
  }
}

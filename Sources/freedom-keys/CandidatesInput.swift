import CommandLineKit
import CryptoPrimitives
import Recovery

/// Reads a candidates file (`--password-candidates`, `--passphrase-candidates`): held whole
/// when it is small (at most 64 MiB and 2^23 lines), as before; read line by line as the
/// search takes it when it is larger, never held.
enum CandidatesInput {
  static func read(role: String, path: String) throws -> CandidateLines.File {
    let source = SecretSource(role: role, path: path)
    if !CandidateLines.isLarge(path: path) {
      let file = try SecretInput.read(source, limit: CandidateLines.Threshold.held.bytes)
      guard path != "-", CandidateLines.hasTooManyLines(file) else { return .held(file) }
      // Its mode was warned of already.
      return .lines(try lines(source, warnsIfShared: false))
    }
    return .lines(try lines(source, warnsIfShared: true))
  }

  private static func lines(_ source: SecretSource, warnsIfShared: Bool) throws -> CandidateLines {
    do {
      return try CandidateLines(
        path: source.path ?? "-", warning: warnsIfShared ? { Output.warning($0) } : nil)
    } catch {
      throw CLIError.failure("\(source): \(error)")
    }
  }
}

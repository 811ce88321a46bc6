import CommandLineKit
import FoundationEssentials
import FreedomNodes
import Wording

/// The checkpoint of a search run, `recover`'s or `recover password`'s: the file `--resume`
/// names, checked before the search, or else the one a search keeps by itself in
/// `$XDG_STATE_HOME/freedom-keys` (so that Ctrl-C never throws the work away), removed when the
/// search ends. What each says when the run stops, and after the answer when it could not be
/// written.
struct SearchCheckpoint {
  /// The file, nil when none can be kept (no `--resume`, and no state folder to keep one in).
  let file: CheckpointFile?
  /// Whether `--resume` named it.
  let isNamed: Bool

  var path: String { file?.path ?? "" }

  /// `--resume`'s file, refused before the search when it cannot be written; else the
  /// checkpoint kept by itself under `name` (with a warning, and none, when it cannot be).
  static func prepare(resumePath: String?, name: String?) throws -> SearchCheckpoint {
    if let resumePath {
      let file = CheckpointFile(path: resumePath)
      do {
        try file.checkWritable()
      } catch {
        throw CLIError.failure("--resume cannot keep its checkpoint: \(error.reason)")
      }
      return SearchCheckpoint(file: file, isNamed: true)
    }
    guard let name else { return SearchCheckpoint(file: nil, isNamed: false) }
    do {
      let file = try CheckpointFile.kept(
        named: name, environment: ProcessInfo.processInfo.environment)
      if FileManager.default.fileExists(atPath: file.path) {
        // The folder comes from the environment: made one line before it reaches a terminal.
        Output.standardError(
          TerminalText.oneLine(
            "continuing from the checkpoint this search kept in \(file.path) (delete it to "
              + "search from the start)") + "\n")
      }
      return SearchCheckpoint(file: file, isNamed: false)
    } catch {
      Output.warning(
        "\(error): this search keeps no checkpoint; give --resume FILE to keep one")
      return SearchCheckpoint(file: nil, isNamed: false)
    }
  }

  /// The search ended (found, searched to its end, counted): a checkpoint kept by itself is no
  /// longer needed. `--resume`'s stays (it records a match, or that everything was searched).
  func searchEnded() {
    guard let file, !isNamed else { return }
    do {
      try file.remove()
    } catch {
      Output.warning("\(error); it is no longer needed and can be deleted")
    }
  }

  /// How to continue a search that stopped: "run the same command again to continue from
  /// FILE", for a checkpoint kept by itself the command with `--resume FILE`; `failure`: why
  /// its last save failed.
  func resumeHint(failure: String?) -> String {
    guard let file else { return "give --resume FILE to keep a checkpoint and continue later" }
    if let failure { return "\(failure): a next run continues from its last save, if any" }
    if isNamed { return "run the same command again to continue from \(file.path)" }
    let arguments = CommandLine.arguments.dropFirst() + ["--resume", file.path]
    guard let quoted = Self.shellWords(Array(arguments)) else {
      return "the checkpoint is kept in \(file.path): run the same command again with --resume "
        + "\(file.path) to continue"
    }
    return "the checkpoint is kept in \(file.path) (no word or password in it); to continue: "
      + "freedom-keys \(quoted)"
  }

  /// After the answer (never instead of it): the checkpoint could not be written at the end.
  func reportFailure(_ failure: String?) {
    guard let failure else { return }
    Output.warning(
      "\(failure); the answer above stands (the checkpoint only lets a run continue)")
  }

  /// `arguments` as a shell reads them back (each quoted by the one shell-quoting rule, an
  /// empty one as ''); nil when one holds a control character (it would act on the terminal,
  /// and cannot be shown as typed).
  static func shellWords(_ arguments: [String]) -> String? {
    guard
      !arguments.contains(where: { $0.unicodeScalars.contains(where: TerminalText.isControl) })
    else {
      return nil
    }
    return arguments.map { $0.isEmpty ? "''" : NodeMessage.shellQuoted($0) }
      .joined(separator: " ")
  }
}

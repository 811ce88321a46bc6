import CommandLineKit
import SystemCalls

// A crash must never write the process memory (seeds, keys) to a core file or to stderr.
CrashHandler.install()

/// Parses the command line, runs the command and maps the outcome to an exit status.
/// A function, so every secret the command held is released (and wiped) before `exit`.
func main(_ arguments: [String]) -> Int32 {
  let tool = FreedomKeys.tool
  do {
    switch try ArgumentParser.parse(arguments, of: tool) {
    case .help(let node):
      Output.standardOutput(HelpText.render(node))
    case .version:
      Output.standardOutput("\(tool.name) \(tool.version)\n")
    case .run(let command):
      try command.run()
    case .missingSubcommand(let node, let error):
      Output.standardError(HelpText.render(node) + "\n")
      throw error
    case .manualPages(let directory):
      try ManualPageFiles.write(ManualPages.pages(of: tool), into: directory)
    case .completionScript(let shell):
      Output.standardOutput(CompletionScript.script(for: shell, of: tool))
    }
    return 0
  } catch let error as CLIError {
    Output.error(error.description)
    return error.exitStatus
  } catch let error as any CLIWordedError {
    Output.error(error.cliDescription)
    return 1
  } catch {
    Output.error(String(describing: error))
    return 1
  }
}

// The arguments exactly as given: one that is not UTF-8 is refused, never decoded with U+FFFD
// (which would name another file).
switch CommandLineArguments.validated() {
case .success(let arguments): Platform.exit(main(arguments))
case .failure(let error):
  Output.error(error.description)
  Platform.exit(error.exitStatus)
}

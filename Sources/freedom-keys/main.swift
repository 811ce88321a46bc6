import Glibc

// A crash must never write the process memory (seeds, keys) to a core file or to stderr.
CrashHandler.install()

/// Parses the command line, runs the command and maps the outcome to an exit status.
/// A function, so every secret the command held is released (and wiped) before `exit`.
func main(_ arguments: [String]) -> Int32 {
  do {
    switch try ArgumentParser.parse(arguments, root: FreedomKeys.self) {
    case .help(let command, let commandPath):
      Output.standardOutput(
        HelpText.render(
          command, commandPath: commandPath,
          isRoot: ObjectIdentifier(command) == ObjectIdentifier(FreedomKeys.self)))
    case .version:
      Output.standardOutput("freedom-keys \(FreedomKeys.version)\n")
    case .run(let command):
      try command.run()
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
case .success(let arguments): exit(main(arguments))
case .failure(let error):
  Output.error(error.description)
  exit(error.exitStatus)
}

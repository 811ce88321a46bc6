import CommandLineKit
import CryptoPrimitives

// A crash must never write the process memory (seeds, keys) to a core file or to stderr.
CoreDumps.forbid()
CoreDumps.reportCrashes(
  with:
    "freedom-keys: error: stopped by a fatal signal; if you did not send it, please report this crash (nothing from memory is printed)\n"
)

// Parses the command line (each argument as its exact UTF-8 text), runs the command and exits
// with its status; a library error the CLI words itself names its options.
FreedomKeys.tool.main { error in
  (error as? any CLIWordedError)?.cliDescription ?? String(describing: error)
}

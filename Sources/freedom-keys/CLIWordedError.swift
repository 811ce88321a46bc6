/// A library error the CLI words itself (naming options, which a library never does): exit 1.
protocol CLIWordedError: Error {
  /// The one line the CLI prints for the error.
  var cliDescription: String { get }
}

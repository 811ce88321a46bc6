import SystemCalls

/// Writing to the standard streams without buffering surprises: results to standard output,
/// everything meant for the person (prompts, warnings, errors) to standard error.
package struct StandardStreams: Sendable {
  /// Writes a command's result.
  package var output: @Sendable (String) -> Void
  /// Writes what is meant for the person.
  package var error: @Sendable (String) -> Void

  package init(
    output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void
  ) {
    (self.output, self.error) = (output, error)
  }

  /// The process's standard output and standard error.
  package static let process = StandardStreams(
    output: { write($0, to: Platform.standardOutput) },
    error: { write($0, to: Platform.standardError) })

  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    _ = text.withUTF8 { Platform.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
  }
}

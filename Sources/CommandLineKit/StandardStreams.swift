import SystemCalls

/// Writing to the standard streams without buffering surprises: results to standard output,
/// everything meant for the person (prompts, warnings, errors) to standard error.
public struct StandardStreams: Sendable {
  /// Writes a command's result.
  public var output: @Sendable (String) -> Void
  /// Writes what is meant for the person.
  public var error: @Sendable (String) -> Void

  public init(
    output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void
  ) {
    (self.output, self.error) = (output, error)
  }

  /// The process's standard output and standard error.
  public static let process = StandardStreams(
    output: { write($0, to: Platform.standardOutput) },
    error: { write($0, to: Platform.standardError) })

  /// `message` with control characters (a newline in a file name, say) made visible as '?':
  /// a message is always one line.
  public static func oneLine(_ message: String) -> String {
    String(
      String.UnicodeScalarView(
        message.unicodeScalars.map {
          $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0
        }
      ))
  }

  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    _ = text.withUTF8 { Platform.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
  }
}

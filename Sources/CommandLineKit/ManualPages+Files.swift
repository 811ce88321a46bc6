import SystemCalls

/// Writing the man pages `--generate-manual DIR` asks for.
extension ManualPages {
  /// Writes each page into `directory` (created, with its parents, if it does not exist).
  package static func write(_ pages: [(fileName: String, text: String)], into directory: String)
    throws(CLIError)
  {
    try createDirectories(directory)
    for (fileName, text) in pages {
      try write(text, to: directory + "/" + fileName)
    }
  }

  /// `mkdir -p`, with mode 0755 for what it creates.
  private static func createDirectories(_ path: String) throws(CLIError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component + "/"
      if Platform.mkdir(path: prefix, 0o755) != 0, Platform.errno != Platform.exists {
        throw .failure(
          "cannot create the directory \(prefix): \(Platform.message(Platform.errno))")
      }
    }
    guard Platform.info(path: path)?.type == Platform.directoryType else {
      throw .failure("\(path) is not a directory; give --\(option.name) a directory")
    }
  }

  /// Writes `text` to `path` (mode 0644), replacing an older page.
  private static func write(_ text: String, to path: String) throws(CLIError) {
    let descriptor = Platform.open(
      path: path, Platform.writeOnly | Platform.create | Platform.truncate, 0o644)
    guard descriptor >= 0 else {
      throw .failure("cannot write \(path): \(Platform.message(Platform.errno))")
    }
    defer { _ = Platform.close(descriptor) }
    var text = text
    if let failure = text.withUTF8({ Platform.writeAll(descriptor, UnsafeRawBufferPointer($0)) }) {
      throw .failure("cannot write \(path): \(Platform.message(failure))")
    }
  }
}

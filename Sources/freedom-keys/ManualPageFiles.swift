import CommandLineKit
import Glibc

/// Writes the man pages `--generate-manual DIR` asks for.
enum ManualPageFiles {
  /// Writes each page into `directory` (created, with its parents, if it does not exist).
  static func write(_ pages: [(fileName: String, text: String)], into directory: String)
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
      if mkdir(prefix, 0o755) != 0, errno != EEXIST {
        throw .failure("cannot create the directory \(prefix): \(String(cString: strerror(errno)))")
      }
    }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw .failure("\(path) is not a directory; give --generate-manual a directory")
    }
  }

  /// Writes `text` to `path` (mode 0644), replacing an older page.
  private static func write(_ text: String, to path: String) throws(CLIError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .failure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var text = text
    let complete = text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
    guard complete else {
      throw .failure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
  }
}

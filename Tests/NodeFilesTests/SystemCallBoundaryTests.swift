import Foundation
import Testing

/// Every libc call of the package goes through SystemCalls' one `Platform.swift`, as
/// swift-system's `Syscalls.swift` is its only caller of libc: no other source imports Glibc,
/// words an errno, retries EINTR, reads a directory or resolves a path.
@Suite("SystemCalls: one Platform.swift for the package")
struct SystemCallBoundaryTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  /// Each Swift source below `Sources/<folder>` (path relative to it) with its text.
  static func files(in folder: String = "") throws -> [(String, String)] {
    let root = folder.isEmpty ? sources : sources.appendingPathComponent(folder)
    let names = try FileManager.default.subpathsOfDirectory(atPath: root.path)
    return try names.filter { $0.hasSuffix(".swift") }.sorted().map { name in
      (name, try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8))
    }
  }

  static let platform = "SystemCalls/Platform.swift"

  @Test func onlyPlatformSwiftImportsGlibc() throws {
    let files = try Self.files()
    #expect(files.count > 100)
    let importing = files.filter { _, text in
      text.split(separator: "\n").contains {
        $0.trimmingCharacters(in: .whitespaces) == "import Glibc"
      }
    }.map(\.0)
    #expect(importing == [Self.platform])
    let platform = try #require(files.first { $0.0 == Self.platform }?.1)
    #expect(platform.hasPrefix("#if canImport(Glibc)\n  import Glibc\n"))
  }

  @Test func oneErrnoWordingOneWriteLoopOneDirectoryListing() throws {
    for call in ["strerror(", "EINTR", "readdir(", "realpath(", "dlopen(", "pthread_create("] {
      let calling = try Self.files().filter { $0.1.contains(call) }.map(\.0)
      #expect(calling == [Self.platform], "\(call)")
    }
  }

  /// The CLI parses, calls the libraries and renders: it reaches no system layer itself.
  @Test func theCommandLineCallsNoSystemLayer() throws {
    let files = try Self.files(in: "freedom-keys")
    #expect(files.count > 20)
    for module in ["Glibc", "SystemCalls", "NodeFiles"] {
      let importing = files.filter { _, text in
        text.split(separator: "\n").contains { $0.hasSuffix("import \(module)") }
      }.map(\.0)
      #expect(importing.isEmpty, "\(module): \(importing)")
    }
  }

  @Test func oneMkdirOfAUserPath() throws {
    // SecureFileWriter.createDirectory and the node directory NodeDirectory.open creates share
    // DirectoryPath.make; below a node directory DirectoryDescriptor uses mkdirat.
    let making = try Self.files(in: "NodeFiles").filter { $0.1.contains("mkdir(") }.map(\.0)
    #expect(making == ["Files/DirectoryPath.swift"])
  }
}

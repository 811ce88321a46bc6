import Foundation
import Testing

/// Every platform call of NodeFiles goes through its one `Platform.swift`, as swift-system keeps
/// its platform differences in one file: no other source imports Glibc or words an errno.
@Suite("NodeFiles: one Platform.swift")
struct PlatformBoundaryTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/NodeFiles")

  /// Each Swift source of NodeFiles (relative path) with its text.
  static func files() throws -> [(String, String)] {
    let names = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
    return try names.filter { $0.hasSuffix(".swift") }.sorted().map { name in
      (name, try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8))
    }
  }

  @Test func onlyPlatformSwiftImportsGlibc() throws {
    let files = try Self.files()
    #expect(files.count > 10)
    let importing = files.filter { _, text in
      text.split(separator: "\n").contains {
        $0.trimmingCharacters(in: .whitespaces) == "import Glibc"
      }
    }.map(\.0)
    #expect(importing == ["Platform.swift"])
    let platform = try #require(files.first { $0.0 == "Platform.swift" }?.1)
    #expect(platform.hasPrefix("#if canImport(Glibc)\n  import Glibc\n"))
  }

  @Test func oneErrnoWording() throws {
    let wording = try Self.files().filter { $0.1.contains("strerror(") }.map(\.0)
    #expect(wording == ["Platform.swift"])
  }

  @Test func oneMkdirOfAUserPath() throws {
    // SecureFileWriter.createDirectory and the node directory NodeDirectory.open creates share
    // DirectoryPath.make; below a node directory DirectoryDescriptor uses mkdirat.
    let making = try Self.files().filter { $0.1.contains("mkdir(") }.map(\.0)
    #expect(making == ["Files/DirectoryPath.swift", "Platform.swift"])
  }
}

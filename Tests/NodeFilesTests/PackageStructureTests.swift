import Foundation
import Testing

/// The package's shape, checked rather than hoped: a format has one JSON reader, a node is one
/// folder of FreedomNodes, no type is named like a module, the products are the ones the README
/// documents, and the README is a front door.
@Suite("the package's structure")
struct PackageStructureTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The node kinds, each with its folder `Sources/FreedomNodes/<name>/`; a longer name first,
  /// so `AntdConfig` is antd's and `AntIdentity` Ant's.
  static let nodes = ["Antd", "Ant", "Bee", "Kubo", "Radicle", "Desktop"]

  /// What VaultKeys keeps though its name starts with a node's: desktop's encrypted vault (which
  /// recovery opens) and Radicle's DID, derived from the mnemonic like every other identity.
  static let derivationTypes: Set<String> = [
    "DesktopVault", "DesktopVaultError", "DesktopVaultEncryptionError", "RadicleIdentity",
    "RadicleIdentityError",
  ]

  /// A top-level `class`, `struct`, `enum`, `actor`, `protocol` or `extension` and its name.
  static var topLevel: Regex<AnyRegexOutput> {
    try! Regex(
      #"^(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*"#
        + #"(class|struct|enum|actor|protocol|extension)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
  }

  /// Each Swift source below `Sources` (path relative to it) with its text.
  static func sources() throws -> [(path: String, text: String)] {
    let sources = root.appendingPathComponent("Sources")
    let names = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
    return try names.filter { $0.hasSuffix(".swift") }.sorted().map { name in
      (name, try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8))
    }
  }

  /// The Swift modules: the folders of `Sources` that hold Swift files.
  static func modules(_ files: [(path: String, text: String)]) -> Set<String> {
    Set(files.map { String($0.path.prefix { $0 != "/" }) })
  }

  /// The node whose name `type` starts with (followed by an upper-case letter or nothing).
  static func node(of type: String) -> String? {
    nodes.first { node in
      guard type.hasPrefix(node) else { return false }
      return type.dropFirst(node.count).first.map(\.isUppercase) ?? true
    }
  }

  /// Where a file declares or extends a type, top level only: (kind, name).
  static func declarations(in text: String) -> [(kind: String, name: String)] {
    let topLevel = topLevel
    return text.split(separator: "\n").compactMap { line in
      guard let match = try? topLevel.prefixMatch(in: line) else { return nil }
      let kind = match.output[1].substring.map(String.init) ?? ""
      let name = match.output[2].substring.map(String.init) ?? ""
      return (kind, name)
    }
  }

  /// The places a type of a node is declared or extended outside its node's folder.
  static func misplacedNodeTypes(_ files: [(path: String, text: String)]) -> [String] {
    var misplaced: [String] = []
    for (path, text) in files {
      for (kind, name) in declarations(in: text) {
        guard let node = node(of: name) else { continue }
        if path.hasPrefix("FreedomNodes/\(node)/") { continue }
        if path.hasPrefix("VaultKeys/"), derivationTypes.contains(name) { continue }
        misplaced.append("\(path): \(kind) \(name)")
      }
    }
    return misplaced
  }

  @Test func noJSONDecoder() throws {
    // The package's one JSON reader is VaultKeys' JSONText: Foundation's decoder would be a
    // second reader of the same formats, with rules of its own.
    let files = try Self.sources()
    #expect(files.count > 100)
    let decoding = files.filter { $0.text.contains("JSONDecoder") }.map(\.path)
    #expect(decoding.isEmpty, "\(decoding)")
  }

  @Test func eachNodesTypesLiveInItsFolder() throws {
    let files = try Self.sources()
    for node in Self.nodes {
      #expect(files.contains { $0.path.hasPrefix("FreedomNodes/\(node)/") }, "\(node)")
    }
    #expect(Self.misplacedNodeTypes(files) == [])
  }

  @Test func theRuleFindsANodeTypeOutsideItsFolder() {
    let planted: [(path: String, text: String)] = [
      (
        "VaultKeys/KeyFiles/AntdConfig.swift",
        "import CryptoPrimitives\n\npublic struct AntdConfig {}\n"
      ),
      ("VaultKeys/DesktopVault.swift", "public struct DesktopVault: Sendable {\n}\n"),
      ("Recovery/Targets.swift", "extension DesktopVaultMeta {\n}\n"),
      ("FreedomNodes/Ant/AntdRules.swift", "enum AntdRules {}\n"),
      ("FreedomNodes/Antd/Antd.swift", "package struct Antd {\n  enum KuboLike {}\n}\n"),
      ("FreedomNodes/NodeFinding.swift", "public enum AntIdentityish {}\nstruct Bees {}\n"),
    ]
    #expect(
      Self.misplacedNodeTypes(planted) == [
        "VaultKeys/KeyFiles/AntdConfig.swift: struct AntdConfig",
        "Recovery/Targets.swift: extension DesktopVaultMeta",
        "FreedomNodes/Ant/AntdRules.swift: enum AntdRules",
        "FreedomNodes/NodeFinding.swift: enum AntIdentityish",
      ])
  }

  @Test func noTypeIsNamedLikeAModule() throws {
    // `PhraseRecovery.PhraseRecovery` reads as the module where the type is meant (and the
    // other way round), as swift-argument-parser's users learned of `ArgumentParser`.
    let files = try Self.sources()
    let modules = Self.modules(files)
    #expect(modules.isSuperset(of: ["VaultKeys", "NodeFiles", "FreedomNodes", "freedom-keys"]))
    let kinds = "(class|struct|enum|actor|protocol|typealias)"
    var named: [String] = []
    for module in modules.sorted() {
      let declaration = try Regex(#"(^|\s)"# + kinds + #"\s+"# + module + #"\b"#)
      for (path, text) in files where text.contains(declaration) {
        named.append("\(path): \(module)")
      }
    }
    #expect(named == [])
  }

  /// The products Package.swift declares.
  static func products(_ manifest: String) -> [String] {
    manifest.split(separator: "\n").compactMap { line in
      let text = line.trimmingCharacters(in: .whitespaces)
      guard text.hasPrefix(".library(") || text.hasPrefix(".executable(") else { return nil }
      return text
    }
  }

  @Test func atMostThreeProducts() throws {
    // The library people adopt and the executable; the other modules are the package's own.
    let manifest = try String(
      contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let products = Self.products(manifest)
    #expect(products.contains { $0.hasPrefix(".executable(name: \"freedom-keys\"") })
    #expect(products.count <= 3, "\(products)")
  }

  @Test func theREADMEIsAFrontDoor() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 200, "README.md has \(lines.count) lines")
    // The two commands of a fresh machine, and the line that adds the package to another.
    let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(trimmed.contains { $0.hasPrefix("scripts/freedom-keys derive ") })
    #expect(trimmed.contains("scripts/test"))
    #expect(trimmed.contains { $0.hasPrefix(".package(") })
  }
}

import Foundation
import TestSupport
import Testing

/// Issue 8, reproducer 8: a `--path` deeper than 255 levels is a usage error (exit 2) found
/// before the mnemonic is read or prompted for.
@Suite("path depth")
struct PathDepthTests {
  static func path(depth: Int) -> String { "m" + String(repeating: "/0'", count: depth) }

  @Test func pathDeeperThan255IsAUsageErrorBeforeAnyRead() throws {
    // The mnemonic file does not exist: reaching it would be exit 1, not 2.
    let missing = "/nonexistent-\(UUID().uuidString)/mnemonic"
    let run = try CLI.run(["derive", "--path", Self.path(depth: 256), "--mnemonic-file", missing])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: invalid --path: the derivation path has 256 levels: an extended key can be at most 255 levels deep (see 'freedom-keys derive --help')\n"
    )
  }

  @Test func pathDeeperThan255IsRefusedBeforeThePrompt() throws {
    // No --mnemonic-file: the mnemonic would be read from stdin; nothing is prompted or read.
    let run = try CLI.run(["derive", "--path", Self.path(depth: 300), "--curve", "ed25519"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "freedom-keys: error: invalid --path: the derivation path has 300 levels"))
  }

  @Test func depth255IsDerived() throws {
    let dir = try TemporaryDirectory()
    let mnemonic = try dir.file("m", SecretInputTests.mnemonic + "\n")
    let run = try CLI.run(["derive", "--path", Self.path(depth: 255), "--mnemonic-file", mnemonic])
    #expect(run.status == 0)
    #expect(run.stderr == "")
  }
}

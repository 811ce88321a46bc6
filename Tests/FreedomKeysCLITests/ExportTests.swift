import Foundation
import Glibc
import TestSupport
import Testing

/// Values of the published test mnemonics, from Tests/GoldenVectors/Vectors/freedom-desktop.json
/// (abandon…about) and recomputed with Python's bip_utils and eth-utils (legal winner…).
enum Golden {
  static let mnemonic = SecretInputTests.mnemonic
  static let swarmAddress = "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"
  static let swarmPrivateKey = DeriveTests.swarmPrivateKey
  static let swarmOverlay = "ffc594c6c113aedba5445e3b7405ea7845b605d562288a4491c7777ccd2b0279"
  static let peerID = "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW"
  static let privKey = DeriveTests.kuboPrivKey
  static let ipfsPrivateKey = DeriveTests.ipfsPrivateKey
  static let ipfsPublicKey = "91237ad5959a25e025487deebe7bbae444e5ac2dfcd6fd10442d43dd87ef5647"
  static let radicleDID = "did:key:z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn"
  static let radicleFingerprint = "SHA256:40DnrznWnBm9SGsgfPqOurDMkxMKNb3VzZd6P5At2A4"
  static let radiclePublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB+8GdHjhvmWnF55Jdcc5bMys5nuYysX9HQ6MkiCPiSL"

  static let otherMnemonic =
    "legal winner thank year wave sausage worth useful legal winner thank yellow"
  static let otherSwarmAddress = "0x0D3eB21b6b21833A4939Cfff4810E9AE0758e12C"
  static let otherPeerID = "12D3KooWNXaAWoQzdJrPkf2BtM48fPXV3CXuEaDfcSpd9Wpejiut"
  static let otherRadicleDID = "did:key:z6MkeUQ9N8WURkVFFn8jrdrmTQBWjLdrqwBsNUjtFVFTuEZi"
}

/// A scratch directory with both mnemonics in files, for running exports into real directories.
final class ExportFixture {
  let directory: TemporaryDirectory
  /// The abandon…about mnemonic file.
  let mnemonic: String
  /// The legal winner… mnemonic file.
  let otherMnemonic: String

  init() throws {
    directory = try TemporaryDirectory()
    mnemonic = try directory.file("mnemonic", Golden.mnemonic + "\n")
    otherMnemonic = try directory.file("other-mnemonic", Golden.otherMnemonic + "\n")
  }

  /// `name` inside the scratch directory.
  func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

  /// Writes `text` to `name` (mode 0600) and returns its path.
  func file(_ name: String, _ text: String) throws -> String { try directory.file(name, text) }

  /// `freedom-keys arguments… --mnemonic-file <abandon…, or legal winner… when other>`.
  func run(_ arguments: [String], other: Bool = false) throws -> CLIRun {
    try CLI.run(arguments + ["--mnemonic-file", other ? otherMnemonic : mnemonic])
  }
}

// MARK: - File helpers

/// The permission bits of `path`, or nil when nothing is there.
func fileMode(_ path: String) -> UInt32? {
  var info = stat()
  guard lstat(path, &info) == 0 else { return nil }
  return UInt32(info.st_mode & 0o7777)
}

/// The bytes of `path`, or nil when it cannot be read.
func contents(_ path: String) -> [UInt8]? {
  (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) }
}

/// The text of `path`, or nil when it cannot be read.
func text(_ path: String) -> String? {
  contents(path).map { String(decoding: $0, as: UTF8.self) }
}

/// Every path below `directory`, relative and sorted ("keys", "keys/swarm.key", …).
func tree(_ directory: String) -> [String] {
  (FileManager.default.subpaths(atPath: directory) ?? []).sorted()
}

/// The backup directory an export made in `directory` (`.freedom-keys.replaced/<UTC time>-<the
/// old identity>`, full path) when there is exactly one, and the tree of `directory` without
/// the backups.
func backup(in directory: String) -> (path: String?, rest: [String]) {
  let root = NodeLayoutNames.replaced
  let made = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + root)) ?? []
  return (
    made.count == 1 ? directory + "/" + root + "/" + made[0] : nil,
    tree(directory).filter { $0 != root && !$0.hasPrefix(root + "/") }
  )
}

/// The names freedom-keys keeps its backups under.
enum NodeLayoutNames {
  static let replaced = ".freedom-keys.replaced"
}

/// Creates `path` and its parents with mode 0700, as the nodes make theirs.
func makeDirectory(_ path: String) throws {
  try FileManager.default.createDirectory(
    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
}

/// The full path of `name` on PATH, if installed.
func executable(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
}

/// Runs a helper program; returns its status and standard output.
@discardableResult
func runTool(_ tool: String, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: tool)
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Sets or clears the immutable attribute (`chattr +i`), which stops even root from creating
/// files in a directory; false where the file system or the capabilities do not allow it.
func setImmutable(_ path: String, _ on: Bool) -> Bool {
  guard let chattr = executable("chattr") else { return false }
  return (try? runTool(chattr, [on ? "+i" : "-i", path]).status) == 0
}

/// Makes `path` unchangeable for freedom-keys: chmod 0500 as a plain user, chattr +i as root
/// (root ignores permission bits). Returns the undo, or nil where neither is possible.
func makeUnwritable(_ path: String) -> (() -> Void)? {
  if getuid() != 0 {
    guard let mode = fileMode(path), chmod(path, 0o500) == 0 else { return nil }
    return { _ = chmod(path, mode_t(mode)) }
  }
  guard setImmutable(path, true) else { return nil }
  return { _ = setImmutable(path, false) }
}

/// Why `makeUnwritable` returned nil, for `Test.cancel`.
let unwritableUnavailable =
  "chattr +i failed (no CAP_LINUX_IMMUTABLE, or a file system without attributes such as "
  + "tmpfs): as root there is no other way to make a directory unwritable"

// MARK: - Behaviour shared by every export

@Suite("export: common behaviour")
struct ExportTests {
  /// Each export command with the options that name its directory.
  static let exports: [[String]] = [
    ["export", "bee", "--data-dir"], ["export", "kubo", "--key-file"],
    ["export", "ant", "--data-dir"], ["export", "radicle", "--home"],
    ["export", "antd", "--data-dir"], ["export", "freedom", "--user-data"],
  ]

  @Test(arguments: exports)
  func invalidMnemonicWritesNothing(command: [String]) throws {
    let fixture = try ExportFixture()
    let bad = try fixture.file("bad", "abandon abandon abandon\n")
    let target = fixture.path("node")
    let run = try CLI.run(command + [target, "--mnemonic-file", bad])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("freedom-keys: error: "))
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(fileMode(target) == nil)
  }

  @Test(arguments: exports)
  func mnemonicOnTheCommandLineIsRefused(command: [String]) throws {
    let fixture = try ExportFixture()
    let run = try CLI.run(
      command + [fixture.path("node")] + Golden.mnemonic.split(separator: " ").map(String.init))
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(!run.stderr.contains("abandon"))
    #expect(fileMode(fixture.path("node")) == nil)
  }

  @Test func directoryIsRequired() throws {
    for (command, option) in [
      (["export", "bee"], "--data-dir <dir>"), (["export", "ant"], "--data-dir <dir>"),
      (["export", "radicle"], "--home <dir>"),
    ] {
      let run = try CLI.run(command + ["--mnemonic-file", "-"])
      #expect(run.status == 2)
      #expect(
        run.stderr
          == "freedom-keys: error: missing \(option) (see 'freedom-keys \(command.joined(separator: " ")) --help')\n"
      )
    }
  }

  @Test func exportWithoutSubcommandShowsTheNodes() throws {
    let run = try CLI.run(["export"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    // The list goes to stderr with the error: a group needs a subcommand.
    #expect(
      run.stderr == """
        OVERVIEW: Write the key files of bee, kubo, Ant, antd, Radicle or Freedom.

        USAGE: freedom-keys export <subcommand>

        OPTIONS:
          -h, --help  Show help information.

        SUBCOMMANDS:
          bee         Write bee's keys/swarm.key for the Swarm wallet m/44'/60'/0'/0/1.
          kubo        Put the IPFS key m/44'/73405'/0'/0'/0' into a kubo repo.
          ant         Write Ant's identity.json for the Swarm key m/44'/60'/0'/0/1.
          radicle     Write Radicle's keys for the key m/44'/73404'/0'/0'/0'.
          antd        Write antd's keys/swarm.key for the Swarm wallet m/44'/60'/0'/0/1.
          freedom     Restore a desktop Freedom installation (ant-data, Radicle, vault).

          See 'freedom-keys export <subcommand> --help' for detailed help.

        freedom-keys: error: missing subcommand (see 'freedom-keys export --help')

        """)
  }

  @Test(arguments: [
    ["export", "bee"], ["export", "kubo"], ["export", "ant"], ["export", "radicle"],
    ["export", "antd"], ["export", "freedom"], ["verify"],
    ["keystore", "inspect"],
  ])
  func helpFitsEightyColumns(command: [String]) throws {
    let run = try CLI.run(command + ["--help"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("OVERVIEW: "))
    for line in run.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
  }
}

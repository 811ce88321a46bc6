import Foundation
import Testing

/// Issue 16's "done when": the README's desktop restore run with sudo (as root, into a user's
/// `~/.config/Freedom`), then used by that user: every file and directory is the user's, with the
/// modes desktop expects, so the user's own verify and exports (and Freedom) can read and
/// replace them.
@Suite("export freedom: a restore run with sudo is the user's installation")
struct SudoRestoreTests {
  static let user: uid_t = 65534

  /// Runs `freedom-keys arguments…` as `user` (setpriv, as sudo's user would run it), from a
  /// copy of the binary in `fixture` (the build may lie in a home other users cannot enter).
  func runAsUser(in fixture: ExportFixture, _ arguments: [String]) throws -> CLIRun {
    guard let setpriv = executable("setpriv") else {
      try Test.cancel("setpriv (util-linux) is not installed")
    }
    let binary = fixture.path("bin/freedom-keys")
    if !FileManager.default.fileExists(atPath: binary) {
      try FileManager.default.createDirectory(
        atPath: fixture.path("bin"), withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: CLI.executable.path, toPath: binary)
      #expect(chmod(fixture.path("bin"), 0o755) == 0)
      #expect(chmod(binary, 0o755) == 0)
    }
    let id = "\(Self.user)"
    return try CLI.run(
      ["--reuid", id, "--regid", id, "--clear-groups", "--", binary] + arguments,
      executable: setpriv)
  }

  @Test func theUserVerifiesAndReplacesWhatRootRestored() throws {
    guard getuid() == 0 else {
      try Test.cancel("only root can run the restore for another user (sudo)")
    }
    let fixture = try ExportFixture()
    // The user's home and ~/.config exist (the user's, 0700); Freedom's userData does not yet.
    #expect(chmod(fixture.path(""), 0o711) == 0)
    let home = fixture.path("home")
    for directory in [home, home + "/.config"] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      #expect(chown(directory, Self.user, Self.user) == 0)
      #expect(chmod(directory, 0o700) == 0)
    }
    let userData = home + "/.config/Freedom"
    let password = try fixture.file("vault-password", "correct horse battery\n")
    #expect(chown(password, Self.user, Self.user) == 0)
    let root = try fixture.run([
      "export", "freedom", "--user-data", userData, "--create", "--vault-password-file", password,
    ])
    try #require(root.status == 0, "\(root.stderr)")

    // Everything under userData is the user's: directories 0700, secrets 0600.
    for path in [userData] + tree(userData).map({ userData + "/" + $0 }) {
      var info = stat()
      #expect(lstat(path, &info) == 0)
      #expect(info.st_uid == Self.user && info.st_gid == Self.user, "\(path) is not the user's")
      if info.st_mode & S_IFMT == S_IFDIR {
        #expect(info.st_mode & 0o777 == 0o700, "\(path)")
      } else if path.hasSuffix(".pub") || path.hasSuffix("config.json") {
        #expect(info.st_mode & 0o777 == 0o644, "\(path)")
      } else {
        #expect(info.st_mode & 0o777 == 0o600, "\(path)")
      }
    }

    // The user checks it with the vault as the mnemonic's source, and a dry run plans nothing.
    let verify = try runAsUser(
      in: fixture,
      [
        "verify", "--freedom-dir", userData, "--vault-password-file", password,
      ])
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout.contains("ant-data               match"))
    let vault = userData + "/identity/identity-vault.json"
    let dryRun = try runAsUser(
      in: fixture,
      [
        "export", "freedom", "--freedom-dir", userData, "--vault-file", vault,
        "--vault-password-file", password, "--dry-run",
      ])
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(
      dryRun.stdout.hasPrefix("Dry run, nothing was written; the export would change nothing:"))

    // And the user can replace it (another mnemonic, both consents), the old one kept aside.
    let mnemonic = try fixture.file("other-mnemonic", Golden.otherMnemonic + "\n")
    #expect(chown(mnemonic, Self.user, Self.user) == 0)
    #expect(chmod(mnemonic, 0o600) == 0)
    let replaced = try runAsUser(
      in: fixture,
      [
        "export", "freedom", "--freedom-dir", userData, "--mnemonic-file", mnemonic,
        "--vault-password-file", password, "--force", "--replace-vault",
      ])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let backups = tree(userData + "/.freedom-keys.replaced")
    #expect(backups.contains { $0.hasSuffix("ant-data/keys/swarm.key") }, "\(backups)")
    #expect(backups.contains { $0.hasSuffix("identity/identity-vault.json") }, "\(backups)")
  }
}

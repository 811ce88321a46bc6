import CryptoPrimitives
import Foundation
import Glibc
import NodeFiles
import TestSupport
import Testing
import VaultKeys

private func writeError(_ body: () throws(SecureFileError) -> Void) -> SecureFileError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}

/// Sets or clears the immutable attribute with chattr; false where that is impossible (no
/// CAP_LINUX_IMMUTABLE, or a file system without attributes such as tmpfs).
private func setImmutable(_ path: String, _ on: Bool) -> Bool {
  guard let chattr = which("chattr") else { return false }
  return (try? run(chattr, [on ? "+i" : "-i", path]).0) == 0
}

@Suite struct SecureFileWriterTests {
  @Test func newFileHasMode0600AndTheBytes() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("swarm.key")
    try SecureFileWriter.write(SecureBytes(utf8: "secret"), to: path)
    #expect(permissions(path) == 0o600)
    #expect(try readBytes(path) == Array("secret".utf8))
    #expect(try dir.contents() == ["swarm.key"])
  }

  @Test func modeIsExactWhateverTheUmask() throws {
    let dir = try TemporaryDirectory()
    let old = umask(0o077)
    defer { umask(old) }
    try SecureFileWriter.write([1, 2, 3], to: dir.file("public"), mode: 0o644)
    #expect(permissions(dir.file("public")) == 0o644)
    let created = try SecureFileWriter.createDirectory(dir.file("a/b/c"), mode: 0o700)
    #expect(created == nil)
    for sub in ["a", "a/b", "a/b/c"] { #expect(permissions(dir.file(sub)) == 0o700, "\(sub)") }
  }

  @Test func refuseExistingLeavesTheOldFileByteIdentical() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("key")
    try SecureFileWriter.write([9, 9, 9], to: path, mode: 0o640)
    let error = writeError { () throws(SecureFileError) in
      try SecureFileWriter.write([1], to: path, replace: .refuseExisting)
    }
    #expect(error == .alreadyExists(path: path))
    #expect(
      error?.description
        == "\(path) already exists; refusing to overwrite it (move it away first, or ask to replace it)"
    )
    #expect(try readBytes(path) == [9, 9, 9])
    #expect(permissions(path) == 0o640)
    #expect(try dir.contents() == ["key"])
  }

  @Test func refuseExistingDoesNotFollowASymlink() throws {
    let dir = try TemporaryDirectory()
    try SecureFileWriter.write([7], to: dir.file("target"))
    #expect(symlink(dir.file("target"), dir.file("link")) == 0)
    #expect(
      writeError { () throws(SecureFileError) in
        try SecureFileWriter.write([1], to: dir.file("link"))
      } == .alreadyExists(path: dir.file("link")))
    #expect(try readBytes(dir.file("target")) == [7])
  }

  @Test func replaceSwapsTheFileAtomically() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("config")
    try SecureFileWriter.write([1, 1], to: path, mode: 0o644)
    try SecureFileWriter.write([2, 2, 2], to: path, mode: 0o600, replace: .replace)
    #expect(try readBytes(path) == [2, 2, 2])
    #expect(permissions(path) == 0o600)
    #expect(try dir.contents() == ["config"])
  }

  @Test func repeatedWritesAreIdempotent() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("identity.json")
    for _ in 0..<3 {
      try SecureFileWriter.write(SecureBytes(utf8: "{}\n"), to: path, replace: .replace)
      #expect(try readBytes(path) == Array("{}\n".utf8))
      #expect(permissions(path) == 0o600)
      #expect(try dir.contents() == ["identity.json"])
    }
    #expect(try SecureFileWriter.createDirectory(dir.file("keys")) == nil)
    #expect(try SecureFileWriter.createDirectory(dir.file("keys")) == nil)
    #expect(permissions(dir.file("keys")) == 0o700)
  }

  @Test func emptyContentIsWritten() throws {
    let dir = try TemporaryDirectory()
    try SecureFileWriter.write([UInt8](), to: dir.file("empty"))
    #expect(try readBytes(dir.file("empty")) == [])
  }

  @Test func existingOpenDirectoryGivesAWarningAndIsNotChanged() throws {
    let dir = try TemporaryDirectory()
    #expect(mkdir(dir.file("shared"), 0o755) == 0)
    #expect(chmod(dir.file("shared"), 0o755) == 0)
    let warning = try SecureFileWriter.createDirectory(dir.file("shared"))
    #expect(warning?.path == dir.file("shared"))
    #expect(warning?.mode == 0o755)
    #expect(
      warning?.description
        == "warning: \(dir.file("shared")) is accessible by other users (mode 0755); consider 'chmod 700 \(dir.file("shared"))'"
    )
    #expect(permissions(dir.file("shared")) == 0o755)
  }

  /// A real failure that works as root too: a path component is a regular file (ENOTDIR).
  @Test func parentIsAFileFailsCleanly() throws {
    let dir = try TemporaryDirectory()
    try SecureFileWriter.write([1], to: dir.file("plain"))
    let path = dir.file("plain/swarm.key")
    let error = writeError { () throws(SecureFileError) in try SecureFileWriter.write([2], to: path)
    }
    #expect(error == .notADirectory(path: path))
    #expect(
      error?.description == "part of the path \(path) is a file, not a directory; check the path")
    #expect(
      writeError { () throws(SecureFileError) in
        _ = try SecureFileWriter.createDirectory(dir.file("plain/sub"))
      } == .notADirectory(path: dir.file("plain")))
    #expect(try dir.contents() == ["plain"])
    #expect(try readBytes(dir.file("plain")) == [1])
  }

  @Test func missingDirectoryAndDirectoryTargetAreNamed() throws {
    let dir = try TemporaryDirectory()
    let missing = dir.file("nope/key")
    #expect(
      writeError { () throws(SecureFileError) in try SecureFileWriter.write([1], to: missing) }
        == .noSuchDirectory(path: missing))
    #expect(mkdir(dir.file("d"), 0o700) == 0)
    #expect(
      writeError { () throws(SecureFileError) in
        try SecureFileWriter.write([1], to: dir.file("d"), replace: .replace)
      } == .isADirectory(path: dir.file("d")))
    #expect(
      writeError { () throws(SecureFileError) in try SecureFileWriter.write([1], to: dir.file("d/"))
      } == .invalidPath(dir.file("d/")))
    #expect(try dir.contents() == ["d"])
    #expect(try dir.contents("d") == [])
  }

  /// Root ignores permission bits, so a read-only directory is made with the immutable attribute,
  /// which binds root as well: creating the temporary file fails and nothing is left behind.
  @Test func readOnlyDirectoryFailsCleanly() throws {
    let dir = try TemporaryDirectory()
    let locked = dir.file("locked")
    try SecureFileWriter.createDirectory(locked)
    try SecureFileWriter.write([4, 4], to: locked + "/existing")
    if geteuid() != 0 {
      #expect(chmod(locked, 0o500) == 0)
    } else if !setImmutable(locked, true) {
      try Test.cancel(
        "running as root and chattr +i is unavailable here: no way to make a read-only directory")
    }
    defer {
      _ = setImmutable(locked, false)
      _ = chmod(locked, 0o700)
    }
    for policy in [SecureFileWriter.ReplacePolicy.refuseExisting, .replace] {
      let error = writeError { () throws(SecureFileError) in
        try SecureFileWriter.write([1], to: locked + "/new", replace: policy)
      }
      #expect(error == .permissionDenied(path: locked + "/new"))
      #expect(
        error?.description
          == "permission denied for \(locked)/new; check the owner and permissions of its directory"
      )
    }
    let replace = writeError { () throws(SecureFileError) in
      try SecureFileWriter.write([1], to: locked + "/existing", replace: .replace)
    }
    #expect(replace == .permissionDenied(path: locked + "/existing"))
    #expect(try dir.contents("locked") == ["existing"])
    #expect(try readBytes(locked + "/existing") == [4, 4])
  }

  /// The temporary file is written and flushed, then the final rename fails (the target is
  /// immutable): the temporary file must be removed and the old file left as it was.
  @Test func failureAfterWritingRemovesTheTemporaryFile() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("swarm.key")
    try SecureFileWriter.write([4, 4], to: path)
    guard setImmutable(path, true) else {
      try Test.cancel(
        "chattr +i is unavailable here (no CAP_LINUX_IMMUTABLE or no attribute support)")
    }
    defer { _ = setImmutable(path, false) }
    let error = writeError { () throws(SecureFileError) in
      try SecureFileWriter.write([5, 5, 5], to: path, replace: .replace)
    }
    #expect(error == .permissionDenied(path: path))
    #expect(try dir.contents() == ["swarm.key"])
    #expect(try readBytes(path) == [4, 4])
  }
}

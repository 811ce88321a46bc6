import CryptoPrimitives
import Foundation
import Glibc
import VaultKeys

/// Reading the node files that `export` writes and `verify` checks, and writing them only after
/// every input was read and checked.
enum ExportFiles {
  /// Larger files are refused unread: no key or node config file comes close.
  static let maximumByteCount = 4 * 1024 * 1024

  /// What `stat` says about an existing path.
  struct Status {
    let mode: mode_t
    let owner: uid_t
    let group: gid_t

    var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }
    /// The permission bits.
    var permissions: UInt32 { UInt32(mode & 0o7777) }
  }

  /// `directory/name`, without doubling a trailing slash.
  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// The status of `path` itself (a symbolic link is not followed), or nil if nothing is there.
  static func status(_ path: String) throws(CLIError) -> Status? {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw .failure("cannot inspect \(path): \(systemError())")
    }
    return Status(mode: info.st_mode, owner: info.st_uid, group: info.st_gid)
  }

  /// Fails unless `path` is absent or a directory (a node directory that does not exist yet is
  /// created when writing).
  static func requireDirectoryOrAbsent(_ path: String) throws(CLIError) {
    guard let status = try statusFollowingLinks(path) else { return }
    guard status.isDirectory else { throw .failure("\(path) is not a directory") }
  }

  /// Fails unless `path` is an existing directory.
  static func requireDirectory(_ path: String) throws(CLIError) {
    guard let status = try statusFollowingLinks(path) else {
      throw .failure("\(path) does not exist; check the directory")
    }
    guard status.isDirectory else { throw .failure("\(path) is not a directory") }
  }

  private static func statusFollowingLinks(_ path: String) throws(CLIError) -> Status? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw .failure("cannot inspect \(path): \(systemError())")
    }
    return Status(mode: info.st_mode, owner: info.st_uid, group: info.st_gid)
  }

  /// The bytes of the regular file at `path`, read straight into zeroizing memory; nil when
  /// there is no file. A directory, a device or an oversized file is an error.
  static func read(_ path: String) throws(CLIError) -> SecureBytes? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw .failure("cannot read \(path): \(systemError())")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw .failure("cannot read \(path): \(systemError())")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw .failure("\(path) is not a regular file")
    }
    guard info.st_size <= maximumByteCount else {
      throw .failure("\(path) is larger than \(maximumByteCount >> 20) MiB; it is not a node file")
    }
    // One byte more than the size, to notice a file that grew meanwhile.
    let buffer: SecureBytes
    switch SecretInput.readAll(descriptor, capacity: Int(info.st_size) + 1) {
    case .success(let bytes): buffer = bytes
    case .failure(let error): throw .failure("cannot read \(path): \(error)")
    }
    guard buffer.count <= info.st_size else { throw .failure("\(path) changed while it was read") }
    return buffer
  }

  /// Warns when the secret file at `path` can be read by other users (desktop Freedom wrote
  /// its swarm.key that way); the file is left as it is.
  static func warnIfShared(_ path: String) {
    guard let status = try? status(path), status.isRegularFile, status.permissions & 0o077 != 0
    else { return }
    Output.warning(
      "\(path) is accessible by other users (mode \(Output.octal(status.permissions))); "
        + "run chmod 600 \(path)")
  }

  /// The system's message for `code`.
  static func systemError(_ code: Int32 = errno) -> String {
    SystemError(code: code).description
  }
}

/// A file that was read but could not be understood (a corrupt key, another program's file):
/// `export` replaces it only with `--force`, `verify` reports it as an error.
struct UnreadableNodeFile: Error {
  let path: String
  let reason: String

  var description: String { "\(path) cannot be read: \(reason)" }
}

/// What a node directory holds at one of its key files.
enum StoredFile<Value> {
  /// Nothing is there.
  case absent
  /// The file, understood.
  case present(Value)
  /// A file that is not what it should be; `reason` says why.
  case unreadable(UnreadableNodeFile)
}

extension StoredFile {
  /// Reads `path` and parses it with `parse`; a parse error becomes `.unreadable`.
  static func read(_ path: String, parse: (SecureBytes) throws -> Value) throws(CLIError)
    -> StoredFile<Value>
  {
    guard let bytes = try ExportFiles.read(path) else { return .absent }
    do {
      return .present(try parse(bytes))
    } catch {
      return .unreadable(UnreadableNodeFile(path: path, reason: String(describing: error)))
    }
  }
}

/// Applies an export's changes once everything was checked: creates directories, removes what
/// `--force` replaces, writes files. If a step fails, the directories and files this run created
/// are removed again, so a failed export leaves nothing new behind.
struct ExportWriter {
  /// What this run created, in order, to be removed again if a later step fails.
  private var created: [(path: String, isDirectory: Bool)] = []
  /// What was written or removed, for the report.
  private(set) var written: [String] = []
  private(set) var removed: [String] = []

  /// Runs `changes` and undoes what it created if it throws.
  static func apply(_ changes: (inout ExportWriter) throws -> Void) throws -> ExportWriter {
    var writer = ExportWriter()
    do {
      try changes(&writer)
    } catch {
      writer.rollBack()
      throw error
    }
    return writer
  }

  /// Creates `path` (and missing parents) with mode 0700; an existing directory is kept as is,
  /// with a warning if other users can enter it.
  mutating func createDirectory(_ path: String) throws {
    var missing: [String] = []
    var current = path
    while !current.isEmpty, current != "/", try ExportFiles.status(current) == nil {
      missing.append(current)
      guard let slash = current.dropLast().lastIndex(of: "/") else { break }
      current = String(current[..<slash])
    }
    // Recorded first (parents before children), so a failure part-way is rolled back too.
    created += missing.reversed().map { ($0, true) }
    do {
      if let warning = try SecureFileWriter.createDirectory(path) {
        Output.warning(
          "\(warning.path) is accessible by other users (mode \(Output.octal(warning.mode))); "
            + "consider chmod 700 \(warning.path)")
      }
    } catch {
      throw CLIError.failure(error.description)
    }
  }

  /// Writes `bytes` to `path` atomically with `mode`; replaces an existing file only when
  /// `replace` is true.
  mutating func write(
    _ bytes: some ContiguousBytes, to path: String, mode: UInt32, replace: Bool
  ) throws {
    let existed = try ExportFiles.status(path) != nil
    do {
      try SecureFileWriter.write(
        bytes, to: path, mode: mode, replace: replace ? .replace : .refuseExisting)
    } catch {
      throw CLIError.failure(error.description)
    }
    if !existed { created.append((path, false)) }
    written.append(path)
  }

  /// Removes the file or directory tree at `path` if it exists.
  mutating func remove(_ path: String) throws {
    guard try ExportFiles.status(path) != nil else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw CLIError.failure(
        "could not remove \(path) (\(Self.reason(error))); nothing else was removed after it")
    }
    removed.append(path)
  }

  private func rollBack() {
    // rmdir removes only an empty directory: nothing another process put there is lost.
    for (path, isDirectory) in created.reversed() {
      _ = isDirectory ? rmdir(path) : unlink(path)
    }
  }

  private static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return ExportFiles.systemError(Int32(underlying.code))
    }
    return nsError.localizedDescription
  }
}

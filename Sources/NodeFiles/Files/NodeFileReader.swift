import CryptoPrimitives
import SystemCalls

/// Reads the files of node directories, for `export` and `verify` alike.
package enum NodeFileReader {
  /// Larger files are refused unread: no key or node config file comes close.
  package static let maximumByteCount = 4 * 1024 * 1024

  /// Why a directory cannot be listed: the system's explanation.
  package struct ListingError: Error, Sendable { package let reason: String }

  /// The names in the directory at `path` ("." and ".." left out).
  package static func names(inDirectory path: String) throws(ListingError) -> [String] {
    guard let names = Platform.names(path: path) else {
      throw ListingError(reason: Platform.message(Platform.errno))
    }
    return names
  }

  /// The bytes of the regular file at `path`, read straight into zeroizing memory; nil when
  /// there is no file. A directory, a device or an oversized file is an error.
  package static func read(_ path: String) throws(NodeFileError) -> SecureBytes? {
    let descriptor = Platform.open(path: path, Platform.readOnly | Platform.nonBlocking)
    guard descriptor >= 0 else {
      if Platform.errno == Platform.noEntry { return nil }
      throw .system("read", path)
    }
    defer { _ = Platform.close(descriptor) }
    guard let status = Platform.fstat(descriptor) else { throw .system("read", path) }
    guard status.isRegularFile else {
      throw NodeFileError(.unexpectedFile, "\(path) is not a regular file")
    }
    guard status.size <= maximumByteCount else {
      throw NodeFileError(
        .unexpectedFile,
        "\(path) is larger than \(maximumByteCount >> 20) MiB; it is not a node file")
    }
    // One byte more than the size, to notice a file that grew meanwhile.
    let (buffer, failure) = readAll(descriptor, capacity: Int(status.size) + 1)
    guard failure == 0 else { throw .system("read", path, failure) }
    guard buffer.count <= status.size else {
      throw NodeFileError(.io, "\(path) changed while it was read")
    }
    return buffer
  }

  /// Reads `descriptor` until its end or `capacity` bytes, straight into zeroizing memory (no
  /// `Data` or `String` copy of a secret), retrying reads interrupted by a signal. The errno of
  /// a failed read, else 0, comes with the bytes read.
  static func readAll(_ descriptor: Int32, capacity: Int) -> (SecureBytes, errno: Int32) {
    var filled = 0
    var failure: Int32 = 0
    let buffer = SecureBytes(count: capacity) { raw in
      (filled, failure) = Platform.readAll(descriptor, into: raw)
    }
    return (buffer[0..<filled], failure)
  }
}

/// A file that was read but could not be understood (a corrupt key, another program's file):
/// `export` replaces it only with `--force`, `verify` reports it as an error.
package struct UnreadableNodeFile: Error, Sendable, CustomStringConvertible {
  package let path: String
  package let reason: String

  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  package var description: String { "\(path) cannot be read: \(reason)" }
}

/// What a node directory holds at one of its key files.
package enum StoredFile<Value> {
  /// Nothing is there.
  case absent
  /// The file, understood.
  case present(Value)
  /// A file that is not what it should be; `reason` says why.
  case unreadable(UnreadableNodeFile)

  /// Whether a file is there, understood or not.
  package var isPresent: Bool {
    if case .absent = self { return false }
    return true
  }

  /// Reads `path` and parses it with `parse`; a parse error becomes `.unreadable`.
  package static func read(_ path: String, parse: (SecureBytes) throws -> Value)
    throws(NodeFileError) -> StoredFile<Value>
  {
    guard let bytes = try NodeFileReader.read(path) else { return .absent }
    do {
      return .present(try parse(bytes))
    } catch {
      return .unreadable(UnreadableNodeFile(path: path, reason: String(describing: error)))
    }
  }
}

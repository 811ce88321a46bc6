import CryptoPrimitives
import SystemCalls

/// A candidates file too large to hold, read line by line as a search takes its lines: opened
/// once, read-only, counted exactly in one pass through a bounded, wiped buffer, and indexed
/// sparsely (the byte offset of every `stride`-th line, at most `maximumIndexEntries` of them:
/// 512 KiB whatever the line count), so a line is read by seeking to its block and reading at
/// most one block before it. Lines as a held file's: "\n" or "\r\n" ends a line (not part of
/// it), an empty line is the empty candidate, the last line ending adds no line, a leading
/// byte order mark is not part of the first line. Lines are numbered, not compared: the same
/// candidate may come twice. A file that changes after the count (its size or time, or what
/// a read finds) stops the read with `CandidateFileError.changed`, never a wrong line.
package final class CandidateLines: Sendable {
  /// Where a candidates file stops being held whole and is read line by line instead.
  package struct Threshold: Sendable {
    /// A file of more bytes than this is read line by line.
    package var bytes: Int
    /// A file of more lines than this is read line by line.
    package var lines: Int

    package init(bytes: Int, lines: Int) { (self.bytes, self.lines) = (bytes, lines) }

    /// 64 MiB or 2^23 lines: what the held sets take (`PassphraseSet.maximumCount`).
    package static let held = Threshold(bytes: 64 << 20, lines: PassphraseSet.maximumCount)
  }

  /// A candidates file as a search takes it.
  package enum File: Sendable {
    /// Held whole (at most `Threshold.held`): its lines deduplicated.
    case held(SecureBytes)
    /// Read line by line.
    case lines(CandidateLines)
  }

  /// Whether the file at `path` is a regular file of more bytes than `threshold` (read line by
  /// line, never whole); false for standard input ("-") and what cannot be examined (its
  /// read says why).
  package static func isLarge(path: String, threshold: Threshold = .held) -> Bool {
    guard path != "-", let info = Platform.info(path: path) else { return false }
    return info.type == Platform.regularFileType && info.size > Int64(threshold.bytes)
  }

  /// Whether a file read whole has more lines than `threshold` (and must be read line by line).
  package static func hasTooManyLines(_ file: SecureBytes, threshold: Threshold = .held) -> Bool {
    file.withUnsafeBytes { raw in
      var lines = 0
      for byte in raw where byte == 0x0A { lines += 1 }
      // The last line need not end.
      if let last = raw.last, last != 0x0A { lines += 1 }
      return lines > threshold.lines
    }
  }

  /// A line longer than this (64 KiB, a secret file's limit) is refused.
  package static let maximumLineByteCount = SecretInput.maximumByteCount
  /// The index holds at most this many offsets; past it, every other is dropped and the
  /// stride doubles.
  package static let maximumIndexEntries = Layout.standard.indexEntries

  /// The sizes the reading works with; a test takes small ones, to cross every boundary.
  struct Layout: Sendable {
    /// The stride the index starts at (lines a block).
    var minimumStride = 1 << 8
    /// The most offsets the index holds.
    var indexEntries = 1 << 16
    /// The bytes one read takes (more than the longest line).
    var bufferBytes = 1 << 18
    /// The longest line.
    var maximumLine = maximumLineByteCount

    static let standard = Layout()
  }

  private let layout: Layout

  /// The number of lines.
  package let count: Int
  /// The lines a block of the index holds (a power of two).
  package let stride: Int
  /// The byte offset of line `j * stride`.
  private let index: [Int64]
  private let descriptor: Int32
  /// The file as counted: a read checks it is still this.
  private let size: Int64
  private let modified: Int64
  private let inode: UInt64
  private let device: UInt64
  /// A SHA-256 chain over the lines as counted (with the count and size), for a search's hash:
  /// a secret, as the lines are.
  package let contentDigest: SecureBytes

  /// Opens `path` read-only (not standard input: a file read twice must be a regular file),
  /// counts and checks its lines and indexes them. A file other users may read is named to
  /// `warning`, as a secret file read whole is.
  package convenience init(path: String, warning: ((String) -> Void)?) throws(CandidateFileError) {
    try self.init(path: path, warning: warning, layout: .standard)
  }

  /// `init(path:warning:)` with the sizes of `layout`.
  convenience init(path: String, warning: ((String) -> Void)?, layout: Layout)
    throws(CandidateFileError)
  {
    let descriptor = Platform.open(path: path, Platform.readOnly | Platform.nonBlocking)
    guard descriptor >= 0 else { throw .unreadable(Platform.message(Platform.errno)) }
    do throws(CandidateFileError) {
      guard let info = Platform.info(descriptor) else {
        throw CandidateFileError.unreadable(Platform.message(Platform.errno))
      }
      guard info.type == Platform.regularFileType else { throw CandidateFileError.notRegularFile }
      if let warning, let shared = SecretInput.sharedNotice(path: path, mode: info.mode) {
        warning(shared)
      }
    } catch {
      _ = Platform.close(descriptor)
      throw error
    }
    try self.init(descriptor: descriptor, layout: layout)
  }

  /// Counts the lines of the regular file open at `descriptor`, which it then owns (and
  /// closes).
  init(descriptor: Int32, layout: Layout) throws(CandidateFileError) {
    guard let info = Platform.info(descriptor) else {
      throw .unreadable(Platform.message(Platform.errno))
    }
    var failure: CandidateFileError?
    var count = 0
    // A read holds the longest line with its "\r\n", so every read moves on.
    precondition(layout.bufferBytes >= layout.maximumLine + 2, "a read must hold a line")
    precondition(layout.minimumStride.nonzeroBitCount == 1, "a stride is a power of two")
    var stride = layout.minimumStride
    var index: [Int64] = []
    // The digest chain sits before the data in the one wiped buffer: each read's lines are
    // hashed after the digest of those before.
    let digestBytes = 32
    let digest = SecureBytes(count: digestBytes) { digest in
      _ = SecureBytes(count: digestBytes + layout.bufferBytes) { scratch in
        let data = UnsafeMutableRawBufferPointer(rebasing: scratch[digestBytes...])
        var offset: Int64 = 0
        var first = true
        while true {
          let (filled, error) = Platform.readAll(descriptor, into: data, at: offset)
          guard error == 0 else {
            failure = .unreadable(Platform.message(error))
            return
          }
          var from = 0
          if first {
            first = false
            if filled >= 3, data[0] == 0xEF, data[1] == 0xBB, data[2] == 0xBF { from = 3 }
          }
          let atEnd = filled < data.count
          var processed = from
          let chunk = UnsafeRawBufferPointer(rebasing: data[0..<filled])
          let result = Self.forEachLine(
            in: chunk, from: from, atEnd: atEnd, longest: layout.maximumLine
          ) { line in
            // Strides are powers of two: a mask, not a division, for every line.
            if count & (stride - 1) == 0 {
              if index.count == layout.indexEntries {
                index = index.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
                stride *= 2
              }
              if count & (stride - 1) == 0 { index.append(offset + Int64(line.lowerBound)) }
            }
            count += 1
            if let problem = Self.problem(
              in: UnsafeRawBufferPointer(rebasing: chunk[line]), line: count)
            {
              failure = problem
              return false
            }
            return true
          }
          guard failure == nil else { return }
          switch result {
          case .tooLong:
            failure = .lineTooLong(line: count + 1, limit: layout.maximumLine)
            return
          case .processed(let end): processed = end
          }
          // This read's lines after the digest so far: the next digest (made aside, then put
          // in place for the next read).
          SHA256.hash(
            UnsafeRawBufferPointer(rebasing: scratch[0..<(digestBytes + processed)]),
            into: digest.baseAddress!)
          UnsafeMutableRawBufferPointer(rebasing: scratch[0..<digestBytes]).copyMemory(
            from: UnsafeRawBufferPointer(digest))
          offset += Int64(processed)
          if atEnd || filled == 0 { break }
        }
        var tail: [UInt8] = []
        withUnsafeBytes(of: UInt64(count).littleEndian) { tail += $0 }
        withUnsafeBytes(of: UInt64(offset).littleEndian) { tail += $0 }
        UnsafeMutableRawBufferPointer(rebasing: scratch[digestBytes..<(digestBytes + 16)])
          .copyBytes(from: tail)
        SHA256.hash(
          UnsafeRawBufferPointer(rebasing: scratch[0..<(digestBytes + 16)]),
          into: digest.baseAddress!)
      }
    }
    // A file that changed while it was counted is not what was counted.
    if failure == nil,
      Platform.info(descriptor).map({
        $0.size != info.size || $0.modified != info.modified
      }) ?? true
    {
      failure = .changed
    }
    if let failure {
      _ = Platform.close(descriptor)
      throw failure
    }
    guard count > 0 else {
      _ = Platform.close(descriptor)
      throw .noLines
    }
    self.descriptor = descriptor
    self.layout = layout
    self.count = count
    self.stride = stride
    self.index = index
    size = info.size
    modified = info.modified
    inode = info.inode
    device = info.device
    contentDigest = digest
  }

  deinit { _ = Platform.close(descriptor) }

  /// The memory the index takes, in bytes (at most 8 × `maximumIndexEntries`).
  package var indexByteCount: Int { index.count * MemoryLayout<Int64>.stride }

  /// Calls `body` with the 0-based number and the bytes of each line of `range` in order, read
  /// from the file through one wiped buffer (the bytes must not escape `body`). Reads the
  /// lines of `range`'s first block before it, nothing else it skips.
  package func forEach(
    in range: Range<Int>, _ body: (Int, UnsafeRawBufferPointer) -> Void
  ) throws(CandidateFileError) {
    guard !range.isEmpty else { return }
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "lines out of range")
    try checkUnchanged()
    var failure: CandidateFileError?
    let block = range.lowerBound / stride
    var line = block * stride
    var offset = index[block]
    // A batch takes a few lines: the buffer is sized to them (the file's mean line, twice, and
    // a little), not to the longest line; a read that then holds no whole line is made again
    // through a buffer of the full size, which holds any line.
    let mean = Int(size / Int64(count)) + 2
    let (wanted, overflow) = (range.upperBound - line).multipliedReportingOverflow(by: 2 * mean)
    var capacity = overflow ? layout.bufferBytes : min(layout.bufferBytes, max(4096, wanted))
    while line < range.upperBound, failure == nil {
      var grow = false
      _ = SecureBytes(count: capacity) { data in
        while line < range.upperBound {
          let (filled, error) = Platform.readAll(descriptor, into: data, at: offset)
          guard error == 0 else {
            failure = .unreadable(Platform.message(error))
            return
          }
          let atEnd = filled < data.count
          let chunk = UnsafeRawBufferPointer(rebasing: data[0..<filled])
          let result = Self.forEachLine(
            in: chunk, from: 0, atEnd: atEnd, longest: layout.maximumLine
          ) { bytes in
            let text = UnsafeRawBufferPointer(rebasing: chunk[bytes])
            // The count checked every line: one that fails now was changed.
            guard line < count, Self.problem(in: text, line: line + 1) == nil else {
              failure = .changed
              return false
            }
            if line >= range.lowerBound { body(line, text) }
            line += 1
            return line < range.upperBound
          }
          guard failure == nil else { return }
          if case .processed(0) = result, !atEnd, capacity < layout.bufferBytes {
            grow = true
            return
          }
          guard case .processed(let processed) = result, processed > 0 || line >= range.upperBound
          else {
            failure = .changed
            return
          }
          offset += Int64(processed)
          if atEnd, line < range.upperBound {
            failure = .changed
            return
          }
        }
      }
      if grow { capacity = layout.bufferBytes }
    }
    if let failure { throw failure }
    // A change while the lines were read: what was read is not trusted.
    try checkUnchanged()
  }

  /// The lines of `range`, each in a wiped buffer of its own.
  package func lines(_ range: Range<Int>) throws(CandidateFileError) -> [SecureBytes] {
    var lines: [SecureBytes] = []
    lines.reserveCapacity(range.count)
    try forEach(in: range) { _, bytes in lines.append(SecureBytes(bytes)) }
    return lines
  }

  /// Throws `.changed` unless the file still has the size, time and identity it was counted
  /// with.
  private func checkUnchanged() throws(CandidateFileError) {
    guard let info = Platform.info(descriptor) else {
      throw .unreadable(Platform.message(Platform.errno))
    }
    guard info.size == size, info.modified == modified, info.inode == inode,
      info.device == device
    else { throw .changed }
  }

  // MARK: - Lines

  /// How a read ended: its lines up to `end` taken (the next read starts there), or a line
  /// longer than the longest a line may be.
  private enum Scan {
    case processed(Int)
    case tooLong
  }

  /// Calls `body` with the byte range of each whole line of `chunk` from `from` (its ending
  /// left out; with `atEnd`, the rest after the last ending is the last line) until it returns
  /// false; a line longer than `longest` bytes ends the scan.
  private static func forEachLine(
    in chunk: UnsafeRawBufferPointer, from: Int, atEnd: Bool, longest: Int,
    _ body: (Range<Int>) -> Bool
  ) -> Scan {
    var start = from
    while start < chunk.count {
      let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
      guard let found = rest.firstIndex(of: 0x0A) else {
        guard atEnd else {
          // The longest line and a carriage return may wait for their line feed.
          return chunk.count - start > longest + 1 ? .tooLong : .processed(start)
        }
        guard chunk.count - start <= longest else { return .tooLong }
        _ = body(start..<chunk.count)
        return .processed(chunk.count)
      }
      let newline = start + found - rest.startIndex
      let end = newline > start && chunk[newline - 1] == 0x0D ? newline - 1 : newline
      guard end - start <= longest else { return .tooLong }
      let more = body(start..<end)
      start = newline + 1
      if !more { break }
    }
    return .processed(start)
  }

  /// What is wrong with the bytes of line `line` (1-based), as a secret file's text is
  /// checked: not UTF-8, or a control character other than tab and carriage return.
  private static func problem(in bytes: UnsafeRawBufferPointer, line: Int) -> CandidateFileError? {
    // Printable ASCII needs no parse.
    var plain = true
    for byte in bytes where byte < 0x20 || byte >= 0x7F {
      if byte == 0x09 || byte == 0x0D { continue }
      plain = false
      break
    }
    if plain { return nil }
    guard let problem = SecretInput.firstProblem(in: bytes) else { return nil }
    return problem.isControl ? .controlCharacter(line: line) : .invalidUTF8(line: line)
  }
}

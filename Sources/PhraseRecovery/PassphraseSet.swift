import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The BIP-39 passphrases a search tries with every checksum-valid phrase: one (the empty
/// passphrase, or the one given), the lines of a candidates file, or every passphrase within K
/// edits of a remembered one. Distinct after NFKD, in the order given (a later duplicate is
/// dropped), all in one wiped buffer.
package struct PassphraseSet: Sendable {
  /// Where the passphrases came from, to say which one matched without quoting it.
  package enum Source: Sendable, Equatable {
    /// One passphrase, given (or the empty one).
    case single
    /// The lines of a candidates file: passphrase i is line `lines[i]` (1-based).
    case candidates
    /// The passphrases within `edits` edits of a remembered one; the first is the remembered.
    case typos(edits: Int)
  }

  /// The NFKD passphrases, one after the other.
  private let bytes: SecureBytes
  /// Passphrase i is `bytes[offsets[i]..<offsets[i + 1]]`.
  private let offsets: [Int]
  /// For `.candidates`: the 1-based line of each passphrase.
  private let lines: [Int]
  /// For `.typos`: the remembered passphrase (NFKD), to describe an edit.
  private let remembered: SecureBytes?
  package let source: Source

  /// More passphrases than this (before duplicates are dropped) are refused.
  package static let maximumCount = 1 << 23
  /// More bytes of passphrases than this (before duplicates are dropped) are refused.
  static let maximumByteCount = 1 << 28
  /// The characters `typos` inserts and substitutes besides the passphrase's own: printable
  /// ASCII, space to tilde.
  package static let printableASCII: ClosedRange<UInt8> = 0x20...0x7E

  /// The number of passphrases.
  package var count: Int { offsets.count - 1 }

  /// The empty passphrase, or `passphrase`.
  package init(passphrase: SecureBytes = SecureBytes(count: 0) { _ in }) {
    bytes = Mnemonic.compatibilityDecomposed(passphrase)
    offsets = [0, bytes.count]
    lines = []
    remembered = nil
    source = .single
  }

  /// The lines of a candidates file (UTF-8): each line one passphrase, an empty line the empty
  /// passphrase; "\n" or "\r\n" ends a line, and the last line ending adds no line.
  package init(candidates file: SecureBytes) throws(RecoveryError) {
    guard file.withUnsafeBytes(ScalarBuffer.isValidUTF8) else { throw .invalidUTF8 }
    var ranges: [Range<Int>] = []
    file.withUnsafeBytes { raw in
      var start = 0
      for index in raw.indices where raw[index] == 0x0A {
        let end = index > start && raw[index - 1] == 0x0D ? index - 1 : index
        ranges.append(start..<end)
        start = index + 1
      }
      if start < raw.count { ranges.append(start..<raw.count) }
    }
    guard !ranges.isEmpty else { throw .noPassphrases }
    guard ranges.count <= Self.maximumCount else {
      throw .tooManyPassphrases(UInt64(ranges.count))
    }
    // ASCII lines are their own NFKD; the others are decomposed one by one.
    var decomposed: [Int: SecureBytes] = [:]
    file.withUnsafeBytes { raw in
      for (line, range) in ranges.enumerated() where raw[range].contains(where: { $0 >= 0x80 }) {
        // Valid UTF-8, checked above.
        decomposed[line] = NFKD.normalize(utf8: UnsafeRawBufferPointer(rebasing: raw[range]))!
      }
    }
    var normalized: [Range<Int>] = []
    var end = 0
    for (line, range) in ranges.enumerated() {
      let length = decomposed[line]?.count ?? range.count
      normalized.append(end..<(end + length))
      end += length
    }
    let arena = SecureBytes(count: end) { target in
      file.withUnsafeBytes { raw in
        for (line, range) in ranges.enumerated() {
          let slot = UnsafeMutableRawBufferPointer(rebasing: target[normalized[line]])
          if let bytes = decomposed[line] {
            bytes.withUnsafeBytes { slot.copyMemory(from: $0) }
          } else {
            slot.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[range]))
          }
        }
      }
    }
    let (bytes, offsets, kept) = Self.distinct(arena, normalized)
    self.bytes = bytes
    self.offsets = offsets
    lines = kept.map { $0 + 1 }
    remembered = nil
    source = .candidates
  }

  /// The passphrases within `edits` edits of `remembered` (NFKD): a character inserted,
  /// deleted, replaced, or two adjacent ones exchanged, each inserted or new character one of
  /// the passphrase's own or printable ASCII. The remembered passphrase comes first, then those
  /// one edit away, and so on.
  package init(remembered passphrase: SecureBytes, edits: Int) throws(RecoveryError) {
    guard let decomposed = passphrase.withUnsafeBytes({ NFKD.normalize(utf8: $0) }) else {
      throw .invalidUTF8
    }
    let edits = max(0, edits)
    // Valid UTF-8: NFKD made it.
    let length = decomposed.withUnsafeBytes { ScalarBuffer.scalarCount(inUTF8: $0) }!
    var failure: RecoveryError?
    var ranges = [0..<decomposed.count]
    var arena = SecureBytes(count: 0) { _ in }
    // The alphabet holds the passphrase's own characters: it lives in wiped memory too.
    ScalarBuffer.withWiped(capacity: Self.printableASCII.count + length) { alphabet in
      for byte in Self.printableASCII { alphabet.append(Unicode.Scalar(byte)) }
      // Valid UTF-8: NFKD made it.
      _ = decomposed.withUnsafeBytes { raw in
        ScalarBuffer.forEachScalar(inUTF8: raw) { scalar in
          if !alphabet.contains(scalar) { alphabet.append(scalar) }
        }
      }
      var width = 1
      for index in 0..<alphabet.count { width = max(width, UTF8.width(alphabet[index])) }
      // Count first: how many strings the edits make and their bytes, before any is made.
      var raw = 1
      var byteBound = decomposed.count
      var byLength = [length: 1]
      for _ in 0..<edits {
        var next: [Int: Int] = [:]
        for (length, count) in byLength {
          // Deletions; exchanges and replacements; insertions.
          let ways = [
            (length - 1, length), (length, max(0, length - 1) + length * (alphabet.count - 1)),
            (length + 1, (length + 1) * alphabet.count),
          ]
          for (newLength, ways) in ways where newLength >= 0 && ways > 0 {
            let (product, overflow) = count.multipliedReportingOverflow(by: ways)
            guard !overflow, product <= Self.maximumCount, raw + product <= Self.maximumCount
            else {
              failure = .tooManyPassphrases(UInt64(Self.maximumCount) + 1)
              return
            }
            next[newLength, default: 0] += product
            raw += product
            byteBound += product * newLength * width
            guard byteBound <= Self.maximumByteCount else {
              failure = .tooManyPassphrases(UInt64(raw))
              return
            }
          }
        }
        byLength = next
      }
      // Every variant, level by level, into one wiped buffer.
      ranges.reserveCapacity(raw)
      arena = SecureBytes(count: byteBound) { target in
        decomposed.withUnsafeBytes {
          UnsafeMutableRawBufferPointer(rebasing: target[0..<$0.count]).copyMemory(from: $0)
        }
        var cursor = decomposed.count
        var level = 0..<1
        ScalarBuffer.withWiped(capacity: length + edits) { scalars in
          ScalarBuffer.withWiped(capacity: length + edits + 1) { edited in
            for _ in 0..<edits {
              let start = ranges.count
              for variant in level {
                scalars.removeAll()
                scalars.append(utf8: UnsafeRawBufferPointer(rebasing: target[ranges[variant]]))
                Self.forEachEdit(of: scalars, alphabet: alphabet, scratch: &edited) { edited in
                  let begin = cursor
                  cursor = edited.encode(into: target, at: cursor)
                  ranges.append(begin..<cursor)
                }
              }
              level = start..<ranges.count
            }
          }
        }
      }
    }
    if let failure { throw failure }
    let (bytes, offsets, _) = Self.distinct(arena, ranges)
    self.bytes = bytes
    self.offsets = offsets
    lines = []
    remembered = decomposed
    source = .typos(edits: edits)
  }

  /// BIP-39's salt for passphrase `index`: "mnemonic" + the NFKD passphrase.
  func salt(_ index: Int) -> SecureBytes {
    let prefix = Array("mnemonic".utf8)
    let range = offsets[index]..<offsets[index + 1]
    return SecureBytes(count: prefix.count + range.count) { target in
      target.copyBytes(from: prefix)
      bytes.withUnsafeBytes { source in
        UnsafeMutableRawBufferPointer(rebasing: target[prefix.count...]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: source[range]))
      }
    }
  }

  /// Passphrase `index` (NFKD): for `--out`, nowhere else.
  package func passphrase(_ index: Int) -> SecureBytes {
    bytes[offsets[index]..<offsets[index + 1]]
  }

  /// How passphrase `index` is told apart without quoting it.
  package func origin(_ index: Int) -> PassphraseOrigin {
    switch source {
    case .single: .given
    case .candidates: .line(lines[index])
    case .typos:
      .edits(
        remembered.map { PassphraseEdit.script(from: $0, to: passphrase(index)) } ?? [])
    }
  }

  /// A keyed digest of the set for a checkpoint's search hash: it tells two sets apart, and
  /// without `key` (the remembered words) does not let the passphrases be guessed from it.
  func digest(key: SecureBytes) -> [UInt8] {
    var message = Array("freedom-keys passphrases 1\0".utf8)
    withUnsafeBytes(of: UInt64(count).littleEndian) { message += $0 }
    for offset in offsets { withUnsafeBytes(of: UInt64(offset).littleEndian) { message += $0 } }
    let whole = SecureBytes(message) + bytes
    let tag = key.withUnsafeBytes { key in
      whole.withUnsafeBytes { HMACSHA256.authenticate(key: key, message: $0) }
    }
    return tag.withUnsafeBytes { Array($0) }
  }

  // MARK: - Building

  /// The distinct strings of `arena` at `ranges` (the first of equal ones kept) in one new
  /// buffer, its offsets, and the index in `ranges` of each kept.
  private static func distinct(_ arena: SecureBytes, _ ranges: [Range<Int>])
    -> (SecureBytes, [Int], [Int])
  {
    arena.withUnsafeBytes { raw in
      func slice(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: raw[ranges[index]])
      }
      let order = ranges.indices.sorted { a, b in
        let (x, y) = (slice(a), slice(b))
        if x.elementsEqual(y) { return a < b }
        return x.lexicographicallyPrecedes(y)
      }
      var kept: [Int] = []
      kept.reserveCapacity(order.count)
      for (position, index) in order.enumerated() {
        if position > 0, slice(order[position - 1]).elementsEqual(slice(index)) { continue }
        kept.append(index)
      }
      kept.sort()
      var offsets = [0]
      offsets.reserveCapacity(kept.count + 1)
      for index in kept { offsets.append(offsets.last! + ranges[index].count) }
      let bytes = SecureBytes(count: offsets.last!) { target in
        for (slot, index) in kept.enumerated() {
          UnsafeMutableRawBufferPointer(rebasing: target[offsets[slot]..<offsets[slot + 1]])
            .copyMemory(from: slice(index))
        }
      }
      return (bytes, offsets, kept)
    }
  }

  /// Calls `body` with every scalar string one edit from `scalars` (NFKD), in canonical order,
  /// made in `edited` (room for one scalar more than `scalars`).
  private static func forEachEdit(
    of scalars: ScalarBuffer, alphabet: ScalarBuffer, scratch edited: inout ScalarBuffer,
    _ body: (ScalarBuffer) -> Void
  ) {
    edited.assign(scalars)
    func emit() {
      NFKD.putInCanonicalOrder(&edited)
      body(edited)
      edited.assign(scalars)
    }
    for position in 0..<scalars.count {
      edited.remove(at: position)
      emit()
    }
    for position in 0..<max(0, scalars.count - 1) where scalars[position] != scalars[position + 1] {
      edited.swapAt(position, position + 1)
      emit()
    }
    for position in 0..<scalars.count {
      for index in 0..<alphabet.count where alphabet[index] != scalars[position] {
        edited[position] = alphabet[index]
        emit()
      }
    }
    for position in 0...scalars.count {
      for index in 0..<alphabet.count {
        edited.insert(alphabet[index], at: position)
        emit()
      }
    }
  }
}

/// Which passphrase matched, told without quoting it.
package enum PassphraseOrigin: Sendable, Equatable {
  /// The one passphrase given (or the empty one).
  case given
  /// The 1-based line of the candidates file.
  case line(Int)
  /// The edits from the remembered passphrase (none: it was right).
  case edits([PassphraseEdit])
}

/// One edit of a passphrase, by 1-based character position in the remembered one.
package enum PassphraseEdit: Sendable, Equatable {
  /// A character inserted before character `at` (count + 1: at the end).
  case inserted(at: Int)
  /// Character `at` deleted.
  case deleted(at: Int)
  /// Character `at` replaced by another.
  case replaced(at: Int)
  /// Characters `at` and `at + 1` exchanged.
  case exchanged(at: Int)

  /// The fewest edits (optimal string alignment) that turn `from` into `to`.
  static func script(from: SecureBytes, to: SecureBytes) -> [PassphraseEdit] {
    // Both are valid UTF-8 (NFKD made them).
    let n = from.withUnsafeBytes { ScalarBuffer.scalarCount(inUTF8: $0) }!
    let m = to.withUnsafeBytes { ScalarBuffer.scalarCount(inUTF8: $0) }!
    return ScalarBuffer.withWiped(capacity: n) { a in
      ScalarBuffer.withWiped(capacity: m) { b in
        from.withUnsafeBytes { a.append(utf8: $0) }
        to.withUnsafeBytes { b.append(utf8: $0) }
        return script(from: a, to: b)
      }
    }
  }

  /// The fewest edits that turn the scalars `a` into `b`.
  private static func script(from a: ScalarBuffer, to b: ScalarBuffer) -> [PassphraseEdit] {
    let (n, m) = (a.count, b.count)
    var d = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in 0...n { d[i][0] = i }
    for j in 0...m { d[0][j] = j }
    if n > 0, m > 0 {
      for i in 1...n {
        for j in 1...m {
          d[i][j] = min(
            d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
          if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
            d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
          }
        }
      }
    }
    var edits: [PassphraseEdit] = []
    var (i, j) = (n, m)
    while i > 0 || j > 0 {
      if i > 0, j > 0, a[i - 1] == b[j - 1], d[i][j] == d[i - 1][j - 1] {
        (i, j) = (i - 1, j - 1)
      } else if i > 0, j > 0, d[i][j] == d[i - 1][j - 1] + 1 {
        edits.append(.replaced(at: i))
        (i, j) = (i - 1, j - 1)
      } else if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1],
        d[i][j] == d[i - 2][j - 2] + 1
      {
        edits.append(.exchanged(at: i - 1))
        (i, j) = (i - 2, j - 2)
      } else if i > 0, d[i][j] == d[i - 1][j] + 1 {
        edits.append(.deleted(at: i))
        i -= 1
      } else {
        edits.append(.inserted(at: i + 1))
        j -= 1
      }
    }
    return edits.reversed()
  }
}

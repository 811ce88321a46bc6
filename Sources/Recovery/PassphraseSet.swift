import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The BIP-39 passphrases a search tries with every checksum-valid phrase: one (the empty
/// passphrase, or the one given), the lines of a candidates file, or every passphrase within K
/// typos of a remembered one, likeliest first. Distinct after NFKD, in the order given (a later duplicate is
/// dropped), all in one wiped buffer — except those numbered, not held: a token list's, the
/// lines of a candidates file too large to hold and typos too many to hold (`TypoTree`), made
/// (NFKD) from their number as the search takes them, where one may come twice (`mayRepeat`).
package struct PassphraseSet: Sendable {
  /// Where the passphrases came from, to say which one matched without quoting it.
  package enum Source: Sendable, Equatable {
    /// One passphrase, given (or the empty one).
    case single
    /// The lines of a candidates file: passphrase i is line `lines[i]` (1-based).
    case candidates
    /// The passphrases within `edits` edits of a remembered one; the first is the remembered.
    case typos(edits: Int)
    /// The passphrases a token list makes (`PasswordTokens`, btcrecover's syntax).
    case tokens
  }

  /// The NFKD passphrases, one after the other.
  private let bytes: SecureBytes
  /// Passphrase i is `bytes[offsets[i]..<offsets[i + 1]]`.
  private let offsets: [Int]
  /// For `.candidates`: the 1-based line of each passphrase; for `.tokens`: the number of each
  /// in the token list's numbering.
  private let lines: [Int]
  /// For `.tokens`, `.candidates` from a file read line by line and `.typos` too many to hold:
  /// the passphrases, made from their number as the search takes them (none held in `bytes`;
  /// numbered typos keep the remembered passphrase there, for the digest).
  private let numbered: Numbered?
  /// For `.typos`: how each string made was made (the remembered one first), and which of them
  /// passphrase i is — the typos that made a passphrase, without its text.
  private let steps: [Step]
  private let made: [Int]
  package let source: Source

  /// More passphrases than this (before duplicates are dropped) are refused.
  package static let maximumCount = 1 << 23
  /// More bytes of passphrases than this (before duplicates are dropped) are refused.
  static let maximumByteCount = 1 << 28
  /// The characters `typos` inserts and substitutes besides the passphrase's own: printable
  /// ASCII, space to tilde.
  package static let printableASCII: ClosedRange<UInt8> = 0x20...0x7E

  /// The number of passphrases.
  package var count: Int {
    switch numbered {
    case nil: offsets.count - 1
    case .lines(let lines): lines.count
    case .tokens(let tokens): tokens.count
    case .typos(let tree): tree.count
    }
  }

  /// Whether the same passphrase may come more than once: those numbered (a token list's, a
  /// file's read line by line, typos too many to hold) are not compared (the others are, and each is kept where it
  /// first comes).
  package var mayRepeat: Bool { numbered != nil }

  /// Passphrases made from their number, not held.
  private enum Numbered: Sendable {
    /// Line i + 1 of a file read line by line.
    case lines(CandidateLines)
    /// Password i of a token list.
    case tokens(PasswordTokens)
    /// String i of the remembered passphrase's numbered typos.
    case typos(TypoTree)
  }

  /// The empty passphrase, or `passphrase`.
  package init(passphrase: SecureBytes = SecureBytes(count: 0) { _ in }) {
    bytes = Mnemonic.compatibilityDecomposed(passphrase)
    offsets = [0, bytes.count]
    lines = []
    numbered = nil
    steps = []
    made = []
    source = .single
  }

  /// The lines of a candidates file (UTF-8): each line one passphrase, an empty line the empty
  /// passphrase; "\n" or "\r\n" ends a line, and the last line ending adds no line.
  package init(candidates file: SecureBytes) throws(RecoveryError) {
    guard file.withUnsafeBytes(ScalarBuffer.isValidUTF8) else { throw .invalidUTF8 }
    let ranges = file.withUnsafeBytes(Self.lines)
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
    numbered = nil
    steps = []
    made = []
    source = .candidates
  }

  /// The lines of a candidates file too large to hold, read from it as the search takes them
  /// (each NFKD as it is read); numbered, not compared: one may come twice.
  package init(candidates lines: CandidateLines) {
    bytes = SecureBytes(count: 0) { _ in }
    offsets = [0]
    self.lines = []
    numbered = .lines(lines)
    steps = []
    made = []
    source = .candidates
  }

  /// The passphrases a token list makes (btcrecover's syntax, `PasswordTokens`), in its order:
  /// numbered, made (NFKD) from their number as the search takes them, never held; not
  /// compared, so one may come twice, and `count` is the token list's, exactly.
  package init(tokens: PasswordTokens) {
    bytes = SecureBytes(count: 0) { _ in }
    offsets = [0]
    lines = []
    numbered = .tokens(tokens)
    steps = []
    made = []
    source = .tokens
  }

  /// The passphrases within `edits` typos of `remembered` (NFKD), likeliest first: the
  /// remembered one; then one typo away — the likely typos of `typos` (caps lock, a case, a
  /// character dropped, doubled or replaced by a neighbouring key, two exchanged, a digit or
  /// symbol added), then the generic edits (a character inserted, deleted, replaced, or two
  /// adjacent ones exchanged, each inserted or new character one of the passphrase's own or
  /// printable ASCII); then k typos away — the likely typos of the strings k − 1 likely typos
  /// made, then the generic edits of every string of level k − 1 and the likely typos of the
  /// others. Each passphrase is kept where it first comes. More than `maximumHeld` (before
  /// duplicates are dropped) are refused; with `streamsTypos` they are numbered instead
  /// (`TypoTree`): counted exactly, made as the search takes them, not compared (so they may
  /// repeat), and refused only when their count may overflow `Int` or take too long to count.
  package init(
    remembered passphrase: SecureBytes, edits: Int, typos model: TypoModel = TypoModel(),
    streamsTypos: Bool = false, maximumHeld: Int = PassphraseSet.maximumCount
  ) throws(RecoveryError) {
    guard let decomposed = passphrase.withUnsafeBytes({ NFKD.normalize(utf8: $0) }) else {
      throw .invalidUTF8
    }
    let edits = max(0, edits)
    // Valid UTF-8: NFKD made it.
    let length = decomposed.withUnsafeBytes { ScalarBuffer.scalarCount(inUTF8: $0) }!
    var failure: RecoveryError?
    var ranges = [0..<decomposed.count]
    var steps = [Step(parent: 0, edit: .capsLock)]
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
      let width = model.maximumUTF8Width(alphabet)
      // Count first: how many strings the edits make and their bytes, before any is made.
      var raw = 1
      var byteBound = decomposed.count
      func count(_ count: Int, _ ways: Int, _ newLength: Int, into next: inout [Int: Int])
        -> Bool
      {
        guard newLength >= 0, ways > 0 else { return true }
        let (product, overflow) = count.multipliedReportingOverflow(by: ways)
        guard !overflow, product <= maximumHeld, raw + product <= maximumHeld else {
          failure = .tooManyPassphrases(UInt64(maximumHeld) + 1)
          return false
        }
        next[newLength, default: 0] += product
        raw += product
        byteBound += product * newLength * width
        guard byteBound <= Self.maximumByteCount else {
          failure = .tooManyPassphrases(UInt64(raw))
          return false
        }
        return true
      }
      // The strings of a level by length: those made by likely typos only, and the others.
      var likely = [length: 1]
      var others: [Int: Int] = [:]
      for _ in 0..<edits {
        var nextLikely: [Int: Int] = [:]
        var nextOthers: [Int: Int] = [:]
        for (length, number) in likely {
          for (change, ways) in model.typoBound(length: length) {
            guard count(number, ways, length + change, into: &nextLikely) else { return }
          }
        }
        for (length, number) in likely.merging(others, uniquingKeysWith: +) {
          // Deletions; exchanges and replacements; insertions.
          let ways = [
            (length - 1, length), (length, max(0, length - 1) + length * (alphabet.count - 1)),
            (length + 1, (length + 1) * alphabet.count),
          ]
          for (newLength, ways) in ways {
            guard count(number, ways, newLength, into: &nextOthers) else { return }
          }
        }
        for (length, number) in others {
          for (change, ways) in model.typoBound(length: length) {
            guard count(number, ways, length + change, into: &nextOthers) else { return }
          }
        }
        (likely, others) = (nextLikely, nextOthers)
      }
      // Every variant, level by level, into one wiped buffer.
      ranges.reserveCapacity(raw)
      steps.reserveCapacity(raw)
      arena = SecureBytes(count: byteBound) { target in
        decomposed.withUnsafeBytes {
          UnsafeMutableRawBufferPointer(rebasing: target[0..<$0.count]).copyMemory(from: $0)
        }
        var cursor = decomposed.count
        var level = 0..<1
        // Whether each string of the level was made by likely typos only.
        var levelLikely = [true]
        ScalarBuffer.withWiped(capacity: length + edits) { scalars in
          ScalarBuffer.withWiped(capacity: length + edits + 1) { edited in
            for _ in 0..<edits {
              let start = ranges.count
              var nextLikely: [Bool] = []
              func load(_ variant: Int) {
                scalars.removeAll()
                scalars.append(utf8: UnsafeRawBufferPointer(rebasing: target[ranges[variant]]))
              }
              func keep(
                _ made: ScalarBuffer, _ edit: PassphraseEdit, of parent: Int, _ likely: Bool
              ) {
                let begin = cursor
                cursor = made.encode(into: target, at: cursor)
                ranges.append(begin..<cursor)
                steps.append(Step(parent: parent, edit: edit))
                nextLikely.append(likely)
              }
              for (offset, variant) in level.enumerated() where levelLikely[offset] {
                load(variant)
                model.forEachTypo(of: scalars, scratch: &edited) { keep($0, $1, of: variant, true) }
              }
              for (offset, variant) in level.enumerated() {
                load(variant)
                if !levelLikely[offset] {
                  model.forEachTypo(of: scalars, scratch: &edited) {
                    keep($0, $1, of: variant, false)
                  }
                }
                Self.forEachEdit(of: scalars, alphabet: alphabet, scratch: &edited) {
                  keep($0, $1, of: variant, false)
                }
              }
              level = start..<ranges.count
              levelLikely = nextLikely
            }
          }
        }
      }
    }
    if let failure {
      guard streamsTypos else { throw failure }
      let tree: TypoTree
      do {
        tree = try TypoTree(
          remembered: decomposed, levels: TypoTree.passphraseLevels(edits: edits), model: model,
          canonicalOrder: true)
      } catch .tooManyToCount(let bound) {
        throw .tooManyPassphrasesToCount(UInt64(bound))
      } catch {
        // The count may overflow `Int`: then it is more than can be numbered.
        throw .tooManyPassphrases(UInt64(Int.max))
      }
      bytes = decomposed
      offsets = [0, decomposed.count]
      lines = []
      numbered = .typos(tree)
      self.steps = []
      made = []
      source = .typos(edits: edits)
      return
    }
    let (bytes, offsets, kept) = Self.distinct(arena, ranges)
    self.bytes = bytes
    self.offsets = offsets
    lines = []
    numbered = nil
    self.steps = steps
    made = kept
    source = .typos(edits: edits)
  }

  /// BIP-39's salt for passphrase `index`: "mnemonic" + the NFKD passphrase (a line read line
  /// by line: `CandidateFileError` when the file cannot be read or changed since it was counted).
  func salt(_ index: Int) throws(CandidateFileError) -> SecureBytes {
    try salts(index..<(index + 1))[0]
  }

  /// The salts of passphrases `range`, in order: one read of a file read line by line, one
  /// token cursor's walk.
  func salts(_ range: Range<Int>) throws(CandidateFileError) -> [SecureBytes] {
    let prefix = SecureBytes(Array("mnemonic".utf8))
    return try passphrases(range).map { prefix + $0 }
  }

  /// The salt of the first passphrase if it is held (the one of `.single`), else of the empty
  /// passphrase: a sample salt, to measure a search without reading a file.
  var firstSalt: SecureBytes {
    let prefix = SecureBytes(Array("mnemonic".utf8))
    return numbered == nil ? prefix + bytes[offsets[0]..<offsets[1]] : prefix
  }

  /// The one passphrase (NFKD) of `.single`; nil for the others.
  package var given: SecureBytes? { source == .single ? bytes : nil }

  /// Passphrase `index` (NFKD): for `--out`, nowhere else.
  package func passphrase(_ index: Int) throws(CandidateFileError) -> SecureBytes {
    try passphrases(index..<(index + 1))[0]
  }

  /// Passphrases `range` (NFKD), each in a wiped buffer of its own.
  private func passphrases(_ range: Range<Int>) throws(CandidateFileError) -> [SecureBytes] {
    switch numbered {
    case nil:
      return range.map { bytes[offsets[$0]..<offsets[$0 + 1]] }
    case .tokens(let tokens):
      var cursor = PasswordTokens.Cursor(tokens, at: range.lowerBound)
      // Valid UTF-8: made of a UTF-8 file's bytes and whole characters.
      return range.map { _ in Self.decomposed(cursor.next()!.1)! }
    case .lines(let lines):
      var made: [SecureBytes] = []
      var invalid = false
      made.reserveCapacity(range.count)
      try lines.forEach(in: range) { _, line in
        guard let passphrase = Self.decomposed(SecureBytes(line)) else {
          invalid = true
          return
        }
        made.append(passphrase)
      }
      // The count checked every line's UTF-8: one that fails now was changed.
      guard !invalid else { throw .changed }
      return made
    case .typos(let tree):
      return tree.strings(range)
    }
  }

  /// The NFKD of a UTF-8 passphrase (ASCII is its own), nil if it is not UTF-8.
  private static func decomposed(_ passphrase: SecureBytes) -> SecureBytes? {
    let ascii = passphrase.withUnsafeBytes { !$0.contains { $0 >= 0x80 } }
    return ascii ? passphrase : passphrase.withUnsafeBytes { NFKD.normalize(utf8: $0) }
  }

  /// How passphrase `index` is told apart without quoting it.
  package func origin(_ index: Int) -> PassphraseOrigin {
    switch (source, numbered) {
    case (.single, _): .given
    case (_, .lines): .line(index + 1)
    case (_, .tokens(let tokens)): .tokens(tokens.decode(index).choices)
    case (_, .typos(let tree)): .edits(tree.edits(at: index))
    case (.candidates, nil): .line(lines[index])
    case (.tokens, nil): .tokens([])
    case (.typos, nil): .edits(edits(madeBy: made[index]))
    }
  }

  /// The typos that made string `index` of those made, in the order made.
  private func edits(madeBy index: Int) -> [PassphraseEdit] {
    var edits: [PassphraseEdit] = []
    var index = index
    while index != 0 {
      edits.append(steps[index].edit)
      index = steps[index].parent
    }
    return edits.reversed()
  }

  /// A keyed digest of the set for a checkpoint's search hash: it tells two sets apart, and
  /// without `key` (the remembered words) does not let the passphrases be guessed from it.
  /// Numbered passphrases enter by what defines them: the token list as read, or the digest
  /// of the file's content made when it was counted.
  func digest(key: SecureBytes) -> [UInt8] {
    var message = Array("freedom-keys passphrases 1\0".utf8)
    withUnsafeBytes(of: UInt64(count).littleEndian) { message += $0 }
    for offset in offsets { withUnsafeBytes(of: UInt64(offset).littleEndian) { message += $0 } }
    var whole = SecureBytes(message) + bytes
    switch numbered {
    case nil: break
    case .tokens(let tokens): whole = whole + SecureBytes(Array("tokens\0".utf8)) + tokens.fileBytes
    case .lines(let lines): whole = whole + SecureBytes(Array("lines\0".utf8)) + lines.contentDigest
    case .typos(let tree):
      // The remembered passphrase (held alone in `bytes`), K and the keyboard.
      var typos = Array("numbered typos\0".utf8)
      if case .typos(let edits) = source {
        withUnsafeBytes(of: UInt64(edits).littleEndian) { typos += $0 }
      }
      typos += Array(tree.model.keyboard.name.utf8) + [0]
      whole = whole + SecureBytes(typos)
    }
    let tag = key.withUnsafeBytes { key in
      whole.withUnsafeBytes { HMACSHA256.authenticate(key: key, message: $0) }
    }
    return tag.withUnsafeBytes { Array($0) }
  }

  // MARK: - Building

  /// The lines of a candidates file: "\n" or "\r\n" ends a line (not part of it), and the
  /// last line ending adds no line.
  static func lines(_ raw: UnsafeRawBufferPointer) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    for index in raw.indices where raw[index] == 0x0A {
      let end = index > start && raw[index - 1] == 0x0D ? index - 1 : index
      ranges.append(start..<end)
      start = index + 1
    }
    if start < raw.count { ranges.append(start..<raw.count) }
    return ranges
  }

  /// The distinct strings of `arena` at `ranges` (the first of equal ones kept) in one new
  /// buffer, its offsets, and the index in `ranges` of each kept.
  static func distinct(_ arena: SecureBytes, _ ranges: [Range<Int>])
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

  /// Calls `body` with every scalar string one edit from `scalars` (a character deleted, two
  /// adjacent ones exchanged, one replaced by, or one inserted from, `alphabet`), made in
  /// `edited` (room for one scalar more than `scalars`). With `canonicalOrder` (a BIP-39
  /// passphrase, compared in NFKD) combining marks an edit moved are put back in canonical
  /// order; a password is hashed as typed, so it is left as made.
  static func forEachEdit(
    of scalars: ScalarBuffer, alphabet: ScalarBuffer, scratch edited: inout ScalarBuffer,
    canonicalOrder: Bool = true, _ body: (ScalarBuffer, PassphraseEdit) -> Void
  ) {
    edited.assign(scalars)
    func emit(_ edit: PassphraseEdit) {
      if canonicalOrder { NFKD.putInCanonicalOrder(&edited) }
      body(edited, edit)
      edited.assign(scalars)
    }
    for position in 0..<scalars.count {
      edited.remove(at: position)
      emit(.deleted(at: position + 1))
    }
    for position in 0..<max(0, scalars.count - 1) where scalars[position] != scalars[position + 1] {
      edited.swapAt(position, position + 1)
      emit(.exchanged(at: position + 1))
    }
    for position in 0..<scalars.count {
      for index in 0..<alphabet.count where alphabet[index] != scalars[position] {
        edited[position] = alphabet[index]
        emit(.replaced(at: position + 1))
      }
    }
    for position in 0...scalars.count {
      for index in 0..<alphabet.count {
        edited.insert(alphabet[index], at: position)
        emit(.inserted(at: position + 1))
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
  /// The typos that made it from the remembered passphrase, in the order made (none: it was
  /// right).
  case edits([PassphraseEdit])
  /// Made of these tokens of the token list, in this order.
  case tokens([PasswordTokens.Choice])
}

/// One typo of a passphrase, by 1-based character position in the passphrase as the typos
/// before it left it (for the first, the remembered one).
package enum PassphraseEdit: Sendable, Equatable, CustomStringConvertible {
  /// A character inserted before character `at` (count + 1: at the end).
  case inserted(at: Int)
  /// Character `at` deleted (dropped).
  case deleted(at: Int)
  /// Character `at` replaced by another.
  case replaced(at: Int)
  /// Characters `at` and `at + 1` exchanged.
  case exchanged(at: Int)
  /// Every letter's case flipped.
  case capsLock
  /// Character `at`'s case flipped (1: shift on the first character).
  case caseFlipped(at: Int)
  /// Character `at` typed twice.
  case doubled(at: Int)
  /// Character `at` replaced by a key beside it.
  case neighbour(at: Int)
  /// A digit or symbol added at the end.
  case appended
  /// A digit or symbol added at the start.
  case prepended

  /// The typo in words, naming no character: "caps lock", "character 3 deleted".
  package var description: String {
    switch self {
    case .inserted(let at): "a character inserted before character \(at)"
    case .deleted(let at): "character \(at) deleted"
    case .replaced(let at): "character \(at) replaced"
    case .exchanged(let at): "characters \(at) and \(at + 1) exchanged"
    case .capsLock: "caps lock"
    case .caseFlipped(let at): "character \(at) in the other case"
    case .doubled(let at): "character \(at) doubled"
    case .neighbour(let at): "character \(at) replaced by a neighbouring key"
    case .appended: "a digit or symbol added at the end"
    case .prepended: "a digit or symbol added at the start"
    }
  }
}

/// How one string of a typo set was made: the string it was made from and the typo, packed in
/// eight bytes (a set may hold millions).
struct Step {
  private let parentIndex: UInt32
  private let packed: UInt32

  init(parent: Int, edit: PassphraseEdit) {
    parentIndex = UInt32(parent)
    let (kind, position): (UInt32, Int) =
      switch edit {
      case .inserted(let at): (0, at)
      case .deleted(let at): (1, at)
      case .replaced(let at): (2, at)
      case .exchanged(let at): (3, at)
      case .capsLock: (4, 0)
      case .caseFlipped(let at): (5, at)
      case .doubled(let at): (6, at)
      case .neighbour(let at): (7, at)
      case .appended: (8, 0)
      case .prepended: (9, 0)
      }
    // A position is below the set's byte bound, 2^28.
    packed = kind << 28 | UInt32(position)
  }

  var parent: Int { Int(parentIndex) }

  var edit: PassphraseEdit {
    let at = Int(packed & (1 << 28 - 1))
    return switch packed >> 28 {
    case 0: .inserted(at: at)
    case 1: .deleted(at: at)
    case 2: .replaced(at: at)
    case 3: .exchanged(at: at)
    case 4: .capsLock
    case 5: .caseFlipped(at: at)
    case 6: .doubled(at: at)
    case 7: .neighbour(at: at)
    case 8: .appended
    default: .prepended
    }
  }
}

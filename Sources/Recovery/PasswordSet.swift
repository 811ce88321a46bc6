import CryptoPrimitives
import VaultKeys

/// The passwords a password search tries, numbered in order: the one remembered, then those
/// within K likely typos of it (`TypoModel`: caps lock, shift, a dropped, doubled or
/// neighbouring key, an exchange, a symbol added; cheapest first, level by level; when asked,
/// the passwords one generic edit away come after the first level), then those a token list
/// makes, then the lines of a candidates file. The bytes are exactly what an app hashes: UTF-8
/// as given, never normalised. The typos' and the lines' are held in one wiped buffer, each
/// once; the token list's are made from their number as the search takes them (never held,
/// not compared: one may come twice, `mayRepeat`), and so are the lines of a candidates file
/// too large to hold (`CandidateLines`: read from the file by number, not compared). Typos
/// too many to hold may be numbered instead (`TypoTree`): made as the search takes them, in
/// the same order, and not compared.
package struct PasswordSet: Sendable {
  /// Where a password came from, to say which one opened the file without quoting it.
  package enum Origin: Sendable, Equatable {
    /// The password as remembered.
    case remembered
    /// The remembered password with these typos, in the order made.
    case typos([PassphraseEdit])
    /// Made of these tokens of the token list, in this order.
    case tokens([PasswordTokens.Choice])
    /// The 1-based line of the candidates file.
    case line(Int)
  }

  /// A level of the passwords made from the remembered one, searched in turn as a phase.
  package enum Level: Sendable, Equatable {
    /// The password as remembered.
    case remembered
    /// This many likely typos of it (`TypoModel`).
    case likelyTypos(Int)
    /// One generic edit of it: a character deleted, inserted or replaced (by any printable
    /// ASCII character or one of its own), or two adjacent ones exchanged.
    case oneEdit
  }

  /// The passwords, one after the other.
  private let bytes: SecureBytes
  /// Password i is `bytes[offsets[i]..<offsets[i + 1]]`.
  private let offsets: [Int]
  /// Which string made password i is (the strings made: the remembered one and its typos, then
  /// the lines).
  private let made: [Int]
  /// How each of the remembered password's strings was made (its typos' chain).
  private let steps: [Step]
  /// Where each level ends among the strings made (the first: the remembered one), and what
  /// it is.
  private let levelEnds: [Int]
  private let levelKinds: [Level]
  /// The token list, whose `tokenCount` passwords come after the typos' `madeFirst` and
  /// before the lines': numbered, made as the search takes them, never held together.
  private let tokens: PasswordTokens?
  private let tokenCount: Int
  private let madeFirst: Int
  /// For the strings made from lines (after the tokens'): the 1-based line.
  private let lines: [Int]
  /// A candidates file read line by line: its lines come last, after every other.
  private let streamedLines: CandidateLines?
  /// The remembered password's levels when they are numbered, not held (they come first,
  /// then the token list's and the lines'), and what each level is.
  private let typoTree: TypoTree?
  private let streamedLevels: [Level]
  /// What a search's hash takes of numbered typos: the remembered password and how its
  /// typos are made.
  private let typoTreeHashInput: SecureBytes?

  /// More passwords than this (before duplicates are dropped) are refused, as for passphrases.
  package static let maximumCount = PassphraseSet.maximumCount
  /// More bytes of passwords than this (before duplicates are dropped) are refused.
  static let maximumByteCount = PassphraseSet.maximumByteCount

  /// The number of passwords.
  package var count: Int { typoCount + linesFirst + (streamedLines?.count ?? 0) }

  /// How many passwords the numbered typos make (0 when they are held); they come first.
  private var typoCount: Int { typoTree?.count ?? 0 }

  /// The number, after the numbered typos, of the first line of a candidates file read line
  /// by line.
  private var linesFirst: Int { offsets.count - 1 + tokenCount }

  /// Whether the same password may come more than once: a token list's passwords are
  /// numbered, not compared, and so are the lines of a candidates file read line by line and
  /// numbered typos (the others are, and each is kept where it first comes).
  package var mayRepeat: Bool { tokens != nil || streamedLines != nil || typoTree != nil }

  /// Whether the remembered password's typos are numbered, made as the search takes them,
  /// rather than held.
  package var streamsTypos: Bool { typoTree != nil }

  /// The remembered password (if any) and every password within `typos` likely typos of it
  /// (with `oneEdit`, every password one generic edit from it after those one likely typo
  /// away), then every password `tokens` makes, then each line of `candidates` (UTF-8; "\n"
  /// or "\r\n" ends a line, an empty line is the empty password, the last line ending adds
  /// no line). How many there may be is bounded before any is made (the token list's counted
  /// exactly); duplicates among the typos' and the lines' are dropped where they come again,
  /// so `count` is exact (the token list's may repeat). A candidates file too large to hold is
  /// given as `lines` instead: its lines are read as the search takes them, not compared.
  /// Typos that would make more than `maximumHeld` passwords (or more than `maximumByteCount`
  /// bytes), before duplicates are dropped, are refused; with `streamsTypos` they are numbered
  /// instead (`TypoTree`): counted exactly, made as the search takes them, not compared (so
  /// they may repeat), and refused only when their count may overflow `Int` or take too long
  /// to count.
  package init(
    remembered: SecureBytes?, typos: Int = 0, oneEdit: Bool = false,
    model: TypoModel = TypoModel(), tokens: PasswordTokens? = nil, candidates: SecureBytes? = nil,
    lines fileLines: CandidateLines? = nil, streamsTypos: Bool = false,
    maximumHeld: Int = PasswordSet.maximumCount
  ) throws(PasswordRecoveryError) {
    let typos = remembered == nil ? 0 : max(0, typos)
    let oneEdit = remembered != nil && oneEdit
    // The generic edits come after this many levels of likely typos.
    let editsAfter = min(1, typos)
    let lineRanges = candidates?.withUnsafeBytes(PassphraseSet.lines) ?? []
    if let candidates {
      guard candidates.withUnsafeBytes(ScalarBuffer.isValidUTF8) else { throw .invalidUTF8 }
      guard !lineRanges.isEmpty else { throw .noPasswords }
    }
    guard remembered != nil || tokens != nil || !lineRanges.isEmpty || fileLines != nil else {
      throw .noPasswords
    }
    let length: Int
    if let remembered {
      guard let scalars = remembered.withUnsafeBytes(ScalarBuffer.scalarCount) else {
        throw .invalidUTF8
      }
      length = scalars
    } else {
      length = 0
    }
    // What an edit inserts or puts in place of a character: printable ASCII and the
    // password's own characters (counted here, held in wiped memory where they are made).
    var alphabetCount = 0
    if oneEdit, let remembered {
      alphabetCount = remembered.withUnsafeBytes { raw in
        ScalarBuffer.withWiped(capacity: length) { own in
          ScalarBuffer.forEachScalar(inUTF8: raw) { scalar in
            let printable =
              scalar.isASCII && PassphraseSet.printableASCII.contains(UInt8(scalar.value))
            if !printable, !own.contains(scalar) { own.append(scalar) }
          }
          return PassphraseSet.printableASCII.count + own.count
        }
      }
    }

    // Count first: the strings the typos make and their bytes, before any is made.
    var raw = (remembered == nil ? 0 : 1) + lineRanges.count
    var byteBound = (remembered?.count ?? 0) + (candidates?.count ?? 0)
    guard raw <= maximumHeld else { throw .tooManyPasswords(UInt64(raw)) }
    // Whether the typos are held; when they would be too many, numbered (if allowed).
    var streamed: TypoTree?
    var streamedKinds: [Level] = []
    func heldTypos(_ remembered: SecureBytes) throws(PasswordRecoveryError) {
      let width = remembered.withUnsafeBytes { raw in
        ScalarBuffer.withWiped(capacity: length) { alphabet in
          alphabet.append(utf8: raw)
          return model.maximumUTF8Width(alphabet)
        }
      }
      if oneEdit {
        // Deletions, exchanges, replacements, insertions: at most this many of at most one
        // character more, each character at most `width` bytes (an own or an ASCII one).
        let edits =
          length + max(0, length - 1) + length * (alphabetCount - 1) + (length + 1)
          * alphabetCount
        raw += edits
        byteBound += edits * (length + 1) * width
        guard raw <= maximumHeld, byteBound <= Self.maximumByteCount else {
          throw .tooManyPasswords(UInt64(raw))
        }
      }
      var level = [length: 1]
      for _ in 0..<typos {
        var next: [Int: Int] = [:]
        for (length, number) in level {
          for (change, ways) in model.typoBound(length: length) {
            let (product, overflow) = number.multipliedReportingOverflow(by: ways)
            guard !overflow, product <= maximumHeld, raw + product <= maximumHeld
            else { throw .tooManyPasswords(UInt64(maximumHeld) + 1) }
            raw += product
            next[length + change, default: 0] += product
            byteBound += product * (length + change) * width
            guard byteBound <= Self.maximumByteCount else {
              throw .tooManyPasswords(UInt64(raw))
            }
          }
        }
        level = next
      }
    }
    if let remembered, typos > 0 || oneEdit {
      do {
        try heldTypos(remembered)
      } catch {
        guard streamsTypos else { throw error }
        let levels = TypoTree.passwordLevels(typos: typos, oneEdit: oneEdit)
        do {
          streamed = try TypoTree(
            remembered: remembered, levels: levels.map(\.segments), model: model,
            canonicalOrder: false)
        } catch .tooManyToCount(let bound) {
          throw .tooManyPasswordsToCount(UInt64(bound))
        } catch {
          // The count may overflow `Int`: then it is more than can be numbered.
          throw .tooManyPasswords(UInt64(Int.max))
        }
        streamedKinds = levels.map(\.level)
        // The lines alone are held: the remembered password and its typos are numbered.
        raw = lineRanges.count
        byteBound = candidates?.count ?? 0
      }
    }
    streamedLevels = streamedKinds
    typoTree = streamed
    typoTreeHashInput = streamed.map { _ in
      var marker = Array("typos\0".utf8)
      withUnsafeBytes(of: UInt64(typos).littleEndian) { marker += $0 }
      marker += [oneEdit ? 1 : 0] + Array(model.keyboard.name.utf8) + [0]
      // Not nil: the typos are numbered only from a remembered password.
      let remembered = remembered!
      withUnsafeBytes(of: UInt64(remembered.count).littleEndian) { marker += $0 }
      return SecureBytes(marker) + remembered
    }

    // Every string, level by level, then the lines, into one wiped buffer.
    var ranges: [Range<Int>] = []
    var steps: [Step] = []
    var levelEnds: [Int] = []
    var levelKinds: [Level] = []
    ranges.reserveCapacity(raw)
    let arena = SecureBytes(count: byteBound) { target in
      var cursor = 0
      if let remembered, streamed == nil {
        remembered.withUnsafeBytes {
          UnsafeMutableRawBufferPointer(rebasing: target[0..<$0.count]).copyMemory(from: $0)
          cursor = $0.count
        }
        ranges.append(0..<cursor)
        // The remembered string's own step is never read: a chain ends at string 0.
        steps.append(Step(parent: 0, edit: .capsLock))
        levelEnds.append(1)
        levelKinds.append(.remembered)
        ScalarBuffer.withWiped(capacity: length + typos) { scalars in
          ScalarBuffer.withWiped(capacity: length + typos + 1) { edited in
            func edits() {
              ScalarBuffer.withWiped(capacity: alphabetCount) { alphabet in
                for byte in PassphraseSet.printableASCII { alphabet.append(Unicode.Scalar(byte)) }
                scalars.removeAll()
                scalars.append(utf8: UnsafeRawBufferPointer(rebasing: target[ranges[0]]))
                for position in 0..<scalars.count where !alphabet.contains(scalars[position]) {
                  alphabet.append(scalars[position])
                }
                PassphraseSet.forEachEdit(
                  of: scalars, alphabet: alphabet, scratch: &edited, canonicalOrder: false
                ) { made, edit in
                  let begin = cursor
                  cursor = made.encode(into: target, at: cursor)
                  ranges.append(begin..<cursor)
                  steps.append(Step(parent: 0, edit: edit))
                }
              }
              levelEnds.append(ranges.count)
              levelKinds.append(.oneEdit)
            }
            var level = 0..<1
            if oneEdit, editsAfter == 0 { edits() }
            for typo in 0..<typos {
              let start = ranges.count
              for variant in level {
                scalars.removeAll()
                scalars.append(utf8: UnsafeRawBufferPointer(rebasing: target[ranges[variant]]))
                model.forEachTypo(of: scalars, scratch: &edited, canonicalOrder: false) {
                  made, edit in
                  let begin = cursor
                  cursor = made.encode(into: target, at: cursor)
                  ranges.append(begin..<cursor)
                  steps.append(Step(parent: variant, edit: edit))
                }
              }
              level = start..<ranges.count
              levelEnds.append(ranges.count)
              levelKinds.append(.likelyTypos(typo + 1))
              if oneEdit, typo + 1 == editsAfter { edits() }
            }
          }
        }
      }
      candidates?.withUnsafeBytes { file in
        for line in lineRanges {
          let slot = UnsafeMutableRawBufferPointer(
            rebasing: target[cursor..<(cursor + line.count)])
          slot.copyMemory(from: UnsafeRawBufferPointer(rebasing: file[line]))
          ranges.append(cursor..<(cursor + line.count))
          cursor += line.count
        }
      }
    }
    let (bytes, offsets, kept) = PassphraseSet.distinct(arena, ranges)
    self.bytes = bytes
    self.offsets = offsets
    made = kept
    self.steps = steps
    self.levelEnds = levelEnds
    self.levelKinds = levelKinds
    self.tokens = tokens
    tokenCount = tokens?.count ?? 0
    // The strings made from the remembered password come first among those kept.
    madeFirst = kept.firstIndex { $0 >= steps.count } ?? kept.count
    // The numbered typos, the held, the token list's and the file's lines: all numbered in Int.
    let numbered = [tokenCount, fileLines?.count ?? 0, streamed?.count ?? 0]
    var total = offsets.count
    for count in numbered {
      let (sum, overflow) = total.addingReportingOverflow(count)
      guard !overflow, sum < Int.max else { throw .tooManyPasswords(UInt64(Int.max)) }
      total = sum
    }
    lines = lineRanges.indices.map { $0 + 1 }
    streamedLines = fileLines
  }

  /// The levels made from the remembered password, in order, and their passwords: the
  /// remembered one, those one likely typo away, the generic edits if asked, those two likely
  /// typos away, and so on (each password in the level it first comes in); empty without a
  /// remembered password.
  package var levels: [(level: Level, passwords: Range<Int>)] {
    Array(zip(typoTree == nil ? levelKinds : streamedLevels, typoLevels))
  }

  /// The passwords of each level (`levels`), in order.
  package var typoLevels: [Range<Int>] {
    if let typoTree {
      // A numbered level is one range of the numbering, in order.
      var start = 0
      return typoTree.levelCounts.map { count in
        defer { start += count }
        return start..<(start + count)
      }
    }
    // The kept strings are in the order made, so a level's passwords are those kept below
    // its end.
    let ends = levelEnds.map { end in
      var (low, high) = (0, made.count)
      while low < high {
        let middle = (low + high) / 2
        if made[middle] < end { low = middle + 1 } else { high = middle }
      }
      return low
    }
    return ends.indices.map { ($0 == 0 ? 0 : ends[$0 - 1])..<ends[$0] }
  }

  /// Password `index`, in a new wiped buffer (a line read line by line: `.candidates` when the
  /// file cannot be read or changed since it was counted).
  package func password(_ index: Int) throws(PasswordRecoveryError) -> SecureBytes {
    try passwords(index..<(index + 1))[0]
  }

  /// Password `index` of those made or held (not a line read line by line).
  private func heldOrMade(_ index: Int) -> SecureBytes {
    if let tokens, index >= madeFirst {
      if index < madeFirst + tokenCount { return tokens.password(at: index - madeFirst).1 }
      return held(index - tokenCount)
    }
    return held(index)
  }

  /// Held password `index` (the typos' and the lines', without the tokens').
  private func held(_ index: Int) -> SecureBytes {
    bytes[offsets[index]..<offsets[index + 1]]
  }

  /// What a search's hash takes, in one wiped buffer: `prefix`, then each password held as its
  /// byte count (8 bytes, little-endian) and its bytes; with a token list, then where its
  /// passwords begin and the list itself (the numbering is the list's); with a file read line
  /// by line, then where its lines begin, their number and the digest of its content; with
  /// numbered typos, the remembered password and how its typos are made.
  func hashInput(after prefix: [UInt8]) -> SecureBytes {
    var whole = lengthPrefixed(after: prefix)
    if let tokens {
      var marker = Array("tokens\0".utf8)
      withUnsafeBytes(of: UInt64(madeFirst).littleEndian) { marker += $0 }
      whole = whole + SecureBytes(marker) + tokens.fileBytes
    }
    if let streamedLines {
      var marker = Array("lines\0".utf8)
      withUnsafeBytes(of: UInt64(linesFirst).littleEndian) { marker += $0 }
      withUnsafeBytes(of: UInt64(streamedLines.count).littleEndian) { marker += $0 }
      whole = whole + SecureBytes(marker) + streamedLines.contentDigest
    }
    // Numbered typos: the remembered password and how its typos are made.
    if let typoTreeHashInput { whole = whole + typoTreeHashInput }
    return whole
  }

  /// `prefix`, then each password held as its byte count and its bytes.
  private func lengthPrefixed(after prefix: [UInt8]) -> SecureBytes {
    let count = offsets.count - 1
    return SecureBytes(count: prefix.count + 8 * count + offsets[count]) { target in
      target.copyBytes(from: prefix)
      var cursor = prefix.count
      bytes.withUnsafeBytes { source in
        for index in 0..<count {
          let range = offsets[index]..<offsets[index + 1]
          withUnsafeBytes(of: UInt64(range.count).littleEndian) {
            UnsafeMutableRawBufferPointer(rebasing: target[cursor..<(cursor + 8)])
              .copyMemory(from: $0)
          }
          cursor += 8
          UnsafeMutableRawBufferPointer(rebasing: target[cursor..<(cursor + range.count)])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[range]))
          cursor += range.count
        }
      }
    }
  }

  /// Passwords `range`, each in a wiped buffer of its own, for one batch of a search (a file
  /// read line by line: `.candidates` when it cannot be read or changed since it was counted).
  package func passwords(_ range: Range<Int>) throws(PasswordRecoveryError) -> [SecureBytes] {
    guard let typoTree else { return try afterTypos(range) }
    // The numbered typos one after the other, from one seek; then the others.
    let typos = range.clamped(to: 0..<typoTree.count)
    let rest = range.clamped(to: typoTree.count..<count)
    return typoTree.strings(typos)
      + (try afterTypos((rest.lowerBound - typoTree.count)..<(rest.upperBound - typoTree.count)))
  }

  /// Passwords `range` of those after the numbered typos (all, when none are numbered).
  private func afterTypos(_ range: Range<Int>) throws(PasswordRecoveryError) -> [SecureBytes] {
    guard let streamedLines, range.upperBound > linesFirst else { return madeOrHeld(range) }
    let lines = max(range.lowerBound, linesFirst)..<range.upperBound
    do {
      return madeOrHeld(range.lowerBound..<lines.lowerBound)
        + (try streamedLines.lines(
          (lines.lowerBound - linesFirst)..<(lines.upperBound - linesFirst)))
    } catch {
      throw .candidates(error)
    }
  }

  /// Passwords `range` of those made or held (none a line read line by line).
  private func madeOrHeld(_ range: Range<Int>) -> [SecureBytes] {
    guard let tokens else { return range.map(held) }
    let made = range.clamped(to: madeFirst..<(madeFirst + tokenCount))
    guard !made.isEmpty else { return range.map(heldOrMade) }
    // The tokens' one after the other: the next is mostly the wildcards' next characters.
    var cursor = PasswordTokens.Cursor(tokens, at: made.lowerBound - madeFirst)
    var batch = (range.lowerBound..<made.lowerBound).map(heldOrMade)
    batch.reserveCapacity(range.count)
    for _ in made { batch.append(cursor.next()!.1) }
    return batch + (made.upperBound..<range.upperBound).map(heldOrMade)
  }

  /// How password `index` is told apart without quoting it.
  package func origin(_ index: Int) -> Origin {
    var index = index
    if let typoTree {
      if index < typoTree.count {
        let edits = typoTree.edits(at: index)
        return edits.isEmpty ? .remembered : .typos(edits)
      }
      index -= typoTree.count
    }
    if streamedLines != nil, index >= linesFirst { return .line(index - linesFirst + 1) }
    if let tokens, index >= madeFirst {
      if index < madeFirst + tokenCount { return .tokens(tokens.decode(index - madeFirst).choices) }
      index -= tokenCount
    }
    let string = made[index]
    if string >= steps.count { return .line(lines[string - steps.count]) }
    guard string != 0 else { return .remembered }
    var edits: [PassphraseEdit] = []
    var current = string
    while current != 0 {
      edits.append(steps[current].edit)
      current = steps[current].parent
    }
    return .typos(edits.reversed())
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// The numbered typo tree against the sequence today's sets make before they drop duplicates
/// (made here level by level with `forEachTypo` and `forEachEdit`, as the sets do): the same
/// strings in the same order, the same count, and the same chain of typos for each.
@Suite("recover: numbered typo trees")
struct TypoTreeTests {
  /// Strings made one after the other, each with the string it was made from and the typo.
  struct Reference {
    var bytes: [UInt8] = []
    var offsets = [0]
    var parents: [Int] = []
    var steps: [PassphraseEdit?] = []
    var likely: [Bool] = []
    /// Whether each string was made by a generic edit (else a likely typo, or the root).
    var edited: [Bool] = []
    var levelCounts: [Int] = []

    var count: Int { parents.count }

    mutating func add(
      _ scalars: ScalarBuffer, parent: Int, edit: PassphraseEdit?, likely: Bool,
      edited: Bool = false
    ) {
      self.edited.append(edited)
      for index in 0..<scalars.count { bytes += Array(String(Character(scalars[index])).utf8) }
      offsets.append(bytes.count)
      parents.append(parent)
      steps.append(edit)
      self.likely.append(likely)
    }

    func string(_ index: Int) -> [UInt8] { Array(bytes[offsets[index]..<offsets[index + 1]]) }

    func edits(_ index: Int) -> [PassphraseEdit] {
      var edits: [PassphraseEdit] = []
      var index = index
      while let edit = steps[index] {
        edits.append(edit)
        index = parents[index]
      }
      return edits.reversed()
    }
  }

  /// Calls `body` with `text`'s scalars, the edits' alphabet the sets make of them (printable
  /// ASCII, then the others), and a scratch buffer.
  static func withScalars<R>(
    _ text: [UInt8], room: Int,
    _ body: (inout ScalarBuffer, inout ScalarBuffer, inout ScalarBuffer) -> R
  ) -> R {
    ScalarBuffer.withWiped(capacity: text.count + room) { scalars in
      ScalarBuffer.withWiped(capacity: text.count + room + 1) { edited in
        ScalarBuffer.withWiped(capacity: PassphraseSet.printableASCII.count + text.count) {
          alphabet in
          for byte in PassphraseSet.printableASCII { alphabet.append(Unicode.Scalar(byte)) }
          text.withUnsafeBytes { scalars.append(utf8: $0) }
          for index in 0..<scalars.count where !alphabet.contains(scalars[index]) {
            alphabet.append(scalars[index])
          }
          return body(&scalars, &edited, &alphabet)
        }
      }
    }
  }

  /// What `PasswordSet` makes of `remembered` before dropping duplicates.
  static func passwordReference(
    _ remembered: [UInt8], typos: Int, oneEdit: Bool, model: TypoModel = TypoModel()
  ) -> Reference {
    var reference = Reference()
    withScalars(remembered, room: typos + 1) { scalars, edited, alphabet in
      reference.add(scalars, parent: 0, edit: nil, likely: true)
      reference.levelCounts.append(1)
      let root = reference.string(0)
      func edits() {
        scalars.removeAll()
        root.withUnsafeBytes { scalars.append(utf8: $0) }
        let before = reference.count
        PassphraseSet.forEachEdit(
          of: scalars, alphabet: alphabet, scratch: &edited, canonicalOrder: false
        ) { reference.add($0, parent: 0, edit: $1, likely: false, edited: true) }
        reference.levelCounts.append(reference.count - before)
      }
      if oneEdit, typos == 0 { edits() }
      var level = 0..<1
      for typo in 0..<typos {
        let start = reference.count
        for parent in level {
          scalars.removeAll()
          reference.string(parent).withUnsafeBytes { scalars.append(utf8: $0) }
          model.forEachTypo(of: scalars, scratch: &edited, canonicalOrder: false) {
            reference.add($0, parent: parent, edit: $1, likely: true)
          }
        }
        level = start..<reference.count
        reference.levelCounts.append(level.count)
        if oneEdit, typo == 0 { edits() }
      }
    }
    return reference
  }

  /// What `PassphraseSet(remembered:edits:)` makes of the NFKD `remembered` before dropping
  /// duplicates.
  static func passphraseReference(
    _ remembered: [UInt8], edits: Int, model: TypoModel = TypoModel()
  ) -> Reference {
    var reference = Reference()
    withScalars(remembered, room: edits + 1) { scalars, edited, alphabet in
      reference.add(scalars, parent: 0, edit: nil, likely: true)
      reference.levelCounts.append(1)
      var level = 0..<1
      for _ in 0..<edits {
        let start = reference.count
        func load(_ parent: Int) {
          scalars.removeAll()
          reference.string(parent).withUnsafeBytes { scalars.append(utf8: $0) }
        }
        for parent in level where reference.likely[parent] {
          load(parent)
          model.forEachTypo(of: scalars, scratch: &edited) {
            reference.add($0, parent: parent, edit: $1, likely: true)
          }
        }
        for parent in level {
          load(parent)
          if !reference.likely[parent] {
            model.forEachTypo(of: scalars, scratch: &edited) {
              reference.add($0, parent: parent, edit: $1, likely: false)
            }
          }
          PassphraseSet.forEachEdit(of: scalars, alphabet: alphabet, scratch: &edited) {
            reference.add($0, parent: parent, edit: $1, likely: false, edited: true)
          }
        }
        level = start..<reference.count
        reference.levelCounts.append(level.count)
      }
    }
    return reference
  }

  static func values(_ scalars: ScalarBuffer) -> [UInt32] {
    (0..<scalars.count).map { scalars[$0].value }
  }

  static func bytes(_ secret: SecureBytes) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }

  static func nfkd(_ text: String) -> [UInt8] {
    bytes(Array(text.utf8).withUnsafeBytes { NFKD.normalize(utf8: $0) }!)
  }

  /// A random string of `length` characters of `pool`.
  static func random(
    _ pool: [String], length: Int, using generator: inout some RandomNumberGenerator
  ) -> String {
    String((0..<length).map { _ in pool.randomElement(using: &generator)! }.joined())
  }

  static let ascii = "aAbZq1 !~e9Pp".map { String($0) }
  static let nonASCII = ["é", "É", "ß", "ü", "Ω", "ñ", "a", "Q", "2", "ж"]
  static let marked = ["e\u{301}", "a\u{323}\u{307}", "o\u{308}", "ǅ", "ﬁ", "Å", "x", "N"]

  /// The tree's sequence is the reference's: all of it in order, string and chain at random
  /// numbers, and runs from random starts.
  static func expectSame(
    _ tree: TypoTree, _ reference: Reference, _ name: String,
    using generator: inout some RandomNumberGenerator
  ) {
    #expect(tree.count == reference.count, "\(name): count")
    #expect(tree.levelCounts == reference.levelCounts, "\(name): level counts")
    guard tree.count == reference.count else { return }
    var index = 0
    var mismatches = 0
    tree.forEach(from: 0) { scalars in
      var made: [UInt8] = []
      for position in 0..<scalars.count {
        made += Array(String(Character(scalars[position])).utf8)
      }
      if made != reference.string(index) { mismatches += 1 }
      index += 1
      return true
    }
    #expect(index == reference.count, "\(name): strings walked")
    #expect(mismatches == 0, "\(name): strings out of order")
    for _ in 0..<25 {
      let index = Int.random(in: 0..<reference.count, using: &generator)
      #expect(bytes(tree.string(at: index)) == reference.string(index), "\(name): string \(index)")
      #expect(tree.edits(at: index) == reference.edits(index), "\(name): edits of \(index)")
    }
    // Runs from random starts, and from just before a parent's typos give way to its edits.
    var starts = (0..<8).map { _ in Int.random(in: 0..<reference.count, using: &generator) }
    let turns = (1..<reference.count).filter {
      reference.parents[$0] == reference.parents[$0 - 1] && reference.edited[$0]
        && !reference.edited[$0 - 1]
    }
    for turn in turns.shuffled(using: &generator).prefix(8) {
      starts.append(max(0, turn - Int.random(in: 1...3, using: &generator)))
    }
    for start in starts {
      let end = min(reference.count, start + 40)
      let made = tree.strings(start..<end).map(bytes)
      #expect(made == (start..<end).map(reference.string), "\(name): run from \(start)")
    }
    // The first and last string of each level, made alone.
    var levelStart = 0
    for count in reference.levelCounts {
      for index in [levelStart, levelStart + count - 1] {
        #expect(bytes(tree.string(at: index)) == reference.string(index), "\(name): \(index)")
        #expect(tree.edits(at: index) == reference.edits(index), "\(name): edits of \(index)")
      }
      levelStart += count
    }
  }

  @Test("a string's typos and edits are counted without making them, and made by number")
  func ordinals() {
    var generator = SystemRandomNumberGenerator()
    let model = TypoModel()
    for (pool, canonical) in [(Self.ascii, false), (Self.nonASCII, false), (Self.marked, true)] {
      for length in 0..<7 {
        let text =
          canonical
          ? Self.nfkd(Self.random(pool, length: length, using: &generator))
          : Array(Self.random(pool, length: length, using: &generator).utf8)
        Self.withScalars(text, room: 1) { scalars, edited, alphabet in
          ScalarBuffer.withWiped(capacity: scalars.count + 1) { single in
            var made: [([UInt32], PassphraseEdit)] = []
            model.forEachTypo(of: scalars, scratch: &edited, canonicalOrder: canonical) {
              typo, edit in made.append((Self.values(typo), edit))
            }
            #expect(model.typoCount(of: scalars) == made.count, "typos of \(text)")
            for (ordinal, (expected, edit)) in made.enumerated() {
              let told = model.typo(
                of: scalars, at: ordinal, into: &single, canonicalOrder: canonical)
              #expect(told == edit && Self.values(single) == expected)
            }
            made = []
            PassphraseSet.forEachEdit(
              of: scalars, alphabet: alphabet, scratch: &edited, canonicalOrder: canonical
            ) { typo, edit in made.append((Self.values(typo), edit)) }
            #expect(
              PassphraseSet.editCount(of: scalars, alphabet: alphabet) == made.count,
              "edits of \(text)")
            for (ordinal, (expected, edit)) in made.enumerated() {
              let told = PassphraseSet.edit(
                of: scalars, alphabet: alphabet, at: ordinal, into: &single,
                canonicalOrder: canonical)
              #expect(told == edit && Self.values(single) == expected)
            }
          }
        }
      }
    }
  }

  @Test(
    "a password's numbered typos are the sequence the held set makes",
    arguments: [
      (1, false, 6), (1, true, 5), (2, false, 4), (2, true, 3), (3, false, 1), (3, true, 1),
      (0, true, 4),
    ])
  func passwordTree(typos: Int, oneEdit: Bool, length: Int) throws {
    var generator = SystemRandomNumberGenerator()
    for pool in [Self.ascii, Self.nonASCII] {
      let text = Array(Self.random(pool, length: length, using: &generator).utf8)
      let reference = Self.passwordReference(text, typos: typos, oneEdit: oneEdit)
      let levels = TypoTree.passwordLevels(typos: typos, oneEdit: oneEdit)
      let tree = try TypoTree(
        remembered: SecureBytes(text), levels: levels.map(\.segments), canonicalOrder: false)
      Self.expectSame(tree, reference, "\(text) K=\(typos)", using: &generator)
    }
  }

  @Test(
    "a passphrase's numbered typos and edits are the sequence the held set makes",
    arguments: [(1, 6), (2, 2)])
  func passphraseTree(edits: Int, length: Int) throws {
    var generator = SystemRandomNumberGenerator()
    for pool in [Self.ascii, Self.nonASCII, Self.marked] {
      let text = Self.nfkd(Self.random(pool, length: length, using: &generator))
      let reference = Self.passphraseReference(text, edits: edits)
      let tree = try TypoTree(
        remembered: SecureBytes(text), levels: TypoTree.passphraseLevels(edits: edits),
        canonicalOrder: true)
      Self.expectSame(tree, reference, "\(text) K=\(edits)", using: &generator)
    }
  }

  @Test("a tree whose count may overflow Int, or would take too long to count, is refused at once")
  func overflow() throws {
    let text = SecureBytes(Array("Correct-Horse-42".utf8))
    #expect(throws: TypoTree.Refusal.overflow) {
      try TypoTree(
        remembered: text, levels: TypoTree.passwordLevels(typos: 9, oneEdit: false).map(\.segments),
        canonicalOrder: false)
    }
    #expect(throws: TypoTree.Refusal.overflow) {
      try TypoTree(
        remembered: text, levels: TypoTree.passphraseLevels(edits: 6), canonicalOrder: true)
    }
    // Five typos of 16 characters: about 10^10 parents to count through, refused with the
    // bound by length alone (its levels' bounds: 1 + b + b^2 + ... + b^5).
    let five = TypoTree.passwordLevels(typos: 5, oneEdit: false).map(\.segments)
    let bound = five.joined().reduce(0) {
      $0 + TypoTree.bound($1, length: 16, model: TypoModel())!
    }
    #expect(bound > 1_000_000_000_000)
    #expect(throws: TypoTree.Refusal.tooManyToCount(atMost: bound)) {
      try TypoTree(remembered: text, levels: five, canonicalOrder: false)
    }
    let four = TypoTree.passwordLevels(typos: 4, oneEdit: false).map(\.segments)
    let walk = four.joined().reduce(0) {
      $0 + TypoTree.walkBound($1, length: 16, model: TypoModel())!
    }
    #expect(walk > 10_000_000 && walk <= TypoTree.maximumWalk)
    #expect(
      try TypoTree(
        remembered: text, levels: TypoTree.passwordLevels(typos: 1, oneEdit: true).map(\.segments),
        canonicalOrder: false
      ).count > 0)
  }
}

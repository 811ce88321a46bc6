import VaultKeys

/// The typos people make typing a secret they know (a passphrase, a password), each one typo
/// to a person however many characters it changes, cheapest first: after the classes
/// Chatterjee et al. measured ("pASSWORD tYPOS and How to Correct Them Securely", IEEE S&P
/// 2016) and btcrecover's `--typos-*` options name.
///
/// The classes, in the order tried: caps lock (every letter's case flipped), shift on the first
/// character (its case flipped), one character's case flipped, a character dropped, a character
/// doubled, a character replaced by a neighbouring key (same shift level), two neighbouring
/// characters exchanged, a digit or symbol added at the end, then at the start. A case is
/// flipped only where the character has a one-scalar mapping to the other case.
package struct TypoModel: Sendable, Equatable {
  /// The keyboard whose neighbouring keys a finger slips to.
  package let keyboard: KeyboardLayout

  /// The characters a typo adds at the end or the start: digits, then ASCII symbols.
  static let addedCharacters: [Unicode.Scalar] = Array(
    "0123456789!@#$%^&*()-_=+[]{};:'\",.<>/?\\|`~".unicodeScalars)

  package init(keyboard: KeyboardLayout = .qwerty) {
    self.keyboard = keyboard
  }

  /// Calls `body` with each likely typo of `scalars` and what it did, class by class and, in a
  /// class, position by position, made in `edited` (room for one scalar more than `scalars`).
  /// A typo that changes nothing is not made; two typos may make the same string. With
  /// `canonicalOrder` (a BIP-39 passphrase, compared in NFKD) combining marks a typo moved are
  /// put back in canonical order; a password is hashed as typed, so it is left as made.
  func forEachTypo(
    of scalars: ScalarBuffer, scratch edited: inout ScalarBuffer, canonicalOrder: Bool = true,
    _ body: (ScalarBuffer, PassphraseEdit) -> Void
  ) {
    let count = scalars.count
    edited.assign(scalars)
    func emit(_ edit: PassphraseEdit) {
      if canonicalOrder { NFKD.putInCanonicalOrder(&edited) }
      body(edited, edit)
      edited.assign(scalars)
    }
    // Caps lock.
    var flipped = false
    for position in 0..<count {
      if let other = Self.otherCase(of: scalars[position]) {
        edited[position] = other
        flipped = true
      }
    }
    if flipped { emit(.capsLock) } else { edited.assign(scalars) }
    // Shift on the first character, then any one character's case.
    for position in 0..<count {
      guard let other = Self.otherCase(of: scalars[position]) else { continue }
      edited[position] = other
      emit(.caseFlipped(at: position + 1))
    }
    for position in 0..<count {
      edited.remove(at: position)
      emit(.deleted(at: position + 1))
    }
    for position in 0..<count {
      edited.insert(scalars[position], at: position)
      emit(.doubled(at: position + 1))
    }
    for position in 0..<count {
      for neighbour in keyboard.neighbours(of: scalars[position]) {
        edited[position] = neighbour
        emit(.neighbour(at: position + 1))
      }
    }
    for position in 0..<max(0, count - 1) where scalars[position] != scalars[position + 1] {
      edited.swapAt(position, position + 1)
      emit(.exchanged(at: position + 1))
    }
    for added in Self.addedCharacters {
      edited.append(added)
      emit(.appended)
    }
    for added in Self.addedCharacters {
      edited.insert(added, at: 0)
      emit(.prepended)
    }
  }

  /// At most how many typos `forEachTypo` makes of a string of `length` scalars, by the change
  /// in length they make (-1, 0, +1).
  func typoBound(length: Int) -> [(lengthChange: Int, count: Int)] {
    guard length > 0 else { return [(1, 2 * Self.addedCharacters.count)] }
    let sameLength = 1 + length + length * keyboard.maximumNeighbourCount + (length - 1)
    return [(-1, length), (0, sameLength), (1, length + 2 * Self.addedCharacters.count)]
  }

  /// The widest UTF-8 encoding of a character a typo of a string of `alphabet`'s characters
  /// may hold: theirs, the keyboard's, the added ones and the other case of each.
  func maximumUTF8Width(_ alphabet: ScalarBuffer) -> Int {
    var width = 1
    func include(_ scalar: Unicode.Scalar) {
      width = max(width, UTF8.width(scalar))
      if let other = Self.otherCase(of: scalar) { width = max(width, UTF8.width(other)) }
    }
    for index in 0..<alphabet.count { include(alphabet[index]) }
    for key in keyboard.keys { include(key) }
    return width
  }

  /// The character in the other case when that is one scalar (`a` ↔ `A`, `é` ↔ `É`), else nil.
  static func otherCase(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
    if scalar.isASCII {
      switch scalar.value {
      case 0x41...0x5A, 0x61...0x7A: return Unicode.Scalar(scalar.value ^ 0x20)
      default: return nil
      }
    }
    // One scalar's mapping is a small string, held inline (no heap copy of a passphrase
    // character is made).
    let properties = scalar.properties
    let mapped =
      properties.isLowercase
      ? properties.uppercaseMapping : properties.isUppercase ? properties.lowercaseMapping : ""
    let scalars = mapped.unicodeScalars
    guard scalars.count == 1, let other = scalars.first, other != scalar else { return nil }
    return other
  }
}

import VaultKeys

/// The typos and generic edits of a string by number, in the order `TypoModel.forEachTypo` and
/// `PassphraseSet.forEachEdit` make them: how many there are, counted without making one, and
/// the one of a given number, made alone. A typo tree (`TypoTree`) is numbered with these.
extension TypoModel {
  /// How many typos `forEachTypo` makes of `scalars`, counted in one pass (no typo is made).
  func typoCount(of scalars: ScalarBuffer) -> Int {
    let count = scalars.count
    var cases = 0
    var neighbours = 0
    var exchanges = 0
    for position in 0..<count {
      let scalar = scalars[position]
      if Self.otherCase(of: scalar) != nil { cases += 1 }
      neighbours += keyboard.neighbourCount(of: scalar)
      if position + 1 < count, scalar != scalars[position + 1] { exchanges += 1 }
    }
    let capsLock = cases > 0 ? 1 : 0
    return capsLock + cases + 2 * count + neighbours + exchanges
      + 2 * Self.addedCharacters.count
  }

  /// Makes typo `ordinal` (from 0, below `typoCount(of:)`) of `scalars` in `edited` (room for
  /// one scalar more than `scalars`), the one `forEachTypo` makes with that number, and says
  /// what it did.
  func typo(
    of scalars: ScalarBuffer, at ordinal: Int, into edited: inout ScalarBuffer,
    canonicalOrder: Bool
  ) -> PassphraseEdit {
    let count = scalars.count
    var rest = ordinal
    edited.assign(scalars)
    defer { if canonicalOrder { NFKD.putInCanonicalOrder(&edited) } }
    // Caps lock, when a character has another case.
    var flippable = 0
    for position in 0..<count where Self.otherCase(of: scalars[position]) != nil {
      flippable += 1
    }
    if flippable > 0 {
      if rest == 0 {
        for position in 0..<count {
          if let other = Self.otherCase(of: scalars[position]) { edited[position] = other }
        }
        return .capsLock
      }
      rest -= 1
    }
    if rest < flippable {
      for position in 0..<count {
        guard let other = Self.otherCase(of: scalars[position]) else { continue }
        if rest == 0 {
          edited[position] = other
          return .caseFlipped(at: position + 1)
        }
        rest -= 1
      }
    }
    rest -= flippable
    if rest < count {
      edited.remove(at: rest)
      return .deleted(at: rest + 1)
    }
    rest -= count
    if rest < count {
      edited.insert(scalars[rest], at: rest)
      return .doubled(at: rest + 1)
    }
    rest -= count
    for position in 0..<count {
      let neighbours = keyboard.neighbourCount(of: scalars[position])
      if rest < neighbours {
        edited[position] = keyboard.neighbours(of: scalars[position])[rest]
        return .neighbour(at: position + 1)
      }
      rest -= neighbours
    }
    for position in 0..<max(0, count - 1) where scalars[position] != scalars[position + 1] {
      if rest == 0 {
        edited.swapAt(position, position + 1)
        return .exchanged(at: position + 1)
      }
      rest -= 1
    }
    let added = Self.addedCharacters
    if rest < added.count {
      edited.append(added[rest])
      return .appended
    }
    rest -= added.count
    precondition(rest < added.count, "typo number out of range")
    edited.insert(added[rest], at: 0)
    return .prepended
  }
}

extension PassphraseSet {
  /// How many edits `forEachEdit` makes of `scalars` with `alphabet` (which holds printable
  /// ASCII first, then other characters, each once), counted without making one.
  static func editCount(of scalars: ScalarBuffer, alphabet: ScalarBuffer) -> Int {
    let count = scalars.count
    var exchanges = 0
    var replacements = 0
    for position in 0..<count {
      if position + 1 < count, scalars[position] != scalars[position + 1] { exchanges += 1 }
      replacements += alphabet.count - (contains(alphabet, scalars[position]) ? 1 : 0)
    }
    return count + exchanges + replacements + (count + 1) * alphabet.count
  }

  /// Makes edit `ordinal` (from 0, below `editCount`) of `scalars` in `edited`, the one
  /// `forEachEdit` makes with that number, and says what it did.
  static func edit(
    of scalars: ScalarBuffer, alphabet: ScalarBuffer, at ordinal: Int,
    into edited: inout ScalarBuffer, canonicalOrder: Bool
  ) -> PassphraseEdit {
    let count = scalars.count
    var rest = ordinal
    edited.assign(scalars)
    defer { if canonicalOrder { NFKD.putInCanonicalOrder(&edited) } }
    if rest < count {
      edited.remove(at: rest)
      return .deleted(at: rest + 1)
    }
    rest -= count
    for position in 0..<max(0, count - 1) where scalars[position] != scalars[position + 1] {
      if rest == 0 {
        edited.swapAt(position, position + 1)
        return .exchanged(at: position + 1)
      }
      rest -= 1
    }
    for position in 0..<count {
      let own = contains(alphabet, scalars[position])
      let ways = alphabet.count - (own ? 1 : 0)
      guard rest < ways else {
        rest -= ways
        continue
      }
      for index in 0..<alphabet.count where alphabet[index] != scalars[position] {
        if rest == 0 {
          edited[position] = alphabet[index]
          return .replaced(at: position + 1)
        }
        rest -= 1
      }
    }
    let position = rest / alphabet.count
    precondition(position <= count, "edit number out of range")
    edited.insert(alphabet[rest % alphabet.count], at: position)
    return .inserted(at: position + 1)
  }

  /// Whether `alphabet` (printable ASCII first, then other characters) holds `scalar`: a
  /// printable ASCII character at once, another by a look through the others.
  private static func contains(_ alphabet: ScalarBuffer, _ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII, printableASCII.contains(UInt8(scalar.value)) { return true }
    for index in printableASCII.count..<alphabet.count where alphabet[index] == scalar {
      return true
    }
    return false
  }
}

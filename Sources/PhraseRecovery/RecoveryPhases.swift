import VaultKeys

/// The automatic search of a phrase given with no damage model: the likely kinds of damage in
/// turn, cheapest first, each a search of its own, until one matches.
///
/// A phase counts exactly what it adds: "one wrong word" holds only candidates with exactly one
/// word not allowed by what was written, "a swap" only candidates with two adjacent words
/// exchanged. Phases of different kinds may still share a candidate (a swap is also two wrong
/// words); it is then checked in each.
package struct RecoveryPhase: Sendable, Equatable {
  /// Written words that do not belong to the phrase.
  package let extraWords: Int
  /// Words left out.
  package let missingWords: Int
  /// Whether two adjacent words were exchanged.
  package let swap: Bool
  /// Words not allowed by what was written, exactly.
  package let typos: Int

  /// A phase and its search.
  package typealias Planned = (phase: RecoveryPhase, search: RecoverySearch)

  /// The search of this phase.
  package func search(of phrase: DamagedPhrase) throws(RecoveryError) -> RecoverySearch {
    try RecoverySearch(
      phrase: phrase, missingWords: missingWords, extraWords: extraWords, requiresSwap: swap,
      typos: typos, minimumTypos: typos)
  }

  /// The phases for `phrase`, cheapest (fewest candidates) first: as written, a swap, one
  /// wrong word, a swap and one wrong word, two wrong words; one missing word and one missing
  /// with one wrong word when the written words are one short of a BIP-39 count; one extra
  /// word and one extra with one wrong word when they are one too many. A phase too large to
  /// count is left out.
  package static func plan(for phrase: DamagedPhrase) -> [Planned] {
    let written = phrase.words.count
    var phases: [RecoveryPhase] = []
    if Mnemonic.validWordCounts.contains(written) {
      phases += [
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 0),
        .init(extraWords: 0, missingWords: 0, swap: true, typos: 0),
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 1),
        .init(extraWords: 0, missingWords: 0, swap: true, typos: 1),
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 2),
      ]
    }
    if Mnemonic.validWordCounts.contains(written + 1) {
      phases += [
        .init(extraWords: 0, missingWords: 1, swap: false, typos: 0),
        .init(extraWords: 0, missingWords: 1, swap: false, typos: 1),
      ]
    }
    if Mnemonic.validWordCounts.contains(written - 1) {
      phases += [
        .init(extraWords: 1, missingWords: 0, swap: false, typos: 0),
        .init(extraWords: 1, missingWords: 0, swap: false, typos: 1),
      ]
    }
    let searches = phases.compactMap { phase -> Planned? in
      guard let search = try? phase.search(of: phrase), search.candidateCount > 0 else {
        return nil
      }
      return (phase, search)
    }
    // A stable sort: equal counts keep the order above.
    return searches.enumerated().sorted {
      ($0.element.search.candidateCount, $0.offset) < ($1.element.search.candidateCount, $1.offset)
    }.map(\.element)
  }
}

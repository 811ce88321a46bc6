import VaultKeys

/// The automatic search of a phrase given with no damage model: the likely kinds of damage in
/// turn, likeliest first, each a search of its own, until one matches.
///
/// A phase counts exactly what it adds: "one wrong word" holds only candidates with exactly one
/// word not allowed by what was written, "a swap" only candidates with two adjacent words
/// exchanged. Phases of different kinds may still share a candidate (a swap is also two wrong
/// words, a close word is also a wrong word); it is then checked in each, which costs little
/// against what the likelier phase saves.
package struct RecoveryPhase: Sendable, Equatable, CustomStringConvertible {
  /// Written words that do not belong to the phrase.
  package let extraWords: Int
  /// Words left out.
  package let missingWords: Int
  /// Whether two adjacent words were exchanged.
  package let swap: Bool
  /// Words not allowed by what was written, exactly.
  package let typos: Int
  /// What a wrong word ranges over: any word, or only the close words of what was written.
  package let wrongWords: RecoverySearch.WrongWords

  package init(
    extraWords: Int, missingWords: Int, swap: Bool, typos: Int,
    wrongWords: RecoverySearch.WrongWords = .any
  ) {
    self.extraWords = extraWords
    self.missingWords = missingWords
    self.swap = swap
    self.typos = typos
    self.wrongWords = wrongWords
  }

  /// A phase and its search.
  package typealias Planned = (phase: RecoveryPhase, search: RecoverySearch)

  /// The search of this phase.
  package func search(of phrase: DamagedPhrase) throws(RecoveryError) -> RecoverySearch {
    try RecoverySearch(
      phrase: phrase, missingWords: missingWords, extraWords: extraWords, requiresSwap: swap,
      typos: typos, minimumTypos: typos, wrongWords: wrongWords)
  }

  /// The damage in words: "the phrase as written", "one close word", "two adjacent words
  /// exchanged and one wrong word", "one missing word and one wrong word".
  package var description: String {
    let wrong = wrongWords == .close ? "close word" : "wrong word"
    let counted = [(extraWords, "extra word"), (missingWords, "missing word"), (typos, wrong)]
      .filter { $0.0 > 0 }.map { count, noun in
        let number = [1: "one ", 2: "two ", 3: "three "][count] ?? "\(count) "
        return number + noun + (count == 1 ? "" : "s")
      }
    let parts = (swap ? ["two adjacent words exchanged"] : []) + counted
    return parts.isEmpty ? "the phrase as written" : parts.joined(separator: " and ")
  }

  /// The phases for `phrase`, in two groups, each sorted by count (fewest candidates first):
  /// first the likeliest damage — as written, a swap, one close word, two close words, a swap
  /// and one close word, three close words — then the damage that allows any word: one wrong
  /// word, a swap and one wrong word, two wrong words; one missing word and one missing with
  /// one wrong word when the written words are one short of a BIP-39 count; one extra word and
  /// one extra with one wrong word when they are one too many. A phase that is empty or too
  /// large to count is left out.
  package static func plan(for phrase: DamagedPhrase) -> [Planned] {
    let written = phrase.words.count
    var likeliest: [RecoveryPhase] = []
    var wider: [RecoveryPhase] = []
    if Mnemonic.validWordCounts.contains(written) {
      likeliest += [
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 0),
        .init(extraWords: 0, missingWords: 0, swap: true, typos: 0),
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 1, wrongWords: .close),
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 2, wrongWords: .close),
        .init(extraWords: 0, missingWords: 0, swap: true, typos: 1, wrongWords: .close),
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 3, wrongWords: .close),
      ]
      wider += [
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 1),
        .init(extraWords: 0, missingWords: 0, swap: true, typos: 1),
        .init(extraWords: 0, missingWords: 0, swap: false, typos: 2),
      ]
    }
    if Mnemonic.validWordCounts.contains(written + 1) {
      wider += [
        .init(extraWords: 0, missingWords: 1, swap: false, typos: 0),
        .init(extraWords: 0, missingWords: 1, swap: false, typos: 1),
      ]
    }
    if Mnemonic.validWordCounts.contains(written - 1) {
      wider += [
        .init(extraWords: 1, missingWords: 0, swap: false, typos: 0),
        .init(extraWords: 1, missingWords: 0, swap: false, typos: 1),
      ]
    }
    return sortedByCount(likeliest, of: phrase) + sortedByCount(wider, of: phrase)
  }

  /// The phases' searches, empty and uncountable ones left out, fewest candidates first (a
  /// stable sort: equal counts keep the order given).
  private static func sortedByCount(_ phases: [RecoveryPhase], of phrase: DamagedPhrase)
    -> [Planned]
  {
    let searches = phases.compactMap { phase -> Planned? in
      guard let search = try? phase.search(of: phrase), search.candidateCount > 0 else {
        return nil
      }
      return (phase, search)
    }
    return searches.enumerated().sorted {
      ($0.element.search.candidateCount, $0.offset) < ($1.element.search.candidateCount, $1.offset)
    }.map(\.element)
  }
}

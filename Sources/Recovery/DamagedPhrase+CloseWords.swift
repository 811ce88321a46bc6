import VaultKeys

/// Close words: the replacements of a written word a hand copying a phrase most likely made
/// it from, for the phases that try them before any word.
///
/// A word is close to the letters written when it is within `closeDistance` edits of them
/// (optimal string alignment), or, in English, whose four-letter abbreviation (BIP-39 makes
/// English words unique in their first four letters) is within one edit of the written one's.
/// They are ranked closest first by `closeness`, ties by word index.
extension DamagedPhrase {
  /// The edit distance within which a written word's close words lie.
  package static let closeDistance = 2
  /// The edit distance within which an English word's abbreviation is close.
  static let closeAbbreviationDistance = 1
  /// `closeness` of a substitution by a neighbouring key; every other edit costs 2.
  private static let neighbourSubstitutionCost = 1
  private static let editCost = 2

  /// For each position, the close words of what was written there that it does not already
  /// allow, closest first; none for `?`, a prefix or a pattern.
  static func closeSets(words: [Word], sets: [WordSet], in list: Wordlist) -> [WordSet] {
    let keys = list.words.map { Array(Wordlist.matchingKey($0)) }
    return zip(words, sets).map { word, allowed in
      var best: [Int: Int] = [:]
      for letters in closeSources(word, in: list) {
        for (index, cost) in closeWords(of: letters, keys: keys, language: list.language)
        where !allowed.contains(index) {
          best[index] = min(best[index] ?? .max, cost)
        }
      }
      let ranked = best.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
      return ranked.isEmpty ? .empty : WordSet(ranked: ranked)
    }
  }

  /// The letters whose close words a remembered word stands for: a known word's own, a
  /// misspelt word's as written, each alternative's.
  private static func closeSources(_ word: Word, in list: Wordlist) -> [[Character]] {
    switch word {
    case .known(let index): [Array(Wordlist.matchingKey(list.words[index]))]
    case .misspelt(let key): [Array(key)]
    case .alternatives(let options): options.flatMap { closeSources($0, in: list) }
    case .unknown, .prefix, .pattern: []
    }
  }

  /// The words close to `letters` (itself excluded) with their `closeness` to it.
  private static func closeWords(
    of letters: [Character], keys: [[Character]], language: Wordlist.Language
  ) -> [(index: Int, cost: Int)] {
    let abbreviation = Array(letters.prefix(4))
    let abbreviates = language == .english && letters.count >= 4
    var found: [(index: Int, cost: Int)] = []
    for (index, key) in keys.enumerated() where key != letters {
      if Wordlist.editDistance(letters, key, limit: closeDistance) <= closeDistance {
        found.append((index, closeness(letters, key)))
      } else if abbreviates, key.count >= 4,
        Wordlist.editDistance(abbreviation, Array(key.prefix(4)), limit: 1) <= 1
      {
        // After every word within two edits: its abbreviation's closeness, past two edits.
        found.append((index, 2 * editCost + closeness(abbreviation, Array(key.prefix(4)))))
      }
    }
    return found
  }

  /// A weighted optimal-string-alignment distance: a substitution by a neighbouring QWERTY key
  /// costs `neighbourSubstitutionCost`, any other edit `editCost`. Only ranks the few words
  /// `Wordlist.editDistance` has already found close.
  static func closeness(_ a: [Character], _ b: [Character]) -> Int {
    let (n, m) = (a.count, b.count)
    var d = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in 0...n { d[i][0] = i * editCost }
    for j in 0...m { d[0][j] = j * editCost }
    guard n > 0, m > 0 else { return d[n][m] }
    for i in 1...n {
      for j in 1...m {
        let substitution =
          a[i - 1] == b[j - 1]
          ? 0 : neighbours(a[i - 1], b[j - 1]) ? neighbourSubstitutionCost : editCost
        d[i][j] = min(
          d[i - 1][j] + editCost, d[i][j - 1] + editCost, d[i - 1][j - 1] + substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + editCost)
        }
      }
    }
    return d[n][m]
  }

  private static func neighbours(_ a: Character, _ b: Character) -> Bool {
    guard a.unicodeScalars.count == 1, b.unicodeScalars.count == 1 else { return false }
    return KeyboardLayout.qwerty.areNeighbours(a.unicodeScalars.first!, b.unicodeScalars.first!)
  }
}

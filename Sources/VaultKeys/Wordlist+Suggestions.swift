extension Wordlist {
  /// Up to `limit` published words nearest to `word`, best first, for "did you mean" hints.
  ///
  /// The only word that starts with `word` ranks first; then words within a small edit distance
  /// (Damerau–Levenshtein with adjacent transpositions: at most 1 for words of up to 3 letters,
  /// 2 up to 7 letters, 3 beyond; a word that starts with three or more typed letters counts as
  /// distance 1), ties broken by the longer common prefix, then list order.
  public func suggestions(for word: String, limit: Int = 3) -> [String] {
    let key = Self.matchingKey(word)
    let typed = Array(key)
    guard !typed.isEmpty, limit > 0 else { return [] }
    let maximumDistance = typed.count <= 3 ? 1 : typed.count <= 7 ? 2 : 3
    let prefixed = uniquePrefixIndex(forKey: key, minimumLength: 1)

    var ranked: [(distance: Int, sharedPrefix: Int, index: Int)] = []
    for (index, candidate) in words.enumerated() {
      let letters = Array(candidate)
      var distance = Self.editDistance(typed, letters, limit: maximumDistance)
      if index == prefixed {
        distance = -1
      } else if typed.count >= 3, letters.starts(with: typed) {
        distance = min(distance, 1)
      }
      guard distance <= maximumDistance else { continue }
      let shared = zip(typed, letters).prefix(while: { $0 == $1 }).count
      ranked.append((distance, shared, index))
    }
    ranked.sort {
      ($0.distance, -$0.sharedPrefix, $0.index) < ($1.distance, -$1.sharedPrefix, $1.index)
    }
    return ranked.prefix(limit).map { words[$0.index] }
  }

  /// The index of the only word starting with `key`, if `key` has at least `minimumLength`
  /// characters. (Every English word is unique in its first four letters.)
  package func uniquePrefixIndex(forKey key: String, minimumLength: Int) -> Int? {
    guard key.count >= minimumLength else { return nil }
    var found: Int?
    for (index, word) in words.enumerated() where word.hasPrefix(key) {
      guard found == nil else { return nil }
      found = index
    }
    return found
  }

  /// Optimal-string-alignment distance; anything above `limit` is reported as `limit + 1`.
  package static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, previous2[j - 2] + 1)
        }
        current[j] = value
        rowMinimum = min(rowMinimum, value)
      }
      // Every later row is at least this row's minimum, so the distance is already too big.
      if rowMinimum > limit { return limit + 1 }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return min(previous[b.count], limit + 1)
  }
}

/// How a search is cut into parts, one per machine or job: part k of n (1-based) of a search of
/// `total` candidates, numbered 0..<total, is `total·(k−1)/n ..< total·k/n`. The parts are
/// disjoint, together cover every candidate, and differ in size by at most one; the phrase and
/// the password search cut theirs by this one rule.
package enum SearchSplit {
  /// The candidates of part `index` of `count` (1 ≤ index ≤ count) of `0..<total`.
  package static func range(of total: UInt64, part index: Int, of count: Int) -> Range<UInt64> {
    func bound(_ k: Int) -> UInt64 {
      let (high, low) = total.multipliedFullWidth(by: UInt64(k))
      return UInt64(count).dividingFullWidth((high, low)).quotient
    }
    return bound(index - 1)..<bound(index)
  }

  /// The candidates of part `index` of `count` of `whole`: its share, offset to `whole`'s start.
  package static func range(of whole: Range<Int>, part index: Int, of count: Int) -> Range<Int> {
    let share = range(of: UInt64(whole.count), part: index, of: count)
    return (whole.lowerBound + Int(share.lowerBound))..<(whole.lowerBound + Int(share.upperBound))
  }
}

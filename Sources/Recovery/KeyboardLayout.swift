import VaultKeys

/// A keyboard's character keys as staggered rows, to tell which keys a finger slips to: the
/// keys beside one in its row and those touching it in the rows above and below, on the same
/// shift level.
package struct KeyboardLayout: Sendable, Equatable {
  /// The layout's name, as `init(name:)` reads it.
  package let name: String
  /// Each character's neighbours (same shift level), in row order: the row above, its own, the
  /// row below, left to right.
  private let neighbourMap: [Unicode.Scalar: [Unicode.Scalar]]
  /// Every character the layout types (one scalar in NFKD), in no particular order.
  let keys: [Unicode.Scalar]
  /// The most neighbours a key has.
  let maximumNeighbourCount: Int
  /// How many neighbours each ASCII character has, by its value: counting the typos of a
  /// numbered typo tree's strings (millions) looks up no dictionary for them.
  let asciiNeighbourCounts: [Int]

  /// One row: where its first key's left edge sits (in key widths from the left of the number
  /// row), and its keys unshifted and shifted, one scalar each, left to right.
  private struct Row {
    let start: Double
    let plain: String
    let shifted: String
  }

  /// The US layout.
  package static let qwerty = KeyboardLayout(
    name: "qwerty",
    rows: [
      Row(start: 0, plain: "`1234567890-=", shifted: "~!@#$%^&*()_+"),
      Row(start: 1.5, plain: "qwertyuiop[]\\", shifted: "QWERTYUIOP{}|"),
      Row(start: 1.75, plain: "asdfghjkl;'", shifted: "ASDFGHJKL:\""),
      Row(start: 2.25, plain: "zxcvbnm,./", shifted: "ZXCVBNM<>?"),
    ])

  /// The German layout (ISO: a `<` key left of `y`).
  package static let qwertz = KeyboardLayout(
    name: "qwertz",
    rows: [
      Row(start: 0, plain: "^1234567890\u{DF}\u{B4}", shifted: "\u{B0}!\"\u{A7}$%&/()=?`"),
      Row(start: 1.5, plain: "qwertzuiop\u{FC}+", shifted: "QWERTZUIOP\u{DC}*"),
      Row(start: 1.75, plain: "asdfghjkl\u{F6}\u{E4}#", shifted: "ASDFGHJKL\u{D6}\u{C4}'"),
      Row(start: 1.25, plain: "<yxcvbnm,.-", shifted: ">YXCVBNM;:_"),
    ])

  /// The French layout (ISO: a `<` key left of `w`).
  package static let azerty = KeyboardLayout(
    name: "azerty",
    rows: [
      Row(
        start: 0, plain: "\u{B2}&\u{E9}\"'(-\u{E8}_\u{E7}\u{E0})=",
        shifted: "\u{B3}1234567890\u{B0}+"),
      Row(start: 1.5, plain: "azertyuiop^$", shifted: "AZERTYUIOP\u{A8}\u{A3}"),
      Row(start: 1.75, plain: "qsdfghjklm\u{F9}*", shifted: "QSDFGHJKLM%\u{B5}"),
      Row(start: 1.25, plain: "<wxcvbn,;:!", shifted: ">WXCVBN?./\u{A7}"),
    ])

  /// Every layout, for a `--keyboard` option's list.
  package static let all: [KeyboardLayout] = [.qwerty, .qwertz, .azerty]

  /// The layout called `name` (`qwerty`, `qwertz`, `azerty`, any case), or nil.
  package init?(name: String) {
    guard let layout = Self.all.first(where: { $0.name == name.lowercased() }) else {
      return nil
    }
    self = layout
  }

  /// The keys `scalar` sits beside on this layout, on its shift level (none for a character
  /// the layout has no key for).
  package func neighbours(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    neighbourMap[scalar] ?? []
  }

  /// Whether `a` and `b` are neighbouring keys on the same shift level.
  package func areNeighbours(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
    neighbourMap[a]?.contains(b) ?? false
  }

  private init(name: String, rows: [Row]) {
    self.name = name
    // A key whose character is not one scalar in NFKD (`é` is e and a mark; `²` is 2) cannot
    // stand in for one scalar of an NFKD passphrase: it is a gap in its row.
    func scalars(_ text: String) -> [Unicode.Scalar?] {
      text.unicodeScalars.map { scalar in
        let utf8 = Array(String(scalar).utf8)
        let decomposed = utf8.withUnsafeBytes { NFKD.normalize(utf8: $0) }
        let same = decomposed?.withUnsafeBytes { $0.elementsEqual(utf8) } ?? false
        return same ? scalar : nil
      }
    }
    var map: [Unicode.Scalar: [Unicode.Scalar]] = [:]
    for level in 0..<2 {
      let grid = rows.map { scalars(level == 0 ? $0.plain : $0.shifted) }
      for (row, line) in grid.enumerated() {
        for (column, key) in line.enumerated() {
          guard let key else { continue }
          let x = rows[row].start + Double(column)
          var near: [Unicode.Scalar] = []
          for other in [row - 1, row, row + 1] where grid.indices.contains(other) {
            for (otherColumn, candidate) in grid[other].enumerated() {
              guard let candidate, candidate != key else { continue }
              let otherX = rows[other].start + Double(otherColumn)
              // Beside it in its row; touching it (overlapping) in the rows above and below.
              let touches =
                other == row ? abs(otherColumn - column) == 1 : abs(otherX - x) < 1
              if touches, !near.contains(candidate) { near.append(candidate) }
            }
          }
          for candidate in near where !(map[key]?.contains(candidate) ?? false) {
            map[key, default: []].append(candidate)
          }
        }
      }
    }
    neighbourMap = map
    keys = Array(map.keys)
    maximumNeighbourCount = map.values.map(\.count).max() ?? 0
    asciiNeighbourCounts = (0..<128).map { map[Unicode.Scalar(UInt8($0))]?.count ?? 0 }
  }

  /// How many keys `scalar` sits beside (`neighbours(of:).count`).
  @inline(__always)
  func neighbourCount(of scalar: Unicode.Scalar) -> Int {
    scalar.isASCII ? asciiNeighbourCounts[Int(scalar.value)] : neighbourMap[scalar]?.count ?? 0
  }

  package static func == (a: KeyboardLayout, b: KeyboardLayout) -> Bool { a.name == b.name }
}

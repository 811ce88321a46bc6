import CryptoPrimitives

/// Unicode Normalization Form KD (UAX #15), the form BIP-39 prescribes for the sentence and the
/// passphrase, without Foundation or ICU: every scalar is replaced by its full compatibility
/// decomposition (from `NFKDTable`, or by the Hangul algorithm), then each run of non-starters
/// is put in canonical order. The table is the Unicode Character Database's, made by
/// `scripts/generate-nfkd-table`; the tests compare the result with Foundation's for every code
/// point and with the UCD's NormalizationTest.txt.
package enum NFKD {
  /// Whether every byte of `text` is ASCII, which NFKD (and lowercasing's NFKD) leaves as it is.
  static func isASCII(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 }
  }

  /// `text` in NFKD. ASCII has nothing to decompose or reorder and comes back as it is.
  static func normalize(_ text: String) -> String {
    guard !isASCII(text) else { return text }
    var text = text
    // A String is valid UTF-8.
    let normalized = text.withUTF8 { normalize(utf8: UnsafeRawBufferPointer($0)) }!
    return normalized.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// The UTF-8 `text` in NFKD, in a new zeroizing buffer, worked out in wiped memory with no
  /// String or Array of it made (for passphrases); nil when `text` is not valid UTF-8.
  package static func normalize(utf8 text: UnsafeRawBufferPointer) -> SecureBytes? {
    if text.allSatisfy({ $0 < 0x80 }) { return SecureBytes(text) }
    var scalarCount = 0
    var byteCount = 0
    let valid = ScalarBuffer.forEachScalar(inUTF8: text) {
      forEachDecomposed($0) { scalar in
        scalarCount += 1
        byteCount += UTF8.width(scalar)
      }
    }
    guard valid else { return nil }
    return ScalarBuffer.withWiped(capacity: scalarCount) { scalars in
      ScalarBuffer.forEachScalar(inUTF8: text) { forEachDecomposed($0) { scalars.append($0) } }
      putInCanonicalOrder(&scalars)
      return SecureBytes(count: byteCount) { scalars.encode(into: $0, at: 0) }
    }
  }

  /// The full decomposition of one scalar (itself when it has none), in canonical order.
  static func decomposition(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    var scalars: [Unicode.Scalar] = []
    forEachDecomposed(scalar) { scalars.append($0) }
    return scalars
  }

  /// The Canonical_Combining_Class of `scalar` in the table's Unicode version (0 for starters).
  static func combiningClass(of scalar: Unicode.Scalar) -> UInt8 {
    let value = scalar.value
    guard value >= 0x300 else { return 0 }
    let table = NFKDTable.combiningClasses
    var low = 0
    var high = table.count
    while low < high {
      let middle = (low + high) / 2
      if table[middle] >> 8 < value { low = middle + 1 } else { high = middle }
    }
    guard low < table.count, table[low] >> 8 == value else { return 0 }
    return UInt8(truncatingIfNeeded: table[low])
  }

  // Hangul syllables (Unicode §3.12): 19 leading × 21 vowel × 28 trailing jamo.
  private static let syllableBase: UInt32 = 0xAC00
  private static let leadingBase: UInt32 = 0x1100
  private static let vowelBase: UInt32 = 0x1161
  private static let trailingBase: UInt32 = 0x11A7
  private static let trailingCount: UInt32 = 28
  private static let vowelTrailingCount: UInt32 = 21 * 28
  private static let syllableCount: UInt32 = 19 * 21 * 28

  /// Calls `body` with each scalar of the full decomposition of `scalar` (itself when it has
  /// none), in the table's order.
  private static func forEachDecomposed(
    _ scalar: Unicode.Scalar, _ body: (Unicode.Scalar) -> Void
  ) {
    let value = scalar.value
    // Nothing below U+00A0 has a decomposition.
    guard value >= 0xA0 else { return body(scalar) }
    let syllable = value &- syllableBase
    if syllable < syllableCount {
      // Jamo values are always valid scalars.
      body(Unicode.Scalar(leadingBase + syllable / vowelTrailingCount)!)
      body(Unicode.Scalar(vowelBase + syllable % vowelTrailingCount / trailingCount)!)
      if syllable % trailingCount != 0 {
        body(Unicode.Scalar(trailingBase + syllable % trailingCount)!)
      }
      return
    }
    let keys = NFKDTable.decomposedScalars
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < value { low = middle + 1 } else { high = middle }
    }
    guard low < keys.count, keys[low] == value else { return body(scalar) }
    let starts = NFKDTable.decompositionStarts
    for index in Int(starts[low])..<Int(starts[low + 1]) {
      // The generator writes only code points that UnicodeData.txt lists, all valid scalars.
      body(Unicode.Scalar(NFKDTable.decompositions[index])!)
    }
  }

  /// The canonical ordering algorithm (Unicode §3.11, D109): a stable sort of every run of
  /// non-starters by combining class. Runs are short, so insertion sort.
  package static func putInCanonicalOrder(_ scalars: inout ScalarBuffer) {
    guard scalars.count > 1 else { return }
    for index in 1..<scalars.count {
      let scalar = scalars[index]
      let rank = combiningClass(of: scalar)
      guard rank != 0 else { continue }
      var position = index
      while position > 0, combiningClass(of: scalars[position - 1]) > rank {
        scalars[position] = scalars[position - 1]
        position -= 1
      }
      scalars[position] = scalar
    }
  }
}

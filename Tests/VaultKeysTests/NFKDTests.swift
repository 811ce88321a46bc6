import Foundation
import Testing

@testable import VaultKeys

/// Our own NFKD against two independent references: Foundation (ICU) for every code point, and
/// the Unicode Character Database's NormalizationTest.txt, whose cases exercise the reordering
/// of combining marks across scalars.
@Suite struct NFKDTests {
  /// Whether ICU and our table can be expected to agree on `scalar`: it was assigned in the
  /// table's Unicode version or before, or not at all. (Foundation's ICU is newer than the
  /// table; decompositions of assigned characters never change, by Unicode's stability policy.)
  static func inTableVersion(_ scalar: Unicode.Scalar) -> Bool {
    guard let age = scalar.properties.age else { return true }
    return (age.major, age.minor) <= NFKDTable.unicodeVersion
  }

  static func hex(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
  }

  @Test func everyCodePointDecomposesAsFoundationDecomposesIt() {
    var compared = 0
    var mismatches: [String] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value), Self.inTableVersion(scalar) else { continue }
      compared += 1
      let ours = NFKD.normalize(String(scalar))
      let icu = String(scalar).decomposedStringWithCompatibilityMapping
      if !ours.unicodeScalars.elementsEqual(icu.unicodeScalars) {
        mismatches.append(
          "U+\(Self.hex([scalar])): ours \(Self.hex(ours.unicodeScalars)), "
            + "Foundation \(Self.hex(icu.unicodeScalars))")
      }
    }
    // Every scalar but the surrogates, less those assigned after the table's version.
    #expect(compared > 1_100_000)
    #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5))")
  }

  @Test func combiningClassesAreTheStandardLibrarys() {
    // The standard library carries its own copy of the class property; where both know a
    // scalar they must agree, so the table cannot have been cut short or shifted.
    var nonZero = 0
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value), Self.inTableVersion(scalar) else { continue }
      let ours = NFKD.combiningClass(of: scalar)
      if ours != 0 { nonZero += 1 }
      #expect(
        ours == scalar.properties.canonicalCombiningClass.rawValue,
        "U+\(Self.hex([scalar]))")
    }
    #expect(nonZero == NFKDTable.combiningClasses.count)
  }

  /// Runs of combining marks with starters, Hangul and compatibility characters between them,
  /// against CPython's unicodedata (NFKDVectors.swift): the reordering across scalars that the
  /// per-scalar check misses. Foundation is no reference here: it leaves the marks of a
  /// decomposition after the marks before it (see scripts/make-nfkd-vectors.py).
  @Test func mixedTextNormalisesAsPythonNormalisesIt() {
    func scalars(_ hex: String) -> [Unicode.Scalar] {
      hex.split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }
    }
    #expect(nfkdVectors.count == 400)
    for vector in nfkdVectors {
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars(vector.input))
      let ours = NFKD.normalize(String(view))
      #expect(Self.hex(ours.unicodeScalars) == vector.nfkd, "NFKD(\(vector.input))")
    }
  }

  /// The case that made Foundation unusable as the reference: a mark, then a character whose
  /// decomposition starts with marks of a lower class.
  @Test func marksOfADecompositionMoveBeforeHigherMarks() {
    #expect(
      Self.hex(NFKD.normalize("\u{1E9B}\u{0F73}\u{0316}").unicodeScalars) == "73 F71 F72 316 307")
    #expect(Self.hex(NFKD.normalize("a\u{0307}\u{0F73}").unicodeScalars) == "61 F71 F72 307")
    #expect(
      Self.hex(NFKD.normalize("a\u{093C}\u{FF9E}\u{05C1}").unicodeScalars) == "61 93C 3099 5C1")
  }

  /// NormalizationTest.txt: for each line c1;c2;c3;c4;c5, NFKD of every column is c5. Debian's
  /// unicode-data installs it (scripts/test installs that package); the table is made from the
  /// same database.
  @Test func normalizationTestFileHolds() throws {
    let path = "/usr/share/unicode/NormalizationTest.txt"
    let text: String
    if FileManager.default.fileExists(atPath: path) {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } else if FileManager.default.fileExists(atPath: path + ".bz2") {
      text = try Self.bunzip2(path + ".bz2")
    } else {
      print("NFKDTests: skipped NormalizationTest.txt: \(path) is missing (install unicode-data)")
      return
    }
    let header = try #require(text.split(separator: "\n").first)
    let version = "\(NFKDTable.unicodeVersion.major).\(NFKDTable.unicodeVersion.minor)."
    try #require(header.contains("NormalizationTest-\(version)"), "table and test file differ")
    var cases = 0
    for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("@") {
      let columns = line.split(separator: ";", omittingEmptySubsequences: false).prefix(5).map {
        column in
        String(
          String.UnicodeScalarView(
            column.split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }))
      }
      guard columns.count == 5 else { continue }
      cases += 1
      for column in columns {
        let ours = NFKD.normalize(column)
        #expect(
          ours.unicodeScalars.elementsEqual(columns[4].unicodeScalars),
          "\(line): NFKD(\(Self.hex(column.unicodeScalars))) = \(Self.hex(ours.unicodeScalars))")
      }
    }
    #expect(cases > 18_000)
  }

  @Test func asciiComesBackAsItIs() {
    let text = "abandon abandon\tabout\n~"
    #expect(NFKD.normalize(text).utf8.elementsEqual(text.utf8))
  }

  /// The byte entry point (for passphrases) refuses what is not UTF-8, where the String one
  /// cannot be given it; both are one implementation, so they agree on the rest.
  @Test func bytesAreNormalizedOrRefused() throws {
    for invalid: [UInt8] in [
      [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x61, 0xF4, 0x90, 0x80, 0x80],
    ] {
      #expect(invalid.withUnsafeBytes { NFKD.normalize(utf8: $0) } == nil, "\(invalid)")
    }
    let text = "Å\u{FB01} \u{1E9B}\u{323} \u{AC01} abc"
    let bytes = try #require(Array(text.utf8).withUnsafeBytes { NFKD.normalize(utf8: $0) })
    #expect(bytes.withUnsafeBytes { Array($0) } == Array(NFKD.normalize(text).utf8))
    #expect(
      Self.hex(NFKD.normalize(text).unicodeScalars)
        == "41 30A 66 69 20 73 323 307 20 1100 1161 11A8 20 61 62 63")
  }

  private static func bunzip2(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bzcat")
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "bzcat \(path) failed")
    return String(decoding: data, as: UTF8.self)
  }
}

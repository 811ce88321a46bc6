import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

@testable import Recovery

/// Candidates files read line by line (`CandidateLines`): the same lines as a held file, in
/// order, with their 1-based numbers, for every part and resume point; a file changed after
/// its count refused; the sets that take them (passwords, passphrases) numbered, not compared.
@Suite("recover: candidates files read line by line")
struct CandidateLinesTests {
  typealias F = RecoveryFixture

  /// Small sizes, so a few hundred lines cross every read, block and index boundary: blocks of
  /// 2 lines, an index of at most 8 offsets (it doubles its stride), reads of 40 bytes.
  static let small = CandidateLines.Layout(
    minimumStride: 2, indexEntries: 8, bufferBytes: 40, maximumLine: 24)

  /// A file of its own in a directory of its own, removed at the end of the test.
  final class Scratch {
    let directory: URL
    init() throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "candidate-lines-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: directory) }

    func write(_ bytes: [UInt8], name: String = "candidates.txt") throws -> String {
      let url = directory.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      return url.path
    }
  }

  /// Random lines: ASCII, empty, non-ASCII (composed, and ligatures NFKD takes apart), some
  /// repeated; "\n" or "\r\n" endings; a last ending or none; a byte order mark or none.
  static func randomFile(lines count: Int, seed: UInt64) -> (bytes: [UInt8], lines: [[UInt8]]) {
    var generator = PasswordTokenEnumerationTests.SplitMix(state: seed)
    let pieces = ["a", "Z", "7", " ", "\u{E9}", "\u{FB01}", "\u{212B}", "e\u{301}", "!", "\t"]
    var lines: [String] = []
    for _ in 0..<count {
      if !lines.isEmpty, Int.random(in: 0..<10, using: &generator) == 0 {
        lines.append(lines.randomElement(using: &generator)!)
        continue
      }
      let length = Int.random(in: 0..<6, using: &generator)
      lines.append((0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined())
    }
    var bytes: [UInt8] = Bool.random(using: &generator) ? [0xEF, 0xBB, 0xBF] : []
    for (index, line) in lines.enumerated() {
      bytes += Array(line.utf8)
      let last = index == lines.count - 1
      // The last line's ending is optional (unless the line is empty: none would drop it).
      if last, !line.isEmpty, Bool.random(using: &generator) { break }
      bytes += Bool.random(using: &generator) ? [0x0D, 0x0A] : [0x0A]
    }
    return (bytes, lines.map { Array($0.utf8) })
  }

  /// The bytes, compared as bytes (Swift's strings compare canonically equivalent text equal,
  /// which would hide a normalisation).
  static func raw(_ bytes: SecureBytes) -> [UInt8] { bytes.withUnsafeBytes { Array($0) } }
  static func texts(_ lines: [SecureBytes]) -> [[UInt8]] { lines.map(raw) }

  // MARK: - The lines

  @Test(arguments: [1, 2, 3, 17, 300, 1000] as [Int])
  func everyPartAndResumePointReadsTheLinesInOrder(lines count: Int) throws {
    let scratch = try Scratch()
    let (bytes, expected) = Self.randomFile(lines: count, seed: UInt64(count))
    let path = try scratch.write(bytes)
    let lines = try CandidateLines(path: path, warning: nil, layout: Self.small)
    #expect(lines.count == count)
    // The index stayed within its bound, its stride doubling as the lines grew.
    #expect(lines.indexByteCount <= 8 * 8)
    #expect(lines.stride >= (count + 7) / 8)
    #expect(Self.texts(try lines.lines(0..<count)) == expected)
    // Every part of every split, and every resume point: the same lines, the right numbers.
    for parts in 1...5 {
      var joined: [[UInt8]] = []
      for part in 1...parts {
        let range = SearchSplit.range(of: 0..<count, part: part, of: parts)
        var numbers: [Int] = []
        try lines.forEach(in: range) { number, line in
          numbers.append(number)
          joined.append(Array(line))
        }
        #expect(numbers == Array(range))
      }
      #expect(joined == expected, "parts: \(parts)")
    }
    for start in stride(from: 0, to: count, by: max(1, count / 40)) {
      #expect(Self.texts(try lines.lines(start..<count)) == Array(expected[start...]))
      #expect(Self.texts(try lines.lines(start..<(start + 1))) == [expected[start]])
    }
  }

  /// The standard sizes on a held file's lines: the same lines as the held reader finds.
  @Test func theStandardLayoutReadsWhatAHeldFileHolds() throws {
    let scratch = try Scratch()
    let (bytes, expected) = Self.randomFile(lines: 5000, seed: 42)
    let lines = try CandidateLines(path: try scratch.write(bytes), warning: nil)
    #expect(lines.count == 5000)
    #expect(lines.stride == 256)
    #expect(Self.texts(try lines.lines(0..<5000)) == expected)
    #expect(Self.texts(try lines.lines(4097..<4099)) == Array(expected[4097..<4099]))
  }

  /// A batch's read is sized to its lines (the file's mean line): short lines among a few
  /// near the longest allowed still come whole, the small read made again through the full
  /// buffer where it holds no whole line.
  @Test func aReadSizedToShortLinesStillTakesALongOne() throws {
    let scratch = try Scratch()
    let layout = CandidateLines.Layout(
      minimumStride: 4, indexEntries: 64, bufferBytes: 1 << 16, maximumLine: 30_000)
    var expected: [[UInt8]] = []
    for number in 0..<2000 {
      let long = number % 500 == 7
      let byte = UInt8(ascii: "a") + UInt8(number % 26)
      expected.append(Array(repeating: byte, count: long ? 20_000 + number : 1 + number % 9))
    }
    let bytes: [UInt8] = expected.flatMap { line -> [UInt8] in line + [0x0A] }
    let lines = try CandidateLines(path: try scratch.write(bytes), warning: nil, layout: layout)
    #expect(lines.count == 2000)
    #expect(Self.texts(try lines.lines(0..<2000)) == expected)
    for start in [0, 5, 7, 8, 506, 507, 1007, 1500, 1506, 1999] {
      for length in [1, 2, 3, 64] where start + length <= 2000 {
        #expect(
          Self.texts(try lines.lines(start..<(start + length)))
            == Array(expected[start..<(start + length)]), "\(start) +\(length)")
      }
    }
  }

  @Test func badLinesAreRefusedByNumber() throws {
    let scratch = try Scratch()
    func open(_ bytes: [UInt8]) throws(CandidateFileError) -> CandidateLines {
      // Not a thrown test failure: the file is written before.
      let path = try! scratch.write(bytes)
      return try CandidateLines(path: path, warning: nil, layout: Self.small)
    }
    let good = Array("one\ntwo\n".utf8)
    #expect(throws: CandidateFileError.invalidUTF8(line: 3)) {
      try open(good + [0xC3, 0x28, 0x0A])
    }
    #expect(throws: CandidateFileError.controlCharacter(line: 2)) {
      try open(Array("one\nt\u{7}o\n".utf8))
    }
    #expect(throws: CandidateFileError.lineTooLong(line: 3, limit: 24)) {
      try open(good + Array(String(repeating: "x", count: 25).utf8) + [0x0A])
    }
    #expect(throws: CandidateFileError.noLines) { try open([]) }
    // A line of the longest length, its "\r\n" split across two reads: taken.
    let longest = Array(String(repeating: "y", count: 24).utf8)
    let lines = try open(Array("ab\ncdefghijklm\n".utf8) + longest + [0x0D, 0x0A] + longest)
    #expect(
      Self.texts(try lines.lines(0..<4)) == [
        Array("ab".utf8), Array("cdefghijklm".utf8), longest, longest,
      ])
    #expect(throws: CandidateFileError.notRegularFile) {
      try CandidateLines(path: scratch.directory.path, warning: nil)
    }
  }

  /// A file readable by others is named in a warning, as a secret file read whole is.
  @Test func aSharedFileIsWarnedOf() throws {
    let scratch = try Scratch()
    let path = try scratch.write(Array("a\n".utf8))
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    var warnings: [String] = []
    _ = try CandidateLines(path: path, warning: { warnings.append($0) })
    #expect(warnings == ["\(path) is readable by other users (mode 0644); run chmod 600 \(path)"])
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    warnings = []
    _ = try CandidateLines(path: path, warning: { warnings.append($0) })
    #expect(warnings.isEmpty)
  }

  /// Changed after its count — grown, cut short, or touched — the file is refused at the next
  /// read, never read as something else.
  @Test func aFileChangedAfterItsCountIsRefused() throws {
    let scratch = try Scratch()
    let (bytes, _) = Self.randomFile(lines: 50, seed: 7)
    let url = URL(fileURLWithPath: try scratch.write(bytes))

    let grown = try CandidateLines(path: url.path, warning: nil, layout: Self.small)
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("more\n".utf8))
    try handle.close()
    #expect(throws: CandidateFileError.changed) { try grown.lines(0..<1) }

    let cut = try CandidateLines(path: url.path, warning: nil, layout: Self.small)
    try FileHandle(forWritingTo: url).truncate(atOffset: UInt64(bytes.count / 2))
    #expect(throws: CandidateFileError.changed) { try cut.lines(40..<50) }

    let touched = try CandidateLines(path: url.path, warning: nil, layout: Self.small)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: url.path)
    #expect(throws: CandidateFileError.changed) { try touched.lines(0..<1) }
  }

  /// The content digest tells two files of the same count and size apart.
  @Test func theDigestCoversTheContent() throws {
    let scratch = try Scratch()
    let one = try CandidateLines(
      path: try scratch.write(Array("abc\ndef\n".utf8), name: "one"), warning: nil,
      layout: Self.small)
    let other = try CandidateLines(
      path: try scratch.write(Array("abc\ndeg\n".utf8), name: "other"), warning: nil,
      layout: Self.small)
    let same = try CandidateLines(
      path: try scratch.write(Array("abc\ndef\n".utf8), name: "same"), warning: nil,
      layout: Self.small)
    #expect(one.contentDigest != other.contentDigest)
    #expect(one.contentDigest == same.contentDigest)
    let passwords = try [one, other].map { lines throws(PasswordRecoveryError) in
      try PasswordSet(remembered: nil, lines: lines).hashInput(after: [])
    }
    #expect(passwords[0] != passwords[1])
  }

  // MARK: - The sets

  /// Passwords: the remembered one, the token list's, then the file's lines, numbered, each
  /// told by its 1-based line; duplicates not dropped; every part of every split the same.
  @Test func passwordsTakeTheLinesAfterTheOthers() throws {
    let scratch = try Scratch()
    let (bytes, expected) = Self.randomFile(lines: 120, seed: 3)
    let lines = try CandidateLines(
      path: try scratch.write(bytes), warning: nil, layout: Self.small)
    let tokens = try PasswordTokens(file: SecureBytes(utf8: "x %[12]\n"))
    let set = try PasswordSet(remembered: SecureBytes(utf8: "pw"), tokens: tokens, lines: lines)
    #expect(set.mayRepeat)
    #expect(set.count == 1 + tokens.count + 120)
    let first = 1 + tokens.count
    let whole = Self.texts(try set.passwords(0..<set.count))
    #expect(whole[0] == Array("pw".utf8))
    #expect(Array(whole[first...]) == expected)
    for index in [first, first + 1, first + 77, set.count - 1] {
      #expect(set.origin(index) == .line(index - first + 1))
      #expect(Self.raw(try set.password(index)) == expected[index - first])
    }
    for parts in [2, 3, 7] {
      let cut = try (1...parts).flatMap { part in
        Self.texts(try set.passwords(SearchSplit.range(of: 0..<set.count, part: part, of: parts)))
      }
      #expect(cut == whole)
    }
  }

  /// A password search over a file read line by line finds its password, told by its line.
  @Test func aPasswordSearchFindsALine() throws {
    let scratch = try Scratch()
    let lines = (0..<60).map { "wrong \($0)" } + [PasswordRecoveryTests.vaultPassword, "after"]
    let file = try CandidateLines(
      path: try scratch.write(Array(lines.joined(separator: "\r\n").utf8)), warning: nil,
      layout: CandidateLines.Layout(
        minimumStride: 4, indexEntries: 4, bufferBytes: 64, maximumLine: 30))
    let vault = try DesktopVault(
      json: try PasswordRecoveryTests.vector("vaults/legacy-no-keymetadata.json"))
    let set = try PasswordSet(remembered: nil, lines: file)
    let outcome = try PasswordSearch(target: .vault(vault), passwords: set, threads: 2).run()
    let found = try #require(outcome.found)
    #expect(found.index == 60)
    #expect(set.origin(found.index) == .line(61))
  }

  /// A search whose file changed after its count stops with the typed error.
  @Test func aPasswordSearchStopsWhenTheFileChanged() throws {
    let scratch = try Scratch()
    let url = URL(fileURLWithPath: try scratch.write(Array("a\nb\nc\n".utf8)))
    let set = try PasswordSet(
      remembered: nil, lines: try CandidateLines(path: url.path, warning: nil))
    try Data("a\nb\nc\nd\n".utf8).write(to: url)
    let vault = try DesktopVault(
      json: try PasswordRecoveryTests.vector("vaults/legacy-no-keymetadata.json"))
    // Written in place, the same file grew: the open descriptor sees it.
    #expect(throws: PasswordRecoveryError.candidates(.changed)) {
      try PasswordSearch(target: .vault(vault), passwords: set, threads: 1).run()
    }
  }

  /// Passphrases: NFKD as read, numbered, not compared; the first time each comes it is the
  /// held set's passphrase with the held set's line.
  @Test func passphrasesAreTheHeldSetsWithTheirRepeats() throws {
    let scratch = try Scratch()
    let (bytes, _) = Self.randomFile(lines: 400, seed: 11)
    let held = try PassphraseSet(
      candidates: SecureBytes(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes[3...]) : bytes))
    let set = PassphraseSet(
      candidates: try CandidateLines(
        path: try scratch.write(bytes), warning: nil, layout: Self.small))
    #expect(set.count == 400)
    #expect(set.mayRepeat && !held.mayRepeat)
    var seen: Set<[UInt8]> = []
    var firsts: [([UInt8], PassphraseOrigin)] = []
    let all = try set.salts(0..<set.count)
    for index in 0..<set.count {
      let passphrase = Self.raw(try set.passphrase(index))
      #expect(Self.raw(all[index]) == Array("mnemonic".utf8) + passphrase)
      #expect(set.origin(index) == .line(index + 1))
      if seen.insert(passphrase).inserted { firsts.append((passphrase, set.origin(index))) }
    }
    let heldPairs = try (0..<held.count).map {
      (Self.raw(try held.passphrase($0)), held.origin($0))
    }
    #expect(firsts.map(\.0) == heldPairs.map(\.0))
    #expect(firsts.map(\.1) == heldPairs.map(\.1))
  }

  /// A token list's passphrases by number are the held candidates' of the same passphrases
  /// written one a line (NFKD the same), repeats aside.
  @Test func tokenPassphrasesByNumberAreWhatAHeldListHolds() throws {
    let tokens = try PasswordTokens(
      file: SecureBytes(utf8: "%[a\u{E9}\u{FB01}]\n%1,2d\ne\u{301} \u{212B}\n"))
    let set = PassphraseSet(tokens: tokens)
    #expect(set.count == tokens.count)
    var written: [UInt8] = []
    tokens.forEachPassword { _, password in
      password.withUnsafeBytes { written += $0 }
      written.append(0x0A)
      return true
    }
    let held = try PassphraseSet(candidates: SecureBytes(written))
    var seen: Set<[UInt8]> = []
    var firsts: [[UInt8]] = []
    for index in 0..<set.count {
      let passphrase = Self.raw(try set.passphrase(index))
      if seen.insert(passphrase).inserted { firsts.append(passphrase) }
    }
    #expect(firsts == (try (0..<held.count).map { Self.raw(try held.passphrase($0)) }))
    #expect(firsts.count < set.count, "the list makes repeats")
  }

  /// The phrase search with a passphrase file read line by line: found with its line; resumed
  /// from its checkpoint; a file changed after its count stops the search with the typed error.
  @Test func aPhraseSearchTakesPassphrasesLineByLine() throws {
    let mnemonic = try Mnemonic(phrase: SecureBytes(utf8: F.legalWinner))
    let profile = try FreedomProfile(mnemonic: mnemonic, passphrase: SecureBytes(utf8: "TREZOR"))
    let scratch = try Scratch()
    var lines = (0..<150).map { "p\($0 % 40)" }
    lines[100] = "TREZOR"
    let url = URL(fileURLWithPath: try scratch.write(Array(lines.joined(separator: "\n").utf8)))
    let set = PassphraseSet(
      candidates: try CandidateLines(path: url.path, warning: nil, layout: Self.small))
    let search = try RecoverySearch(phrase: DamagedPhrase(phrase: SecureBytes(utf8: F.legalWinner)))
    let recovery = try PhraseRecovery(
      search: search, targets: [.address(profile.swarm.address)], passphrases: set,
      configuration: .init(threads: 2, chunkSize: 16))
    #expect(recovery.candidateCount == 150)
    let outcome = try recovery.run()
    #expect(outcome.found?.passphraseOrigin == .line(101))
    #expect(text(try #require(outcome.found?.passphrase)) == "TREZOR")
    #expect(outcome.progress.match?.passphrase == 100)
    let again = try recovery.run(resumingFrom: RecoveryProgress(json: outcome.progress.jsonBytes()))
    #expect(again.foundEarlier && again.found?.passphraseOrigin == .line(101))

    // Cut short after the count: the search stops with the typed error.
    try FileHandle(forWritingTo: url).truncate(atOffset: 10)
    #expect(throws: RecoveryCheckpointError.candidates(.changed)) {
      try PhraseRecovery(
        search: search, targets: [.address(profile.swarm.address)], passphrases: set,
        configuration: .init(threads: 2, chunkSize: 16)
      ).run()
    }
  }

  /// The threshold the command line takes: a file over it in bytes, or in lines, is read line
  /// by line; a test sets it low.
  @Test func theThresholdIsInjectable() throws {
    let scratch = try Scratch()
    let path = try scratch.write(Array("a\nb\nc".utf8))
    let low = CandidateLines.Threshold(bytes: 4, lines: 2)
    #expect(CandidateLines.isLarge(path: path, threshold: low))
    #expect(!CandidateLines.isLarge(path: path))
    #expect(!CandidateLines.isLarge(path: "-", threshold: low))
    #expect(CandidateLines.hasTooManyLines(SecureBytes(utf8: "a\nb\nc"), threshold: low))
    #expect(!CandidateLines.hasTooManyLines(SecureBytes(utf8: "a\nb\n"), threshold: low))
    #expect(!CandidateLines.hasTooManyLines(SecureBytes(utf8: "a\nb\nc")))
  }
}

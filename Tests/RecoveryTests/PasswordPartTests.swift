import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

@testable import Recovery

/// The password search cut into parts and merged with the phrase search's machinery, the one
/// split rule both use, and the "one edit" level of the automatic phases.
@Suite("recover: password parts and one edit")
struct PasswordPartTests {
  typealias P = PasswordRecoveryTests

  // MARK: - The split rule

  /// Parts are disjoint, cover the whole in order and differ in size by at most one, even
  /// where total·k overflows 64 bits; the phrase search's shard is the same range.
  @Test(arguments: [0, 1, 2, 7, 200, 1 << 40, UInt64.max / 3])
  func partsCoverTheWholeOnce(total: UInt64) {
    for count in [1, 2, 3, 8, 1000] {
      var next: UInt64 = 0
      var sizes: [UInt64] = []
      for index in 1...count {
        let range = SearchSplit.range(of: total, part: index, of: count)
        #expect(range.lowerBound == next, "part \(index) of \(count) of \(total)")
        next = range.upperBound
        sizes.append(UInt64(range.count))
      }
      #expect(next == total, "\(count) parts of \(total)")
      #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(count) parts of \(total)")
    }
    #expect(SearchSplit.range(of: 10..<210, part: 2, of: 3) == 76..<143)
  }

  @Test func thePhraseSearchCutsItsShardsByTheSameRule() throws {
    for index in 1...3 {
      let recovery = try RecoverySessionTests.session(
        [12: "?"], damage: RecoveryDamage(), targets: [try RecoverySessionTests.target()],
        shard: (index, 3), sharded: true
      ).phases[0].recovery
      #expect(
        recovery.range == SearchSplit.range(of: recovery.candidateCount, part: index, of: 3))
      #expect(recovery.range.count > 0)
    }
  }

  // MARK: - One edit

  /// Every string one generic edit from `text` (printable ASCII and its own characters).
  static func edits(of text: String) -> Set<String> {
    let scalars = Array(text.unicodeScalars)
    var alphabet = (0x20...0x7E).map { Unicode.Scalar(UInt8($0)) }
    for scalar in scalars where !alphabet.contains(scalar) { alphabet.append(scalar) }
    func string(_ s: [Unicode.Scalar]) -> String { String(String.UnicodeScalarView(s)) }
    var made: Set<String> = []
    for position in scalars.indices {
      var deleted = scalars
      deleted.remove(at: position)
      made.insert(string(deleted))
      for other in alphabet where other != scalars[position] {
        var replaced = scalars
        replaced[position] = other
        made.insert(string(replaced))
      }
      if position + 1 < scalars.count {
        var exchanged = scalars
        exchanged.swapAt(position, position + 1)
        made.insert(string(exchanged))
      }
    }
    for position in 0...scalars.count {
      for other in alphabet {
        var inserted = scalars
        inserted.insert(other, at: position)
        made.insert(string(inserted))
      }
    }
    made.remove(text)
    return made
  }

  /// The levels: as remembered, one likely typo, one edit (every generic edit not already
  /// tried), two likely typos; each password once, in the level it first comes in.
  @Test func oneEditComesAfterOneLikelyTypo() throws {
    let remembered = "a\u{E9}1"
    let set = try PasswordSet(remembered: P.secret(remembered), typos: 2, oneEdit: true)
    let texts = P.texts(set)
    let levels = set.levels
    #expect(levels.map(\.level) == [.remembered, .likelyTypos(1), .oneEdit, .likelyTypos(2)])
    #expect(
      levels.map(\.passwords.lowerBound) == [0] + levels.dropLast().map(\.passwords.upperBound))
    #expect(levels.last?.passwords.upperBound == set.count)
    let before = Set(texts[0..<levels[2].passwords.lowerBound])
    let edits = Set(texts[levels[2].passwords])
    #expect(edits == Self.edits(of: remembered).subtracting(before))
    #expect(edits.count == levels[2].passwords.count, "an edit comes twice")
    // Not normalised: é stays one scalar, and an edit may put it anywhere (a likely typo adds
    // only digits and symbols, at an end).
    #expect(edits.contains("\u{E9}\u{E9}1") && edits.contains("a\u{E9}1\u{E9}"))
    #expect(!edits.contains("ae\u{301}1"))
    // Two likely typos come after, less what the edits made.
    let two = Set(P.texts(try PasswordSet(remembered: P.secret(remembered), typos: 2)))
    #expect(Set(texts) == two.union(edits))
    let index = try #require(texts.firstIndex(of: "aX1"))
    #expect(levels[2].passwords.contains(index))
    #expect(set.origin(index) == .typos([.replaced(at: 2)]))
  }

  /// Without a level of likely typos the edits come right after the password as remembered.
  @Test func oneEditWithoutTypos() throws {
    let set = try PasswordSet(remembered: P.secret("ab"), oneEdit: true)
    #expect(set.levels.map(\.level) == [.remembered, .oneEdit])
    #expect(Set(P.texts(set).dropFirst()) == Self.edits(of: "ab"))
  }

  /// A keystore whose password has a character no likely typo makes is found by one edit.
  @Test func pbkdf2KeystoreFromOneEdit() throws {
    let keystore = try Web3Keystore(json: try P.vector("keystores/eth-keyfile-pbkdf2.json"))
    let set = try PasswordSet(remembered: P.secret("testpassXord"), typos: 1, oneEdit: true)
    let outcome = try PasswordSearch(target: .keystore(keystore), passwords: set, threads: 2)
      .run()
    let found = try #require(outcome.found)
    #expect(set.levels[2].passwords.contains(found.index))
    #expect(set.origin(found.index) == .typos([.replaced(at: 9)]))
  }

  // MARK: - Parts

  static let keystore = PasswordTarget.keystore(
    try! Web3Keystore(json: try! P.vector("keystores/eth-keyfile-pbkdf2.json")))

  /// The search hash of three candidates, as the version before one buffer wrote it in a
  /// checkpoint: checkpoints written before stay valid.
  @Test func theSearchHashIsStable() throws {
    let set = try PasswordSet(
      remembered: nil, candidates: P.secret("a\nb\ncorrect horse battery staple\n"))
    let hash = try PasswordSearch(target: Self.keystore, passwords: set, threads: 1).searchHash()
    #expect(Hex.encode(hash) == "fdf723c2cf433d90cb88d3f09feef6110a9dc004606234aea27dcfd640d5eff3")
  }

  static func part(
    _ index: Int, of count: Int, target: PasswordTarget = keystore,
    search: [UInt8] = .init(
      repeating: 7, count: 32), opened: PasswordTarget.Opened? = nil
  ) -> (name: String, bytes: [UInt8]) {
    let candidates = SearchSplit.range(of: 200, part: index, of: count).count
    let result = ShardResult(
      password: target, search: search, part: index, of: count,
      candidates: UInt64(candidates), searchCandidates: 200,
      searched: UInt64(opened == nil ? candidates : 1), opened: opened, foundEarlier: false,
      complete: true, seconds: 1.5)
    return ("part-\(index).json", result.jsonBytes())
  }

  /// A password part reads back as written: its kind, the file's hash, what opened; no
  /// phrase fields.
  @Test func aPasswordPartReadsWhatItWrites() throws {
    let address = try EthereumAddress("0x" + P.keystoreAddress)
    let (_, bytes) = Self.part(2, of: 3, opened: .keystore(address: address))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("\"kind\": \"password\""))
    #expect(!text.contains("changes") && !text.contains("checksumValid"))
    let read = try ShardResult(json: bytes)
    #expect(read.kind == .password)
    #expect(read.file == Self.keystore.publicHash)
    #expect(read.matched == address.checksummed)
    #expect((read.index, read.count, read.candidates, read.searched) == (2, 3, 67, 1))
    #expect(read.found && read.complete)
  }

  @Test func collectionOfPasswordPartsNamesTheOneThatFoundIt() throws {
    let vault = PasswordTarget.vault(
      try DesktopVault(json: try P.vector("vaults/legacy-no-keymetadata.json")))
    let files = [
      Self.part(1, of: 3, target: vault), Self.part(2, of: 3, target: vault),
      Self.part(3, of: 3, target: vault, opened: .vault(words: 24)),
    ]
    let collection = try ShardCollection(files: files)
    #expect(collection.status == .found)
    #expect(collection.kind == .password)
    #expect(collection.file == vault.publicHash)
    #expect(collection.found.map(\.result.index) == [3])
    #expect(collection.found.first?.result.matched == "vault")
    let exhausted = try ShardCollection(
      files: files.dropLast() + [Self.part(3, of: 3, target: vault)])
    #expect(exhausted.status == .exhausted)
  }

  @Test func partsOfAnotherKindFileOrSearchAreRefused() throws {
    let vault = PasswordTarget.vault(
      try DesktopVault(json: try P.vector("vaults/legacy-no-keymetadata.json")))
    #expect(throws: ShardCollectionError.otherFile(file: "part-2.json", first: "part-1.json")) {
      try ShardCollection(files: [Self.part(1, of: 3), Self.part(2, of: 3, target: vault)])
    }
    #expect(
      throws: ShardCollectionError.otherSearch(
        file: "part-2.json", first: "part-1.json", kind: .password)
    ) {
      try ShardCollection(files: [
        Self.part(1, of: 3), Self.part(2, of: 3, search: .init(repeating: 8, count: 32)),
      ])
    }
    let phrase = try #require(try ShardCollectionTests.parts(count: 3).last)
    #expect(
      throws: ShardCollectionError.otherKind(
        file: "part-3.json", kind: .phrase, first: "part-1.json")
    ) {
      try ShardCollection(files: [Self.part(1, of: 3), phrase])
    }
    #expect(
      throws: ShardCollectionError.otherKind(
        file: "part-1.json", kind: .password, first: "part-3.json")
    ) {
      try ShardCollection(files: [phrase, Self.part(1, of: 3)])
    }
  }

  /// A checkpoint of a part keeps which part it is; one of the whole search names none.
  @Test func aPartsCheckpointNamesItsPart() throws {
    let part = PasswordCheckpoint(
      search: Array(repeating: 1, count: 32), doneBelow: 70, found: 90, shard: (2, 3))
    let text = String(decoding: part.jsonBytes(), as: UTF8.self)
    #expect(text.hasSuffix(", \"found\": 90, \"shard\": {\"index\": 2, \"count\": 3}}\n"))
    #expect(try PasswordCheckpoint(json: part.jsonBytes()) == part)
    let whole = PasswordCheckpoint(search: Array(repeating: 1, count: 32), doneBelow: 70)
    #expect(!String(decoding: whole.jsonBytes(), as: UTF8.self).contains("shard"))
    #expect(try PasswordCheckpoint(json: whole.jsonBytes()).shard == (1, 1))
    for bad in ["{\"index\": 4, \"count\": 3}", "{\"index\": 1, \"count\": 1}", "{\"index\": 1}"] {
      let edited = text.replacingOccurrences(
        of: "{\"index\": 2, \"count\": 3}", with: bad)
      #expect(throws: PasswordRecoveryError.malformedCheckpoint) {
        try PasswordCheckpoint(json: Array(edited.utf8))
      }
    }
  }
}

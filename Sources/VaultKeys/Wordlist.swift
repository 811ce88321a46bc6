#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One of the ten official BIP-39 wordlists, embedded in the library so the tool works offline.
public struct Wordlist: Sendable {
  /// The languages of the official wordlists, with the identifiers the BIP-39 repository uses.
  public enum Language: String, CaseIterable, Sendable, Codable {
    case english, japanese, korean, spanish
    case chineseSimplified = "chinese_simplified"
    case chineseTraditional = "chinese_traditional"
    case french, italian, czech, portuguese
  }

  /// The number of words in every list.
  public static let wordCount = 2048

  /// The language of this list.
  public let language: Language
  /// The 2048 words in order, as published. The published lists are in Unicode NFKD and
  /// lowercase already (a test checks both), the form whose UTF-8 bytes make up a seed's
  /// password, so each word is also its own matching key.
  public let words: [String]
  /// The word indices in the byte order of the words' UTF-8, searched by bisection: built
  /// once, with no hashing, and for the lists published in that order (English, Italian,
  /// Portuguese, Korean) without even a sort.
  private let byteOrder: [UInt16]

  /// The list for `language`, decoded and indexed once per process on first use.
  public static func named(_ language: Language) -> Wordlist {
    switch language {
    case .english: Loaded.english
    case .japanese: Loaded.japanese
    case .korean: Loaded.korean
    case .spanish: Loaded.spanish
    case .chineseSimplified: Loaded.chineseSimplified
    case .chineseTraditional: Loaded.chineseTraditional
    case .french: Loaded.french
    case .italian: Loaded.italian
    case .czech: Loaded.czech
    case .portuguese: Loaded.portuguese
    }
  }

  /// The index (0…2047) of `word`, compared after NFKD and lowercasing; nil if it is not in the list.
  public func index(of word: String) -> Int? {
    index(forKey: Self.matchingKey(word))
  }

  /// The exact bytes of the published file (for checking its SHA-256).
  public static func sourceFile(_ language: Language) -> [UInt8] {
    switch language {
    case .english: PackageResources.english_txt
    case .japanese: PackageResources.japanese_txt
    case .korean: PackageResources.korean_txt
    case .spanish: PackageResources.spanish_txt
    case .chineseSimplified: PackageResources.chinese_simplified_txt
    case .chineseTraditional: PackageResources.chinese_traditional_txt
    case .french: PackageResources.french_txt
    case .italian: PackageResources.italian_txt
    case .czech: PackageResources.czech_txt
    case .portuguese: PackageResources.portuguese_txt
    }
  }

  // Static lets are initialised lazily and exactly once, so a process that only ever reads
  // English phrases never decodes the other nine lists.
  private enum Loaded {
    static let english = Wordlist(loading: .english)
    static let japanese = Wordlist(loading: .japanese)
    static let korean = Wordlist(loading: .korean)
    static let spanish = Wordlist(loading: .spanish)
    static let chineseSimplified = Wordlist(loading: .chineseSimplified)
    static let chineseTraditional = Wordlist(loading: .chineseTraditional)
    static let french = Wordlist(loading: .french)
    static let italian = Wordlist(loading: .italian)
    static let czech = Wordlist(loading: .czech)
    static let portuguese = Wordlist(loading: .portuguese)
  }

  private init(loading language: Language) {
    self.language = language
    let file = Self.sourceFile(language)
    var words: [String] = []
    words.reserveCapacity(Self.wordCount)
    file.withUnsafeBufferPointer { bytes in
      var start = 0
      for end in bytes.indices where bytes[end] == 0x0A {
        words.append(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        start = end + 1
      }
    }
    precondition(words.count == Self.wordCount, "the embedded \(language) wordlist is damaged")
    self.words = words
    let inOrder = zip(words, words.dropFirst()).allSatisfy {
      $0.utf8.lexicographicallyPrecedes($1.utf8)
    }
    let identity = (0..<UInt16(Self.wordCount)).map { $0 }
    byteOrder =
      inOrder
      ? identity
      : identity.sorted { words[Int($0)].utf8.lexicographicallyPrecedes(words[Int($1)].utf8) }
  }

  /// The form in which words are compared: NFKD, lowercased (and NFKD again, as lowercasing can
  /// compose). Words in NFKD are equal exactly when their bytes are, so Swift's
  /// canonical-equivalence `==` cannot blur two different words.
  package static func matchingKey(_ word: String) -> String {
    if NFKD.isASCII(word) { return word.lowercased() }
    return NFKD.normalize(NFKD.normalize(word).lowercased())
  }

  /// The index of a matching key (already normalised by `matchingKey`).
  package func index(forKey key: String) -> Int? {
    var low = 0
    var high = byteOrder.count
    while low < high {
      let middle = (low + high) / 2
      let candidate = words[Int(byteOrder[middle])]
      if candidate.utf8.lexicographicallyPrecedes(key.utf8) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low < byteOrder.count, words[Int(byteOrder[low])].utf8.elementsEqual(key.utf8) else {
      return nil
    }
    return Int(byteOrder[low])
  }
}

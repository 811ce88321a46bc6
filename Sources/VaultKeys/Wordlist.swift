import FoundationEssentials

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
  /// Word index by matching key (see `matchingKey`).
  private let indexByKey: [String: Int]

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
    indexByKey[Self.matchingKey(word)]
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
    words = Self.sourceFile(language).split(separator: 0x0A).map {
      String(decoding: $0, as: UTF8.self)
    }
    precondition(words.count == Self.wordCount, "the embedded \(language) wordlist is damaged")
    var index: [String: Int] = [:]
    index.reserveCapacity(Self.wordCount)
    for (position, word) in words.enumerated() where index[word] == nil { index[word] = position }
    indexByKey = index
  }

  /// The form in which words are compared: NFKD, lowercased (and NFKD again, as lowercasing can
  /// compose). Words in NFKD are equal exactly when their bytes are, so Swift's
  /// canonical-equivalence `==` cannot blur two different words.
  static func matchingKey(_ word: String) -> String {
    if UnicodeNormalization.isASCII(word) { return word.lowercased() }
    return UnicodeNormalization.nfkd(UnicodeNormalization.nfkd(word).lowercased())
  }

  /// The index of a matching key (already normalised by `matchingKey`).
  func index(forKey key: String) -> Int? {
    indexByKey[key]
  }
}

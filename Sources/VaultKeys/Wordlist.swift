import Foundation

/// One of the ten official BIP-39 wordlists, embedded in the library so the tool works offline.
public struct Wordlist: Sendable {
  /// The languages of the official wordlists, with the identifiers the BIP-39 repository uses.
  public enum Language: String, CaseIterable, Sendable, Codable {
    case english, japanese, korean, spanish
    case chineseSimplified = "chinese_simplified"
    case chineseTraditional = "chinese_traditional"
    case french, italian, czech, portuguese
  }

  /// The language of this list.
  public let language: Language
  /// The 2048 words in order, as published (not normalised).
  public let words: [String]

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
}

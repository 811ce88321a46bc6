import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A BIP-39 mnemonic: entropy of 16…32 bytes, written as 12…24 words of one official wordlist.
///
/// Parse, don't validate: a value exists only if its words and checksum were valid. The phrase
/// and the seed are built straight into `SecureBytes` from the wordlist and the entropy.
public struct Mnemonic: Sendable {
  /// The word counts BIP-39 defines (128, 160, 192, 224 and 256 bits of entropy).
  public static let validWordCounts = [12, 15, 18, 21, 24]
  /// PBKDF2 iterations and seed length fixed by BIP-39.
  package static let seedIterations = 2048
  static let seedByteCount = 64

  /// The wordlist the phrase is written in.
  public let language: Wordlist.Language
  /// The entropy the words encode (16, 20, 24, 28 or 32 bytes).
  public let entropy: SecureBytes
  /// 1-based positions of English words that were written as an abbreviation and expanded.
  public let expandedAbbreviations: [Int]

  /// The number of words: 3 per 4 bytes of entropy.
  public var wordCount: Int { entropy.count * 3 / 4 }

  /// The mnemonic encoding `entropy` (16, 20, 24, 28 or 32 bytes) in `language`.
  public init(entropy: SecureBytes, language: Wordlist.Language = .english) throws(MnemonicError) {
    guard Self.validWordCounts.map({ $0 * 4 / 3 }).contains(entropy.count) else {
      throw .invalidEntropyLength(entropy.count)
    }
    self.init(verifiedEntropy: entropy, language: language, expandedAbbreviations: [])
  }

  package init(
    verifiedEntropy: SecureBytes, language: Wordlist.Language, expandedAbbreviations: [Int]
  ) {
    self.entropy = verifiedEntropy
    self.language = language
    self.expandedAbbreviations = expandedAbbreviations
  }

  /// A new mnemonic of `wordCount` words from fresh secure random entropy.
  public static func generate(
    wordCount: Int = 24, language: Wordlist.Language = .english
  ) throws(MnemonicError) -> Mnemonic {
    guard validWordCounts.contains(wordCount) else { throw .invalidWordCount(wordCount) }
    return try Mnemonic(entropy: SecureRandom.secret(count: wordCount * 4 / 3), language: language)
  }

  /// How many last words complete a phrase of `wordCount` words whose other words are fixed:
  /// the last word carries 11 − wordCount/3 bits of entropy, the rest is checksum.
  public static func validLastWordCount(wordCount: Int) -> Int {
    1 << (11 - wordCount / 3)
  }

  /// The phrase as UTF-8: the published word forms, separated by U+3000 (ideographic space) for
  /// Japanese as BIP-39 recommends, by a space otherwise.
  public func phrase() -> SecureBytes {
    let separator = language == .japanese ? Array("\u{3000}".utf8) : [0x20]
    return joinedWords(Wordlist.named(language).words, separator: separator)
  }

  /// The 64-byte BIP-39 seed: PBKDF2-HMAC-SHA512 of the NFKD sentence (words joined by single
  /// spaces) with salt "mnemonic" + NFKD(passphrase), 2048 iterations.
  ///
  /// `passphrase` is UTF-8 text; bytes that are not valid UTF-8 are used unchanged, since they
  /// cannot be normalised.
  public func seed(passphrase: SecureBytes = SecureBytes(count: 0) { _ in }) -> SecureBytes {
    // The embedded lists are in NFKD already (a test checks it), so the words are used as they are.
    let sentence = joinedWords(Wordlist.named(language).words, separator: [0x20])
    let salt = SecureBytes(utf8: "mnemonic") + Self.compatibilityDecomposed(passphrase)
    return PBKDF2.hmacSHA512(
      password: sentence, salt: salt, iterations: Self.seedIterations,
      keyByteCount: Self.seedByteCount)
  }

  /// The words for the entropy's indices taken from `forms`, joined by `separator`, written
  /// straight into a zeroizing buffer.
  private func joinedWords(_ forms: [String], separator: [UInt8]) -> SecureBytes {
    var byteCount = -separator.count
    Self.forEachWordIndex(of: entropy) { byteCount += separator.count + forms[$0].utf8.count }
    return SecureBytes(count: byteCount) { buffer in
      var offset = 0
      Self.forEachWordIndex(of: entropy) { index in
        if offset > 0 {
          for byte in separator {
            buffer[offset] = byte
            offset += 1
          }
        }
        for byte in forms[index].utf8 {
          buffer[offset] = byte
          offset += 1
        }
      }
    }
  }

  /// NFKD of UTF-8 text in a new zeroizing buffer, made without a String of it; bytes that are
  /// not valid UTF-8 come back as they are.
  package static func compatibilityDecomposed(_ text: SecureBytes) -> SecureBytes {
    text.withUnsafeBytes { NFKD.normalize(utf8: $0) } ?? text
  }
}

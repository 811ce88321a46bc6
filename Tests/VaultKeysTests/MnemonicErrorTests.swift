import CryptoPrimitives
import Testing
import VaultKeys

@Suite struct MnemonicErrorTests {
  private func error(
    _ phrase: String, language: Wordlist.Language? = nil
  ) -> MnemonicError? {
    do {
      _ = try Mnemonic(phrase: phrase, language: language)
      return nil
    } catch {
      return error
    }
  }

  private func abandons(_ count: Int) -> String {
    Array(repeating: "abandon", count: count).joined(separator: " ")
  }

  @Test func emptyInput() {
    for phrase in ["", "  \t\r\n", "\u{FEFF}", "\u{3000}"] {
      #expect(error(phrase) == .empty)
    }
    #expect(
      MnemonicError.empty.description == "the phrase is empty: enter its 12, 15, 18, 21 or 24 words"
    )
  }

  @Test func invalidUTF8() {
    #expect(throws: MnemonicError.invalidUTF8) {
      try Mnemonic(phrase: SecureBytes([0x61, 0xFF, 0x62]))
    }
    #expect(MnemonicError.invalidUTF8.description == "the phrase is not valid UTF-8 text")
  }

  @Test func wrongWordCount() {
    #expect(error(abandons(11)) == .invalidWordCount(11))
    #expect(error(abandons(13)) == .invalidWordCount(13))
    #expect(error("abandon") == .invalidWordCount(1))
    #expect(
      MnemonicError.invalidWordCount(11).description
        == "found 11 words, but a BIP-39 phrase has 12, 15, 18, 21 or 24 words")
    #expect(
      MnemonicError.invalidWordCount(1).description
        == "found 1 word, but a BIP-39 phrase has 12, 15, 18, 21 or 24 words")
    #expect(throws: MnemonicError.invalidWordCount(13)) { try Mnemonic.generate(wordCount: 13) }
  }

  @Test func wrongEntropyLength() {
    for count in [0, 15, 17, 33] {
      #expect(throws: MnemonicError.invalidEntropyLength(count)) {
        try Mnemonic(entropy: SecureBytes([UInt8](repeating: 0, count: count)))
      }
    }
    #expect(
      MnemonicError.invalidEntropyLength(17).description
        == "the entropy is 17 bytes, but BIP-39 takes 16, 20, 24, 28 or 32 bytes")
  }

  @Test func unknownWordNamesItsPositionAndNearestWords() {
    let phrase = abandons(6) + " abot " + abandons(4) + " about"
    let expected = MnemonicError.unknownWord(
      position: 7, word: "abot", language: .english, suggestions: ["about", "above", "able"])
    #expect(error(phrase) == expected)
    #expect(
      expected.description
        == "word 7 ('abot') is not in the english wordlist — did you mean 'about', 'above' or 'able'?"
    )
    // Three letters are too few to abbreviate.
    #expect(
      error(abandons(11) + " abo")
        == .unknownWord(
          position: 12, word: "abo", language: .english, suggestions: ["about", "above"]))
    let nothingNear = MnemonicError.unknownWord(
      position: 1, word: "qqqqqqq", language: .english, suggestions: [])
    #expect(error("qqqqqqq " + abandons(10) + " about") == nothingNear)
    #expect(nothingNear.description == "word 1 ('qqqqqqq') is not in the english wordlist")
  }

  @Test func unknownWordIsSuggestedFromTheLanguageOfTheOtherWords() {
    // Spanish for 16 × 0x00 is "ábaco" × 11 + "abierto".
    let phrase = Array(repeating: "\u{E1}baco", count: 11).joined(separator: " ") + " abirto"
    let expected = MnemonicError.unknownWord(
      position: 12, word: "abirto", language: .spanish,
      suggestions: ["abierto", "aborto", "adicto"])
    #expect(error(phrase) == expected)
    #expect(
      expected.description
        == "word 12 ('abirto') is not in the spanish wordlist — did you mean 'abierto', 'aborto' or 'adicto'?"
    )
  }

  @Test func checksumMismatchSaysHowManyLastWordsWouldFit() {
    #expect(error(abandons(12)) == .checksumMismatch(language: .english, wordCount: 12))
    #expect(error(abandons(24)) == .checksumMismatch(language: .english, wordCount: 24))
    // Order matters: the same words, "about" first.
    #expect(
      error("about " + abandons(11)) == .checksumMismatch(language: .english, wordCount: 12))
    // Abbreviated words whose checksum fails are still reported as a checksum error.
    #expect(
      error(Array(repeating: "aban", count: 12).joined(separator: " "))
        == .checksumMismatch(language: .english, wordCount: 12))
    #expect(
      MnemonicError.checksumMismatch(language: .english, wordCount: 12).description
        == "the checksum of these 12 english words does not match: one or more words are wrong or out of order (changing only the last word would fix it; 128 of the 2048 words are valid as word 12)"
    )
    #expect(
      MnemonicError.checksumMismatch(language: .japanese, wordCount: 24).description
        == "the checksum of these 24 japanese words does not match: one or more words are wrong or out of order (changing only the last word would fix it; 8 of the 2048 words are valid as word 24)"
    )
  }

  @Test func wordsFromTwoListsAreReportedByPosition() {
    // あおぞら is the Japanese word for index 3.
    let expected = MnemonicError.mixedLanguages([.english: Array(1...11), .japanese: [12]])
    #expect(error(abandons(11) + " あおぞら") == expected)
    #expect(
      expected.description
        == "the words come from different wordlists: words 1–11 are english, word 12 is japanese; a phrase uses one wordlist"
    )
    // 对 is simplified only, 對 and 據 traditional only.
    let chinese = MnemonicError.mixedLanguages([
      .chineseSimplified: [1, 2, 4, 5, 6, 7, 8, 9, 10, 12], .chineseTraditional: [3, 11],
    ])
    #expect(error("壤 对 據 人 三 谈 我 表 壤 对 據 不") == chinese)
    #expect(
      chinese.description
        == "the words come from different wordlists: words 1–2, 4–10, 12 are chinese_simplified, words 3, 11 are chinese_traditional; a phrase uses one wordlist"
    )
  }

  @Test func forcedLanguageMustHoldEveryWord() {
    let expected = MnemonicError.wordNotInLanguage(
      position: 1, word: "abandon", language: .spanish, foundIn: [.english, .french])
    #expect(error(abandonAbout, language: .spanish) == expected)
    #expect(
      expected.description
        == "word 1 ('abandon') is not in the spanish wordlist but in the english and french wordlists"
    )
    #expect(
      error(abandonAbout, language: .french)
        == .wordNotInLanguage(position: 12, word: "about", language: .french, foundIn: [.english]))
    #expect(
      MnemonicError.wordNotInLanguage(
        position: 12, word: "about", language: .french, foundIn: [.english]
      ).description
        == "word 12 ('about') is not in the french wordlist but in the english wordlist")
    // Abbreviations are English only.
    #expect(
      error(abandons(11) + " abou", language: .french)
        == .unknownWord(
          position: 12, word: "abou", language: .french,
          suggestions: ["aboutir", "absolu", "amour"]))
    #expect(
      error(abandonAbout, language: .japanese)
        == .wordNotInLanguage(
          position: 1, word: "abandon", language: .japanese, foundIn: [.english, .french]))
    #expect(
      error(abandons(11) + " abot", language: .english)
        == .unknownWord(
          position: 12, word: "abot", language: .english, suggestions: ["about", "above", "able"]))
    #expect(
      error(abandons(11) + " about", language: .chineseSimplified)
        == .wordNotInLanguage(
          position: 1, word: "abandon", language: .chineseSimplified, foundIn: [.english, .french]))
  }

  @Test func messagesNeverQuoteMoreThanTheWordAtFault() {
    let phrase = abandons(6) + " abot " + abandons(4) + " about"
    let message = error(phrase)?.description ?? ""
    #expect(!message.contains("abandon"))
  }
}

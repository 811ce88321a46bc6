import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

/// The published test mnemonic for 16 zero bytes of entropy.
let abandonAbout = Array(repeating: "abandon", count: 11).joined(separator: " ") + " about"

func secure(hex: String) throws -> SecureBytes {
  SecureBytes(try #require(Hex.decode(hex)))
}

func text(_ bytes: SecureBytes) -> String {
  bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

@Suite struct WordlistTests {
  @Test(arguments: [
    (Wordlist.Language.english, "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda"),
    (.japanese, "2eed0aef492291e061633d7ad8117f1a2b03eb80a29d0e4e3117ac2528d05ffd"),
    (.korean, "9e95f86c167de88f450f0aaf89e87f6624a57f973c67b516e338e8e8b8897f60"),
    (.spanish, "46846a5a0139d1e3cb77293e521c2865f7bcdb82c44e8d0a06a2cd0ecba48c0b"),
    (.chineseSimplified, "5c5942792bd8340cb8b27cd592f1015edf56a8c5b26276ee18a482428e7c5726"),
    (.chineseTraditional, "417b26b3d8500a4ae3d59717d7011952db6fc2fb84b807f3f94ac734e89c1b5f"),
    (.french, "ebc3959ab7801a1df6bac4fa7d970652f1df76b683cd2f4003c941c63d517e59"),
    (.italian, "d392c49fdb700a24cd1fceb237c1f65dcc128f6b34a8aacb58b59384b5c648c2"),
    (.czech, "7e80e161c3e93d9554c2efb78d4e3cebf8fc727e9c52e03b83b94406bdcc95fc"),
    (.portuguese, "2685e9c194c82ae67e10ba59d9ea5345a23dc093e92276fc5361f6667d79cd3f"),
  ])
  func embeddedFileIsThePublishedOne(language: Wordlist.Language, sha256: String) {
    #expect(Hex.encode(SHA256.hash(Wordlist.sourceFile(language))) == sha256)
  }

  @Test(arguments: Wordlist.Language.allCases)
  func has2048UniqueWordsEachFoundAtItsIndex(language: Wordlist.Language) {
    let list = Wordlist.named(language)
    #expect(list.language == language)
    #expect(list.words.count == 2048)
    #expect(Set(list.words.map { Array($0.utf8) }).count == 2048)
    for (index, word) in list.words.enumerated() {
      #expect(list.index(of: word) == index, "\(language) \(word)")
    }
  }

  @Test func everyEnglishWordIsUniqueInItsFirstFourLetters() {
    #expect(Set(Wordlist.named(.english).words.map { $0.prefix(4) }).count == 2048)
  }

  @Test func matchingIgnoresCaseAndComposition() {
    let english = Wordlist.named(.english)
    #expect(english.index(of: "ABANDON") == 0)
    #expect(english.index(of: "Zoo") == 2047)
    #expect(english.index(of: "abando") == nil)
    let spanish = Wordlist.named(.spanish)
    #expect(spanish.index(of: "\u{E1}baco") == 0)  // NFC á
    #expect(spanish.index(of: "a\u{301}baco") == 0)  // NFD á
    #expect(spanish.index(of: "\u{C1}BACO") == 0)
    #expect(spanish.index(of: "abaco") == nil)
  }

  @Test func suggestionsRankUniquePrefixThenEditDistance() {
    let english = Wordlist.named(.english)
    #expect(english.suggestions(for: "abot") == ["about", "above", "able"])
    #expect(english.suggestions(for: "abuot") == ["about", "abuse", "adult"])
    #expect(english.suggestions(for: "aband") == ["abandon", "bind", "brand"])
    #expect(english.suggestions(for: "abo") == ["about", "above"])
    #expect(english.suggestions(for: "Zoo", limit: 1) == ["zoo"])
    #expect(english.suggestions(for: "qqqqqqq") == [])
    #expect(english.suggestions(for: "about", limit: 0) == [])
    #expect(Wordlist.named(.spanish).suggestions(for: "abaco") == ["ábaco", "tabaco", "abono"])
  }
}

@Suite struct MnemonicTests {
  @Test func cleanPhraseParses() throws {
    let mnemonic = try Mnemonic(phrase: abandonAbout)
    #expect(mnemonic.language == .english)
    #expect(mnemonic.wordCount == 12)
    #expect(mnemonic.entropy.revealHex() == String(repeating: "00", count: 16))
    #expect(mnemonic.expandedAbbreviations == [])
    #expect(text(mnemonic.phrase()) == abandonAbout)
    #expect(
      mnemonic.seed().revealHex()
        == "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4"
    )
  }

  @Test(arguments: [
    "\t" + abandonAbout.replacingOccurrences(of: " ", with: "\t") + "\n",
    abandonAbout.replacingOccurrences(of: " ", with: "\r\n") + "\r\n",
    "   " + abandonAbout.replacingOccurrences(of: " ", with: "    ") + "  ",
    abandonAbout.uppercased(),
    "Abandon aBaNdOn " + abandonAbout.dropFirst(16),
    "\u{FEFF}" + abandonAbout,
    abandonAbout.replacingOccurrences(of: " ", with: "\u{3000}"),
    abandonAbout.replacingOccurrences(of: " ", with: "\u{A0}"),
    abandonAbout.replacingOccurrences(of: " ", with: "\u{2028}"),
  ])
  func awkwardShapesGiveTheCleanSeed(phrase: String) throws {
    let clean = try Mnemonic(phrase: abandonAbout).seed()
    let fromString = try Mnemonic(phrase: phrase)
    let fromBytes = try Mnemonic(phrase: SecureBytes(utf8: phrase))
    #expect(fromString.seed() == clean)
    #expect(fromBytes.seed() == clean)
    #expect(text(fromBytes.phrase()) == abandonAbout)
  }

  @Test func utf8ByteOrderMarkIsIgnored() throws {
    let bytes = SecureBytes([0xEF, 0xBB, 0xBF] + Array(abandonAbout.utf8))
    #expect(try Mnemonic(phrase: bytes).entropy == Mnemonic(phrase: abandonAbout).entropy)
  }

  /// Seeds cross-checked with python mnemonic 0.21 (`Mnemonic.to_seed`).
  @Test(arguments: [
    // Spanish, 16 × 0x00: "ábaco … abierto"; the wordlist spells á decomposed.
    (
      "00000000000000000000000000000000", Wordlist.Language.spanish, "",
      "fdfe9b7c7a5e5079bb36d6381838867a34358db0a0307d060adbaf5edadb08b0a87c06ede1a96afd8566ef499792ffcbd37f43f6f554fa344138660eacdefcf8"
    ),
    (
      "80808080808080808080808080808080", .spanish, "TREZOR",
      "a89366f7f9c4bd98afca8edf1242507506562b8eb8a3a60468cafcb6f3037aba1e4d9a7497f6d49fa94aca87c95703873741441a719325af371f8eda9b59dc83"
    ),
    (
      "80808080808080808080808080808080", .french, "",
      "6b048b6e7591f054511ca851656557df6370290f673ebb97246f62e16ba31d820f934247832106879694f2ae430253dce5b01121b126721fdaca059b6b521a77"
    ),
    (
      "00000000000000000000000000000000", .korean, "",
      "746d3a64d624fdc40680bd86270d00743f6f90e969983a00021b2569c55a2f53857a4596c9c5e3e9810e0f40436b189f17bc2b95f341834acb4cfa1419149236"
    ),
  ])
  func composedAccentsGiveTheSeedOfTheNormalisedPhrase(
    entropy: String, language: Wordlist.Language, passphrase: String, seed: String
  ) throws {
    let published = text(try Mnemonic(entropy: secure(hex: entropy), language: language).phrase())
    let composed = published.precomposedStringWithCanonicalMapping
    #expect(Array(composed.utf8) != Array(published.utf8))
    for variant in [published, composed, composed.uppercased()] {
      let mnemonic = try Mnemonic(phrase: variant)
      #expect(mnemonic.language == language)
      #expect(mnemonic.entropy.revealHex() == entropy)
      #expect(mnemonic.seed(passphrase: SecureBytes(utf8: passphrase)).revealHex() == seed)
    }
  }

  /// "ﬁ㍍Ä" is "fiメートルÄ" under NFKD; seed cross-checked with python mnemonic 0.21.
  @Test func passphraseIsNormalisedNFKD() throws {
    let mnemonic = try Mnemonic(phrase: abandonAbout)
    let expected =
      "6d5a891aea5d95d3e2b501d88324495ebd18a9bd948986239784ebdefba849af004973bd1764e1b5c3a81f0308264726807454bb8c681357d7a15c750779af93"
    for passphrase in ["\u{FB01}\u{334D}\u{C4}", "fi\u{30E1}\u{30FC}\u{30C8}\u{30EB}A\u{308}"] {
      #expect(mnemonic.seed(passphrase: SecureBytes(utf8: passphrase)).revealHex() == expected)
    }
    #expect(mnemonic.seed(passphrase: SecureBytes(utf8: "fiメートルÄ")).revealHex() == expected)
    #expect(mnemonic.seed(passphrase: SecureBytes(utf8: "TREZOR")) != mnemonic.seed())
  }

  @Test func englishWordsMayBeAbbreviatedToFourLetters() throws {
    let short = try Mnemonic(
      phrase: Array(repeating: "aban", count: 11).joined(separator: " ") + " ABOU")
    #expect(short.language == .english)
    #expect(short.expandedAbbreviations == Array(1...12))
    #expect(short.seed() == (try Mnemonic(phrase: abandonAbout).seed()))
    #expect(text(short.phrase()) == abandonAbout)

    let forced = try Mnemonic(phrase: "aband " + abandonAbout.dropFirst(8), language: .english)
    #expect(forced.expandedAbbreviations == [1])
  }

  /// trezor-en-18 with every word cut to four letters; "leve" (level) is also a Spanish word and
  /// "hobb" etc. are in no list, yet the phrase is read as English.
  @Test func abbreviationThatIsAWordOfAnotherListStillExpands() throws {
    let published =
      "panda eyebrow bullet gorilla call smoke muffin taste mesh discover soft ostrich alcohol speed nation flash devote level hobby quick inner drive ghost inside"
    let words = published.split(separator: " ")
    let short = try Mnemonic(phrase: words.map { $0.prefix(4) }.joined(separator: " "))
    #expect(
      short.entropy.revealHex()
        == "9f6a2878b2520799a44ef18bc7df394e7061a224d2c33cd015b157d746869863")
    #expect(
      short.expandedAbbreviations == words.indices.filter { words[$0].count > 4 }.map { $0 + 1 })
    #expect(short.expandedAbbreviations.contains(18))
    #expect(Wordlist.named(.spanish).index(of: "leve") != nil)
    #expect(short.seed() == (try Mnemonic(phrase: published).seed()))
  }

  @Test func detectsEachLanguage() throws {
    for language in Wordlist.Language.allCases {
      let written = try Mnemonic(
        entropy: secure(hex: "80808080808080808080808080808080"), language: language)
      let parsed = try Mnemonic(phrase: written.phrase())
      #expect(parsed.language == language)
      #expect(parsed.entropy.revealHex() == "80808080808080808080808080808080")
    }
  }

  /// 的 (index 0) and 在 (index 3) are in both Chinese lists at the same index: the phrase for
  /// zero entropy is valid in both and is read as the first, simplified.
  @Test func sharedChineseCharactersReadAsSimplifiedUnlessForced() throws {
    let phrase = Array(repeating: "的", count: 11).joined(separator: " ") + " 在"
    let seed =
      "c015b86e4b208402bb0bdd0febb746708b869bb6e433cb227fd66d444f3ccdc360fee9ca9271014c2a684df380fcc40bd80a37eaa41a8061a52a18d319cdd899"
    let detected = try Mnemonic(phrase: phrase)
    #expect(detected.language == .chineseSimplified)
    #expect(detected.seed().revealHex() == seed)
    let forced = try Mnemonic(phrase: phrase, language: .chineseTraditional)
    #expect(forced.language == .chineseTraditional)
    #expect(forced.seed().revealHex() == seed)

    // 對, 據 and 談 are traditional only.
    let traditional = try Mnemonic(phrase: "壤 對 據 人 三 談 我 表 壤 對 據 不")
    #expect(traditional.language == .chineseTraditional)
    #expect(traditional.entropy.revealHex() == "80808080808080808080808080808080")
    #expect(
      traditional.seed().revealHex()
        == "fbb9748bb7dbb9491369a87db815572ab042b656fd1e7ab5f2caff465630c34adf02df96acf03bee9cd4f69589159463730b8b0577251a8a3876d04455b66ae6"
    )
  }

  @Test func japanesePhraseReadsWithAnySpacing() throws {
    let japanese = try Mnemonic(
      entropy: secure(hex: "00000000000000000000000000000000"), language: .japanese)
    let published = text(japanese.phrase())
    #expect(published.unicodeScalars.filter { $0 == "\u{3000}" }.count == 11)
    let spaced = try Mnemonic(phrase: published.replacingOccurrences(of: "\u{3000}", with: " "))
    #expect(spaced.language == .japanese)
    #expect(spaced.seed() == japanese.seed())
  }

  @Test(arguments: Wordlist.Language.allCases)
  func generatedPhrasesRoundTrip(language: Wordlist.Language) throws {
    for wordCount in Mnemonic.validWordCounts {
      let generated = try Mnemonic.generate(wordCount: wordCount, language: language)
      #expect(generated.wordCount == wordCount)
      #expect(generated.entropy.count == wordCount * 4 / 3)
      let phrase = generated.phrase()
      let separator = language == .japanese ? "\u{3000}" : " "
      #expect(text(phrase).components(separatedBy: separator).count == wordCount)

      let forced = try Mnemonic(phrase: phrase, language: language)
      #expect(forced.entropy == generated.entropy)
      #expect(forced.seed() == generated.seed())
      // Detection may pick simplified Chinese for a traditional phrase of shared characters;
      // the entropy is the same.
      let detected = try Mnemonic(phrase: phrase)
      #expect(detected.entropy == generated.entropy)
      #expect(
        detected.language == language
          || (language == .chineseTraditional && detected.language == .chineseSimplified))
    }
  }

  @Test func generatedEntropyDiffers() throws {
    #expect(try Mnemonic.generate().entropy != Mnemonic.generate().entropy)
    #expect(try Mnemonic.generate().wordCount == 24)
  }

  /// Exactly 2^(11 − words/3) last words complete eleven fixed words.
  @Test func validLastWordCountMatchesTheWordlist() {
    #expect(Mnemonic.validLastWordCount(wordCount: 12) == 128)
    #expect(Mnemonic.validLastWordCount(wordCount: 24) == 8)
    let first = Array(repeating: "abandon", count: 11).joined(separator: " ")
    let valid = Wordlist.named(.english).words.filter {
      (try? Mnemonic(phrase: first + " " + $0, language: .english)) != nil
    }
    #expect(valid.count == 128)
    #expect(valid.contains("about"))
  }
}

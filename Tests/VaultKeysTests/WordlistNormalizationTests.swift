import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

/// The wordlists are embedded in the form the seed needs, so nothing is normalised at start-up.
@Suite struct WordlistNormalizationTests {
  /// SHA-256 of NFKD(published list), computed with Python's unicodedata.normalize("NFKD", …)
  /// from the lists of the BIP-39 repository: the same as the published files' own hashes,
  /// since the published lists are in NFKD already.
  static let nfkdSHA256: [Wordlist.Language: String] = [
    .english: "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda",
    .japanese: "2eed0aef492291e061633d7ad8117f1a2b03eb80a29d0e4e3117ac2528d05ffd",
    .korean: "9e95f86c167de88f450f0aaf89e87f6624a57f973c67b516e338e8e8b8897f60",
    .spanish: "46846a5a0139d1e3cb77293e521c2865f7bcdb82c44e8d0a06a2cd0ecba48c0b",
    .chineseSimplified: "5c5942792bd8340cb8b27cd592f1015edf56a8c5b26276ee18a482428e7c5726",
    .chineseTraditional: "417b26b3d8500a4ae3d59717d7011952db6fc2fb84b807f3f94ac734e89c1b5f",
    .french: "ebc3959ab7801a1df6bac4fa7d970652f1df76b683cd2f4003c941c63d517e59",
    .italian: "d392c49fdb700a24cd1fceb237c1f65dcc128f6b34a8aacb58b59384b5c648c2",
    .czech: "7e80e161c3e93d9554c2efb78d4e3cebf8fc727e9c52e03b83b94406bdcc95fc",
    .portuguese: "2685e9c194c82ae67e10ba59d9ea5345a23dc093e92276fc5361f6667d79cd3f",
  ]

  @Test(arguments: Wordlist.Language.allCases)
  func embeddedTextIsTheNFKDOfThePublishedList(language: Wordlist.Language) throws {
    let embedded = Wordlist.sourceFile(language)
    #expect(Hex.encode(SHA256.hash(embedded)) == Self.nfkdSHA256[language])
    // And it is NFKD by Foundation's (ICU's) reckoning too, byte for byte.
    let text = String(decoding: embedded, as: UTF8.self)
    #expect(Array(text.decomposedStringWithCompatibilityMapping.utf8) == embedded)
  }

  /// Each word is its own matching key (NFKD and lowercase), which is why the index needs no
  /// normalisation when it is built.
  @Test(arguments: Wordlist.Language.allCases)
  func everyWordIsItsOwnMatchingKey(language: Wordlist.Language) {
    for word in Wordlist.named(language).words {
      let key = word.decomposedStringWithCompatibilityMapping.lowercased()
        .decomposedStringWithCompatibilityMapping
      #expect(Array(key.utf8) == Array(word.utf8), "\(language) \(word)")
    }
  }

  /// Lookup gives what the earlier implementation gave, which normalised every word with
  /// Foundation when the list was loaded: typed forms (NFC, NFD, upper case, full-width) find
  /// the same index as the word itself.
  @Test(arguments: Wordlist.Language.allCases)
  func lookupMatchesTheNormalisingLookup(language: Wordlist.Language) {
    let list = Wordlist.named(language)
    var reference: [String: Int] = [:]
    for (index, word) in list.words.enumerated() {
      let key = word.decomposedStringWithCompatibilityMapping.lowercased()
        .decomposedStringWithCompatibilityMapping
      if reference[key] == nil { reference[key] = index }
    }
    for (index, word) in list.words.enumerated() {
      let forms = [
        word, word.precomposedStringWithCanonicalMapping, word.decomposedStringWithCanonicalMapping,
        word.uppercased(), word.precomposedStringWithCanonicalMapping.uppercased(),
        String(String.UnicodeScalarView(word.unicodeScalars.map(Self.fullWidth))),
      ]
      for form in forms {
        let key = form.decomposedStringWithCompatibilityMapping.lowercased()
          .decomposedStringWithCompatibilityMapping
        #expect(list.index(of: form) == reference[key], "\(language) \(form)")
        #expect(list.index(of: form) == index, "\(language) \(form)")
      }
    }
    #expect(list.index(of: "zzzzzz") == nil)
  }

  /// The full-width form of an ASCII letter (NFKD maps it back).
  static func fullWidth(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    guard (0x61...0x7A).contains(scalar.value) else { return scalar }
    return Unicode.Scalar(scalar.value - 0x61 + 0xFF41)!
  }
}
